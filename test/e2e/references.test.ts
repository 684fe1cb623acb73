// References across namespaces with the opt-in, and a tenant forging the referenced object's
// status, end to end (the real controller process started with
// --allow-cross-namespace-references; dbsubnetgroup.test.ts runs without it):
//   - a DBInstance in apps names net's DB subnet group: both land in account X, so it is placed
//     in that group;
//   - one in namespace other (account Y) names the same group: ACK.Terminal
//     ReferenceAccountMismatch, nothing created in either account — the opt-in widens namespaces,
//     never accounts;
//   - a group whose identity is denied, with a status the tenant forged (Synced True at its
//     generation, recorded in account X): the referrer waits (ReferenceNotPlaced) and nothing is
//     created — the reference is judged by the resolver's decision now, never by status.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { credentialsFor } from "../../src/local-stack/accounts.ts";
import { defaultSubnets } from "../../src/local-stack/default-subnets.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { dbInstanceIn } from "../support/rds-instances.ts";
import {
  condition,
  configMap,
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

function group(ns: string, name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: "rds.services.k8s.aws/v1alpha1",
    kind: "DBSubnetGroup",
    metadata: { name, namespace: ns },
    spec: { name, description: "shared database subnets", ...spec },
  } as KubeObject;
}

function dbInstance(ns: string, name: string, ref: { name: string; namespace?: string }): KubeObject {
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
    },
  } as KubeObject;
}

const instanceIn = (account: string, id: string) => dbInstanceIn(endpoint, account, id);

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  const subnets = await defaultSubnets(endpoint, (await credentialsFor(endpoint, X)).accessKeyId, region);
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

test("with the opt-in, a reference from another account's namespace is still ACK.Terminal; nothing created", async () => {
  await e2e.apply([dbInstance("other", "billing-db", { name: "shared-subnets", namespace: "net" })]);
  const r = await waitForResourceCondition(
    e2e.kube,
    "DBInstance",
    "other",
    "billing-db",
    "ACK.Terminal",
    "True",
    "ReferenceAccountMismatch",
  );
  assert.match(
    condition(r, "ACK.Terminal")?.message ?? "",
    new RegExp(`placed in account ${X}, but this DBInstance is placed in account ${Y}`),
  );
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
