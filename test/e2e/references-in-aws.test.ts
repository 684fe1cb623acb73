// A reference lends only what AWS says is the referenced resource's own, in the account the
// referrer really acts in — checked with the referrer's credentials, never from status.
// The controller reconciles DBInstances only (--reconcile-resources=DBInstance), so the
// DBSubnetGroups' status and AWS objects are exactly what each test makes them:
//   - a group refused in truth (its name is another object's group) with a status the tenant
//     forged (Synced at its generation): the referrer is ACK.Terminal ReferenceNotOwned, naming
//     the real owner, and nothing is created;
//   - a referrer on static keys (its account known only from STS) naming a group placed in
//     another account, while its own account has an untagged group of the same name: Terminal
//     ReferenceAccountMismatch naming both accounts, nothing created in either;
//   - static keys of the group's own account: the reference holds and the instance is placed in it.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { CreateDBSubnetGroupCommand, RDSClient } from "@aws-sdk/client-rds";
import { credentialsFor } from "../../src/local-stack/accounts.ts";
import { defaultSubnets } from "../../src/local-stack/default-subnets.ts";
import { fillExamplePlaceholders } from "../../src/local-stack/example-placeholders.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { dbInstanceIn } from "../support/rds-instances.ts";
import {
  clientAs,
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

function group(ns: string, name: string, awsName: string, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: "rds.services.k8s.aws/v1alpha1",
    kind: "DBSubnetGroup",
    metadata: { name, namespace: ns },
    spec: {
      name: awsName,
      description: "database subnets",
      subnetIDs: [`subnet-${X}-a`, `subnet-${X}-b`],
      ...extra,
    },
  } as KubeObject;
}

function dbInstance(ns: string, name: string, groupName: string, identityRef?: string): KubeObject {
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
      dbSubnetGroupRef: { from: { name: groupName } },
      ...(identityRef ? { identityRef: { kind: "AWSStaticIdentity", name: identityRef } } : {}),
    },
  } as KubeObject;
}

const password = (ns: string): KubeObject =>
  ({
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "db-password", namespace: ns },
    stringData: { password: "not-a-real-password-1" },
  }) as KubeObject;

const staticKeys = (name: string, account: string, ns: string): KubeObject[] => [
  {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name, namespace: "ack-system" },
    stringData: { AccessKeyID: `local-stack-keys-for-${account}`, SecretAccessKey: "placeholder" },
  } as KubeObject,
  identity("AWSStaticIdentity", name, { secretRef: name, allowedNamespaces: { list: [ns] } }),
];

/** A DB subnet group in `account` made outside the controller, tagged as `tags` say. */
async function awsGroup(account: string, name: string, tags: Record<string, string>): Promise<void> {
  const subnets = await defaultSubnets(
    endpoint,
    (await credentialsFor(endpoint, account)).accessKeyId,
    region,
  );
  await (await clientAs(RDSClient, endpoint, account)).send(
    new CreateDBSubnetGroupCommand({
      DBSubnetGroupName: name,
      DBSubnetGroupDescription: "made by the test",
      SubnetIds: subnets.slice(0, 2),
      Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })),
    }),
  );
}

/** The tags the controller writes on a group it owns, for the group object `ns/name` now. */
async function ownTags(ns: string, name: string): Promise<Record<string, string>> {
  const uid = (await getResource(e2e.kube, "DBSubnetGroup", ns, name))?.metadata.uid ?? "";
  return {
    "services.k8s.aws/namespace": ns,
    "services.k8s.aws/owner": `DBSubnetGroup/${ns}/${name}`,
    "services.k8s.aws/owner-uid": uid,
  };
}

/** Writes the status a Synced group would have (as the controller would, or a tenant forging it). */
async function markSynced(ns: string, name: string, account: string): Promise<void> {
  const generation = (await getResource(e2e.kube, "DBSubnetGroup", ns, name))?.metadata.generation;
  await e2e.kube.request({
    method: "PATCH",
    path: `${resourcePath("DBSubnetGroup", ns, name)}/status`,
    contentType: "application/merge-patch+json",
    body: {
      status: {
        ackResourceMetadata: {
          ownerAccountID: account,
          region,
          arn: `arn:aws:rds:${region}:${account}:subgrp:${name}`,
        },
        conditions: [
          {
            type: "ACK.ResourceSynced",
            status: "True",
            observedGeneration: generation,
            lastTransitionTime: "2026-11-01T00:00:00Z",
          },
        ],
      },
    },
  });
}

