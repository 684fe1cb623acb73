// References across namespaces with the opt-in, and a tenant forging the referenced object's
// status, end to end (the real controller process started with
// --allow-cross-namespace-references; dbsubnetgroup.test.ts runs without it):
//   - a DBInstance in apps names net's DB subnet group: both land in account X, so it is placed
//     in that group;
//   - one in namespace other (account Y) names the same group: it waits, ReferenceUnavailable,
//     and nothing is created in either account — the opt-in widens namespaces, never accounts; and
//     its condition says no more than one naming a group that does not exist: never net's account;
//   - a group whose identity is denied, with a status the tenant forged (Synced True at its
//     generation, recorded in account X): the referrer waits (ReferenceNotPlaced) and nothing is
//     created — the reference is judged by the resolver's decision now, never by status;
//   - deleting a group: a referrer the controller placed in it in AWS holds the deletion (its use
//     recorded in the system namespace, where no tenant writes); one in another namespace that
//     names it with an identity that does not exist and a forged ARN in its status holds nothing.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { credentialsFor } from "../../src/local-stack/accounts.ts";
import { defaultSubnets } from "../../src/local-stack/default-subnets.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { dbInstanceIn, dbSubnetGroupIn } from "../support/rds-instances.ts";
import {
  condition,
  configMap,
  deleteResourceAndWait,
  type E2E,
  getResource,
  identity,
  namespace,
  region,
  resourcePath,
  startE2E,
  waitForResourceCondition,
} from "./fixture.ts";

const X = "111111111111";
const Y = "222222222222";
const owner = "services.k8s.aws/owner-account-id";
let e2e: E2E;
let endpoint: string;
let subnets: string[];

function group(ns: string, name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: "rds.services.k8s.aws/v1alpha1",
    kind: "DBSubnetGroup",
    metadata: { name, namespace: ns },
    spec: { name, description: "shared database subnets", ...spec },
  } as KubeObject;
}

function dbInstance(
  ns: string,
  name: string,
  ref: { name: string; namespace?: string },
  extra: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: "rds.services.k8s.aws/v1alpha1",
    kind: "DBInstance",
    metadata: { name, namespace: ns },
    spec: {
      dbInstanceIdentifier: `${ns}-${name}`,
      dbInstanceClass: "db.t3.micro",
      engine: "postgres",
      allocatedStorage: 20,
      masterUsername: "admin_user",
      masterUserPassword: { name: "db-password", key: "password" },
      dbSubnetGroupRef: { from: ref },
      ...extra,
    },
  } as KubeObject;
}

const instanceIn = (account: string, id: string) => dbInstanceIn(endpoint, account, id);
const subnetGroupIn = (account: string, name: string) => dbSubnetGroupIn(endpoint, account, name);

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  subnets = await defaultSubnets(endpoint, (await credentialsFor(endpoint, X)).accessKeyId, region);
  await e2e.apply([
    namespace("ack-system"),
    namespace("net", { [owner]: X }),
    namespace("apps", { [owner]: X }),
    namespace("other", { [owner]: Y }),
    configMap("ack-role-account-map", { [X]: `arn:aws:iam::${X}:role/x`, [Y]: `arn:aws:iam::${Y}:role/y` }),
    // An identity no namespace may use: the forged group's decision is deny.
    identity("AWSRoleIdentity", "nobody", {
      sourceIdentityRef: { kind: "AWSControllerIdentity", name: "default" },
      roleARN: `arn:aws:iam::${X}:role/nobody`,
      allowedNamespaces: { list: [] },
    }),
    ...["apps", "other", "net"].map(
      (ns) =>
        ({
          apiVersion: "v1",
          kind: "Secret",
          metadata: { name: "db-password", namespace: ns },
          stringData: { password: "not-a-real-password-1" },
        }) as KubeObject,
    ),
    group("net", "shared-subnets", { subnetIDs: subnets.slice(0, 2) }),
    group("net", "forged", {
      subnetIDs: subnets.slice(0, 2),
      identityRef: { kind: "AWSRoleIdentity", name: "nobody" },
    }),
  ]);
  await e2e.startController(["--allow-cross-namespace-references"]);
});
after(() => e2e?.stop());

