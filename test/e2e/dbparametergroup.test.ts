// DBParameterGroup — RDS's parameter group, a declaration served by the generic runtime with its
// parameters written by the kind — end to end with the real controller process: a group with
// parameter overrides lands in the namespace's account (checked with that account's credentials),
// tagged as the object's, its parameters set, Synced with ACK's parameterOverrideStatuses; a changed
// value is applied; a DBInstance's dbParameterGroupRef waits for the group, then the instance uses
// it; deleting the group waits for the instance, then deletes it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { DescribeDBParametersCommand, ListTagsForResourceCommand, RDSClient } from "@aws-sdk/client-rds";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { kindMakers } from "../support/minimal-resources.ts";
import { dbInstanceIn } from "../support/rds-instances.ts";
import {
  clientAs,
  deleteResourceAndWait,
  type E2E,
  getResource,
  patchResource,
  startAppsInAccount,
  waitForResourceCondition,
  waitForSynced,
} from "./fixture.ts";

const X = "111111111111";
let e2e: E2E;
let endpoint: string;

before(async () => {
  e2e = await startAppsInAccount(X);
  endpoint = e2e.stack.awsEndpoint ?? "";
});
after(() => e2e?.stop());

async function parametersIn(account: string, group: string): Promise<Record<string, string>> {
  const rds = await clientAs(RDSClient, endpoint, account);
  const out = await rds.send(
    new DescribeDBParametersCommand({ DBParameterGroupName: group, Source: "user" }),
  );
  return Object.fromEntries(
    (out.Parameters ?? []).map((p) => [p.ParameterName ?? "", p.ParameterValue ?? ""]),
  );
}

const group = (name: string, parameterOverrides: Record<string, string>): KubeObject =>
  ({
    apiVersion: "rds.services.k8s.aws/v1alpha1",
    kind: "DBParameterGroup",
    metadata: { name, namespace: "apps" },
    spec: {
      name: `apps-${name}`,
      family: "postgres16",
      description: "the apps' database settings",
      parameterOverrides,
      tags: [{ key: "team", value: "apps" }],
    },
  }) as KubeObject;

test("a DBParameterGroup lands in the account with its parameters, Synced; a changed value is applied", async () => {
  await e2e.apply([group("settings", { work_mem: "8192", log_min_duration_statement: "500" })]);
  const r = await waitForSynced(e2e.kube, "DBParameterGroup", "apps", "settings");
  assert.equal(r.status?.ackResourceMetadata?.ownerAccountID, X);
  assert.equal(r.status?.ackResourceMetadata?.arn, `arn:aws:rds:us-east-1:${X}:pg:apps-settings`);
  const statuses = (r.status as Record<string, unknown>)["parameterOverrideStatuses"] as {
    parameterName?: string;
  }[];
  assert.deepEqual(statuses.map((s) => s.parameterName).sort(), ["log_min_duration_statement", "work_mem"]);
  assert.deepEqual(await parametersIn(X, "apps-settings"), {
    work_mem: "8192",
    log_min_duration_statement: "500",
  });
  const tags = await (await clientAs(RDSClient, endpoint, X)).send(
    new ListTagsForResourceCommand({ ResourceName: `arn:aws:rds:us-east-1:${X}:pg:apps-settings` }),
  );
  const owned = tags.TagList?.find((t) => t.Key === "services.k8s.aws/owner-uid");
  assert.equal(owned?.Value, r.metadata.uid, "tagged as this object's");

  await patchResource(e2e.kube, "DBParameterGroup", "apps", "settings", {
    spec: { parameterOverrides: { work_mem: "16384", log_min_duration_statement: "500" } },
  });
  const patched = await getResource(e2e.kube, "DBParameterGroup", "apps", "settings");
  await waitForSynced(e2e.kube, "DBParameterGroup", "apps", "settings", patched?.metadata.generation ?? 0);
  assert.equal((await parametersIn(X, "apps-settings"))["work_mem"], "16384");
});

test("a DBInstance's dbParameterGroupRef waits for the group, then the instance uses it; the group is deleted after it", async () => {
  const maker = kindMakers["DBInstance"];
  assert.ok(maker);
  await e2e.apply([
    ...(maker.namespaceObjects?.("apps") ?? []),
    {
      apiVersion: "rds.services.k8s.aws/v1alpha1",
      kind: "DBInstance",
      metadata: { name: "db", namespace: "apps" },
      spec: { ...maker.spec("apps-db", X), dbParameterGroupRef: { from: { name: "tuned" } } },
    } as KubeObject,
  ]);
  await waitForResourceCondition(
    e2e.kube,
    "DBInstance",
    "apps",
    "db",
    "ACK.ResourceSynced",
    "False",
    "ReferenceNotFound",
  );
  assert.equal(
    await dbInstanceIn(endpoint, X, "apps-db"),
    undefined,
    "nothing made while the group is missing",
  );
  await e2e.apply([group("tuned", { work_mem: "4096" })]);
  await waitForSynced(e2e.kube, "DBInstance", "apps", "db");
  const made = await dbInstanceIn(endpoint, X, "apps-db");
  assert.deepEqual(
    made?.DBParameterGroups?.map((g) => g.DBParameterGroupName),
    ["apps-tuned"],
  );
  await deleteResourceAndWait(e2e.kube, "DBInstance", "apps", "db");
  await deleteResourceAndWait(e2e.kube, "DBParameterGroup", "apps", "tuned");
});