const instanceIn = (account: string, id: string) => dbInstanceIn(endpoint, account, id);

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  await e2e.apply(
    await fillExamplePlaceholders(
      [
        namespace("ack-system"),
        namespace("team-c", { [owner]: X }),
        namespace("net", { [owner]: X }),
        namespace("legacy"),
        namespace("legacy-x", { [owner]: X }),
        configMap("ack-role-account-map", {
          [X]: `arn:aws:iam::${X}:role/x`,
          [Y]: `arn:aws:iam::${Y}:role/y`,
        }),
        identity("AWSRoleIdentity", "central", {
          sourceIdentityRef: { kind: "AWSControllerIdentity", name: "default" },
          roleARN: `arn:aws:iam::${X}:role/central`,
          allowedNamespaces: { list: ["legacy"] },
        }),
        ...staticKeys("keys-y", Y, "legacy"),
        ...staticKeys("keys-x", X, "legacy-x"),
        ...["net", "legacy", "legacy-x"].map(password),
        // team-c's group owns "team-c-net" in X; net's "squatter" names the same AWS group.
        group("team-c", "net", "team-c-net"),
        group("net", "squatter", "team-c-net"),
        // Placed in X through its identity, while legacy's instances act with Y's static keys.
        group("legacy", "central-net", "central-net", {
          identityRef: { kind: "AWSRoleIdentity", name: "central" },
        }),
        group("legacy-x", "own-net", "legacy-x-net"),
      ],
      endpoint,
    ),
  );
  await awsGroup(X, "team-c-net", await ownTags("team-c", "net"));
  await awsGroup(X, "central-net", await ownTags("legacy", "central-net"));
  // The trap: Y holds an untagged group of the same name, where an unchecked reference would land.
  await awsGroup(Y, "central-net", {});
  await awsGroup(X, "legacy-x-net", await ownTags("legacy-x", "own-net"));
  await markSynced("team-c", "net", X);
  await markSynced("legacy", "central-net", X);
  await markSynced("legacy-x", "own-net", X);
  await e2e.startController(["--reconcile-resources=DBInstance"]);
});
after(() => e2e?.stop());

test("a forged Synced status on a group whose AWS name is another object's lends nothing: ReferenceNotOwned", async () => {
  // The tenant of net forges what a Synced group would show; in truth the name is team-c's group.
  await markSynced("net", "squatter", X);
  await e2e.apply([dbInstance("net", "lured-db", "squatter")]);
  const r = await waitForResourceCondition(
    e2e.kube,
    "DBInstance",
    "net",
    "lured-db",
    "ACK.Terminal",
    "True",
    "ReferenceNotOwned",
  );
  assert.match(
    condition(r, "ACK.Terminal")?.message ?? "",
    /names DBSubnetGroup net\/squatter, but the DBSubnetGroup "team-c-net" in account 111111111111 \(.+\) is not that resource's own \(owned by DBSubnetGroup\/team-c\/net/,
  );
  assert.equal(await instanceIn(X, "net-lured-db"), undefined, "nothing created on a forged status");
});

test("static keys in another account than the group's: ReferenceAccountMismatch naming both; nothing in either", async () => {
  await e2e.apply([dbInstance("legacy", "billing-db", "central-net", "keys-y")]);
  const r = await waitForResourceCondition(
    e2e.kube,
    "DBInstance",
    "legacy",
    "billing-db",
    "ACK.Terminal",
    "True",
    "ReferenceAccountMismatch",
  );
  assert.match(
    condition(r, "ACK.Terminal")?.message ?? "",
    new RegExp(`placed in account ${X}, but this DBInstance is placed in account ${Y}`),
  );
  assert.equal(await instanceIn(Y, "legacy-billing-db"), undefined, "not placed in Y's same-named group");
  assert.equal(await instanceIn(X, "legacy-billing-db"), undefined);
});

test("static keys of the group's own account: the reference holds, and the instance is placed in the group", async () => {
  await e2e.apply([dbInstance("legacy-x", "app-db", "own-net", "keys-x")]);
  await waitForResourceCondition(
    e2e.kube,
    "DBInstance",
    "legacy-x",
    "app-db",
    "ACK.ResourceSynced",
    "True",
    undefined,
    30_000,
  );
  assert.equal((await instanceIn(X, "legacy-x-app-db"))?.DBSubnetGroup?.DBSubnetGroupName, "legacy-x-net");
});