test("with the opt-in, a DBInstance in apps is placed in net's group: both in the same account", async () => {
  await waitForResourceCondition(
    e2e.kube,
    "DBSubnetGroup",
    "net",
    "shared-subnets",
    "ACK.ResourceSynced",
    "True",
  );
  await e2e.apply([dbInstance("apps", "api-db", { name: "shared-subnets", namespace: "net" })]);
  await waitForResourceCondition(
    e2e.kube,
    "DBInstance",
    "apps",
    "api-db",
    "ACK.ResourceSynced",
    "True",
    undefined,
    30_000,
  );
  assert.equal((await instanceIn(X, "apps-api-db"))?.DBSubnetGroup?.DBSubnetGroupName, "shared-subnets");
});

test("with the opt-in, a reference from another account's namespace waits, learning nothing of net; nothing created", async () => {
  await e2e.apply([
    dbInstance("other", "billing-db", { name: "shared-subnets", namespace: "net" }),
    dbInstance("other", "probe-db", { name: "no-such-group", namespace: "net" }),
  ]);
  const seen = async (name: string) =>
    condition(
      await waitForResourceCondition(
        e2e.kube,
        "DBInstance",
        "other",
        name,
        "ACK.Recoverable",
        "True",
        "ReferenceUnavailable",
      ),
      "ACK.Recoverable",
    )?.message ?? "";
  const existing = await seen("billing-db");
  const missing = await seen("probe-db");
  assert.match(
    existing,
    new RegExp(`placed where this DBInstance is \\(account ${Y} and region ${region}\\)`),
  );
  assert.doesNotMatch(existing, new RegExp(X), "net's account is never named to another namespace");
  // A group that exists in another account reads exactly as one that does not exist.
  assert.equal(existing.replace("shared-subnets", "no-such-group"), missing);
  assert.equal(await instanceIn(Y, "other-billing-db"), undefined);
  assert.equal(await instanceIn(X, "other-billing-db"), undefined);
});

test("a forged Synced status on a group whose identity is denied redirects nothing: the referrer waits", async () => {
  await waitForResourceCondition(
    e2e.kube,
    "DBSubnetGroup",
    "net",
    "forged",
    "ACK.Recoverable",
    "True",
    "IdentityNotPermitted",
  );
  const generation = (await getResource(e2e.kube, "DBSubnetGroup", "net", "forged"))?.metadata.generation;
  // The tenant writes the status a Synced group in account X would have.
  await e2e.kube.request({
    method: "PATCH",
    path: `${resourcePath("DBSubnetGroup", "net", "forged")}/status`,
    contentType: "application/merge-patch+json",
    body: {
      status: {
        ackResourceMetadata: { ownerAccountID: X, region, arn: `arn:aws:rds:${region}:${X}:subgrp:forged` },
        conditions: [
          {
            type: "ACK.ResourceSynced",
            status: "True",
            observedGeneration: generation,
            lastTransitionTime: "2026-11-01T00:00:00Z",
          },
          { type: "ACK.Recoverable", status: "False", lastTransitionTime: "2026-11-01T00:00:00Z" },
        ],
      },
    },
  });
  await e2e.apply([dbInstance("net", "lured-db", { name: "forged" })]);
  const r = await waitForResourceCondition(
    e2e.kube,
    "DBInstance",
    "net",
    "lured-db",
    "ACK.Recoverable",
    "True",
    "ReferenceNotPlaced",
  );
  assert.match(
    condition(r, "ACK.Recoverable")?.message ?? "",
    /DBSubnetGroup net\/forged, which has no settled placement now \(its decision: deny\)/,
  );
  assert.equal(await instanceIn(X, "net-lured-db"), undefined, "nothing created on a forged status");
});

test("deleting a group: a referrer placed in it holds it; another namespace's with no decided identity and a forged ARN holds nothing", async () => {
  await e2e.apply([group("net", "victim", { subnetIDs: subnets.slice(0, 2) })]);
  await waitForResourceCondition(e2e.kube, "DBSubnetGroup", "net", "victim", "ACK.ResourceSynced", "True");
  // A tenant in other names net's group, with an identity that does not exist, and writes the ARN
  // of an instance in account X into its own status.
  await e2e.apply([
    dbInstance(
      "other",
      "squatter",
      { name: "victim", namespace: "net" },
      { identityRef: { kind: "AWSRoleIdentity", name: "does-not-exist" } },
    ),
  ]);
  await waitForResourceCondition(e2e.kube, "DBInstance", "other", "squatter", "ACK.Recoverable", "True");
  await e2e.kube.request({
    method: "PATCH",
    path: `${resourcePath("DBInstance", "other", "squatter")}/status`,
    contentType: "application/merge-patch+json",
    body: {
      status: {
        ackResourceMetadata: {
          ownerAccountID: X,
          region,
          arn: `arn:aws:rds:${region}:${X}:db:other-squatter`,
        },
      },
    },
  });
  await e2e.kube.request({ method: "DELETE", path: resourcePath("DBSubnetGroup", "net", "victim") });
  await waitFor(async () => (await getResource(e2e.kube, "DBSubnetGroup", "net", "victim")) === undefined, {
    what: "net/victim deleted although other/squatter names it",
    timeoutMs: 30_000,
  });
  assert.equal(await subnetGroupIn(X, "victim"), undefined, "and gone in AWS");

  // apps/api-db was placed in net's shared group in AWS: its use is the controller's record.
  const groupUid = (await getResource(e2e.kube, "DBSubnetGroup", "net", "shared-subnets"))?.metadata.uid;
  const dbUid = (await getResource(e2e.kube, "DBInstance", "apps", "api-db"))?.metadata.uid ?? "";
  const record = await e2e.kube.request<{ data?: Record<string, string> }>({
    method: "GET",
    path: `/api/v1/namespaces/ack-system/configmaps/crossrole-referrers-${groupUid}`,
  });
  assert.match(record.data?.[dbUid] ?? "", new RegExp(`"account":"${X}","region":"${region}"`));
  // Its tenant wiping its own status changes nothing: status is never an input.
  await e2e.kube.request({
    method: "PATCH",
    path: `${resourcePath("DBInstance", "apps", "api-db")}/status`,
    contentType: "application/merge-patch+json",
    body: { status: { ackResourceMetadata: null } },
  });
  await e2e.kube.request({ method: "DELETE", path: resourcePath("DBSubnetGroup", "net", "shared-subnets") });
  const blocked = await waitForResourceCondition(
    e2e.kube,
    "DBSubnetGroup",
    "net",
    "shared-subnets",
    "ACK.Recoverable",
    "True",
    "ReferencedInUse",
  );
  const message = condition(blocked, "ACK.Recoverable")?.message ?? "";
  assert.match(message, /still referenced by DBInstance apps\/api-db \(spec\.dbSubnetGroupRef\)/);
  assert.doesNotMatch(message, /other\//, "other's referrers, never placed in it, hold nothing");
  assert.ok(await subnetGroupIn(X, "shared-subnets"), "kept in AWS while used");
  // Once the instance is gone, the group goes, and with it its record.
  await deleteResourceAndWait(e2e.kube, "DBInstance", "apps", "api-db", 60_000);
  await waitFor(
    async () => (await getResource(e2e.kube, "DBSubnetGroup", "net", "shared-subnets")) === undefined,
    { what: "net/shared-subnets deleted once its referrer is gone", timeoutMs: 30_000 },
  );
  assert.equal(await subnetGroupIn(X, "shared-subnets"), undefined);
});
