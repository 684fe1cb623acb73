// DBSubnetGroup — the sixth kind, a declaration served by the generic runtime — end to end with
// the real controller process: a group in a namespace mapped to 111111111111 lands in that
// account (checked with that account's own credentials) over that account's subnets, tagged as
// the object's, Synced with ACK's status; a tag change is applied; subnetRefs to Subnet
// resources wait for them, then fill their IDs; deleting the object
// deletes the group. A DBInstance's dbSubnetGroupRef is resolved: it waits for the group, then
// the instance is placed in it; a reference to another namespace (without
// --allow-cross-namespace-references) or to a group in another account is ACK.Terminal and
// nothing is created; deleting a group still referenced waits until its referrers are gone.
// (A description change is not run here: moto 5.2.5's ModifyDBSubnetGroup
// loses the group it modifies; test/integration/rds-dbsubnetgroup.test.ts checks it on the wire.)

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ListTagsForResourceCommand, RDSClient } from "@aws-sdk/client-rds";
import { defaultSubnets } from "../../src/local-stack/default-subnets.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { dbInstanceIn, dbSubnetGroupIn } from "../support/rds-instances.ts";
import {
  clientAs,
  condition,
  configMap,
  credentialsFor,
  deleteResourceAndWait,
  type E2E,
  getResource,
  identity,
  namespace,
  patchResource,
  region,
  resourcePath,
  startE2E,
  waitForResourceCondition,
  waitForSynced,
} from "./fixture.ts";

const X = "111111111111";
const Y = "222222222222";
const ownerAccount = "services.k8s.aws/owner-account-id";

let e2e: E2E;
let endpoint: string;

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  await e2e.apply([
    namespace("ack-system"),
    namespace("net", { [ownerAccount]: X }),
    namespace("apps", { [ownerAccount]: X }),
    configMap("ack-role-account-map", { [X]: `arn:aws:iam::${X}:role/net-x` }),
    identity("AWSControllerIdentity", "default", {
      allowedNamespaces: { list: ["net", "apps", "ack-system"] },
    }),
    identity("AWSRoleIdentity", "central-it", {
      sourceIdentityRef: { kind: "AWSControllerIdentity", name: "default" },
      roleARN: `arn:aws:iam::${Y}:role/central-it`,
      allowedNamespaces: { list: ["net"] },
    }),
    ...["net", "apps"].map(
      (ns) =>
        ({
          apiVersion: "v1",
          kind: "Secret",
          metadata: { name: "db-password", namespace: ns },
          stringData: { password: "not-a-real-password-1" },
        }) as KubeObject,
    ),
  ]);
  await e2e.startController();
});
after(() => e2e?.stop());

const rdsAs = (account: string) => clientAs(RDSClient, endpoint, account);

/** The default VPC's subnets in `account`. */
const subnetsIn = async (account: string) =>
  defaultSubnets(endpoint, (await credentialsFor(endpoint, account)).accessKeyId, region);

const groupIn = (account: string, name: string) => dbSubnetGroupIn(endpoint, account, name);

async function tagsIn(account: string, arn: string): Promise<Record<string, string>> {
  const out = await (await rdsAs(account)).send(new ListTagsForResourceCommand({ ResourceName: arn }));
  return Object.fromEntries((out.TagList ?? []).map((t) => [t.Key ?? "", t.Value ?? ""]));
}

function subnetGroup(name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: "rds.services.k8s.aws/v1alpha1",
    kind: "DBSubnetGroup",
    metadata: { name, namespace: "net" },
    spec: { name, description: "shop database subnets", ...spec },
  } as KubeObject;
}

const synced = (name: string, minGeneration = 1) =>
  waitForSynced(e2e.kube, "DBSubnetGroup", "net", name, minGeneration);

test("a DBSubnetGroup lands in the namespace's account over its subnets, tagged, Synced with ACK's status; a tag change is applied; delete deletes it", async () => {
  const subnets = await subnetsIn(X);
  assert.ok(subnets.length >= 2, "account X has a default VPC with subnets");
  const name = "shop-db-subnets";
  await e2e.apply([
    subnetGroup(name, { subnetIDs: subnets.slice(0, 2), tags: [{ key: "team", value: "shop" }] }),
  ]);
  const r = await synced(name);
  const status = r.status as Record<string, unknown> | undefined;
  const arn = `arn:aws:rds:${region}:${X}:subgrp:${name}`;
  assert.equal(r.status?.ackResourceMetadata?.ownerAccountID, X);
  assert.equal(r.status?.ackResourceMetadata?.arn, arn);
  assert.equal(status?.["subnetGroupStatus"], "Complete");
  assert.match(String(status?.["vpcID"]), /^vpc-/);
  assert.ok(r.metadata.finalizers?.includes("finalizers.rds.services.k8s.aws/DBSubnetGroup"));

  const group = await groupIn(X, name);
  assert.deepEqual(group?.Subnets?.map((s) => s.SubnetIdentifier).sort(), subnets.slice(0, 2).sort());
  const tags = await tagsIn(X, arn);
  assert.equal(tags["team"], "shop");
  assert.equal(tags["services.k8s.aws/owner-uid"], r.metadata.uid, "tagged as this object's");

  await patchResource(e2e.kube, "DBSubnetGroup", "net", name, {
    spec: { tags: [{ key: "team", value: "payments" }] },
  });
  await synced(name, 2);
  assert.equal((await tagsIn(X, arn))["team"], "payments");

  await deleteResourceAndWait(e2e.kube, "DBSubnetGroup", "net", name);
  assert.equal(await groupIn(X, name), undefined, "deleted in AWS");
});

test("subnetRefs to Subnet resources: the group waits for them, then is made over the IDs their status records", async () => {
  const name = "by-ref";
  const subnet = (n: string, az: string, block: string): KubeObject =>
    ({
      apiVersion: "ec2.services.k8s.aws/v1alpha1",
      kind: "Subnet",
      metadata: { name: n, namespace: "net" },
      // In X's default VPC (the placeholder the e2e fixture fills).
      spec: { vpcID: `vpc-${X}`, cidrBlock: block, availabilityZone: `${region}${az}` },
    }) as KubeObject;
  await e2e.apply([
    subnetGroup(name, { subnetRefs: [{ from: { name: "private-a" } }, { from: { name: "private-b" } }] }),
  ]);
  const waiting = await waitForResourceCondition(
    e2e.kube,
    "DBSubnetGroup",
    "net",
    name,
    "ACK.ResourceSynced",
    "False",
  );
  assert.match(condition(waiting, "ACK.ResourceSynced")?.message ?? "", /private-a|Subnet/);
  assert.equal(await groupIn(X, name), undefined, "nothing made before the subnets are");

  await e2e.apply([subnet("private-a", "a", "172.31.200.0/24"), subnet("private-b", "b", "172.31.201.0/24")]);
  const ids = await Promise.all(
    ["private-a", "private-b"].map(async (n) => {
      const s = await waitForSynced(e2e.kube, "Subnet", "net", n);
      return String((s.status as Record<string, unknown>)["subnetID"]);
    }),
  );
  await synced(name);
  const group = await groupIn(X, name);
  assert.deepEqual(
    (group?.Subnets ?? []).map((s) => s.SubnetIdentifier).sort(),
    [...ids].sort(),
    "made over the subnets the references name",
  );
  const stored = await getResource(e2e.kube, "DBSubnetGroup", "net", name);
  assert.equal(
    (stored?.spec as Record<string, unknown> | undefined)?.["subnetIDs"],
    undefined,
    "the IDs never written into the spec",
  );
});

// ---- references: a DBInstance's dbSubnetGroupRef ----

function dbInstance(ns: string, name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: "rds.services.k8s.aws/v1alpha1",
    kind: "DBInstance",
    metadata: { name, namespace: ns },
    spec: {
      dbInstanceIdentifier: `${ns}-${name}`,
      dbInstanceClass: "db.t3.micro",
      engine: "postgres",
      engineVersion: "16.3",
      allocatedStorage: 20,
      masterUsername: "shop_admin",
      masterUserPassword: { name: "db-password", key: "password" },
      ...spec,
    },
  } as KubeObject;
}

const instanceIn = (account: string, id: string) => dbInstanceIn(endpoint, account, id);

test("dbSubnetGroupRef: the instance waits for the group, is woken when it is Synced, and placed in it (the group's AWS name, from its spec)", async () => {
  await e2e.apply([dbInstance("net", "shop-db", { dbSubnetGroupRef: { from: { name: "shop-db-net" } } })]);
  const waiting = await waitForResourceCondition(
    e2e.kube,
    "DBInstance",
    "net",
    "shop-db",
    "ACK.Recoverable",
    "True",
  );
  assert.equal(condition(waiting, "ACK.Recoverable")?.reason, "ReferenceNotFound");
  assert.match(
    condition(waiting, "ACK.Recoverable")?.message ?? "",
    /spec\.dbSubnetGroupRef names DBSubnetGroup net\/shop-db-net/,
  );
  assert.equal(await instanceIn(X, "net-shop-db"), undefined, "nothing created while the reference waits");

  const subnets = await subnetsIn(X);
  await e2e.apply([
    {
      ...subnetGroup("shop-db-net", { subnetIDs: subnets.slice(0, 2) }),
      spec: { name: "shop-db-subnets-in-aws", description: "shop", subnetIDs: subnets.slice(0, 2) },
    } as KubeObject,
  ]);
  await synced("shop-db-net");
  // The group's Synced status wakes the waiting instance (referrer-wakeup.ts): it is placed well
  // before its timed retry (15 s) would have come.
  const woken = Date.now();
  await waitForResourceCondition(
    e2e.kube,
    "DBInstance",
    "net",
    "shop-db",
    "ACK.ResourceSynced",
    "True",
    undefined,
    10_000,
  );
  assert.ok(Date.now() - woken < 10_000);
  const instance = await instanceIn(X, "net-shop-db");
  assert.equal(
    instance?.DBSubnetGroup?.DBSubnetGroupName,
    "shop-db-subnets-in-aws",
    "placed in the referenced group",
  );
});

test("dbSubnetGroupRef to another namespace, without --allow-cross-namespace-references: ACK.Terminal, nothing created", async () => {
  await e2e.apply([
    dbInstance("apps", "api-db", { dbSubnetGroupRef: { from: { name: "shop-db-net", namespace: "net" } } }),
  ]);
  const r = await waitForResourceCondition(e2e.kube, "DBInstance", "apps", "api-db", "ACK.Terminal", "True");
  assert.equal(condition(r, "ACK.Terminal")?.reason, "ReferenceNotAllowed");
  assert.equal(await instanceIn(X, "apps-api-db"), undefined);
});

test("dbSubnetGroupRef to a group in another account than the instance's: ACK.Terminal naming both, nothing created anywhere", async () => {
  await e2e.apply([
    dbInstance("net", "central-db", {
      identityRef: { kind: "AWSRoleIdentity", name: "central-it" },
      dbSubnetGroupRef: { from: { name: "shop-db-net" } },
    }),
  ]);
  const r = await waitForResourceCondition(
    e2e.kube,
    "DBInstance",
    "net",
    "central-db",
    "ACK.Terminal",
    "True",
  );
  assert.equal(condition(r, "ACK.Terminal")?.reason, "ReferenceAccountMismatch");
  assert.match(
    condition(r, "ACK.Terminal")?.message ?? "",
    new RegExp(`placed in account ${X}, but this DBInstance is placed in account ${Y}`),
  );
  assert.equal(await instanceIn(Y, "net-central-db"), undefined);
  assert.equal(await instanceIn(X, "net-central-db"), undefined);
});

test("deleting a group still referenced waits (ACK.Recoverable ReferencedInUse, kept in AWS); it goes once its referrers are gone", async () => {
  // net/shop-db is placed in shop-db-net; net/central-db names it too, but is decided into another
  // account (its reference refused): it does not hold the group, or any team could keep it alive.
  await e2e.kube.request({ method: "DELETE", path: resourcePath("DBSubnetGroup", "net", "shop-db-net") });
  const blocked = await waitForResourceCondition(
    e2e.kube,
    "DBSubnetGroup",
    "net",
    "shop-db-net",
    "ACK.Recoverable",
    "True",
    "ReferencedInUse",
  );
  const message = condition(blocked, "ACK.Recoverable")?.message ?? "";
  assert.match(message, /DBSubnetGroup net\/shop-db-net is still referenced by /);
  assert.match(message, /DBInstance net\/shop-db \(spec\.dbSubnetGroupRef\)/);
  assert.doesNotMatch(message, /central-db/);
  assert.ok(await groupIn(X, "shop-db-subnets-in-aws"), "kept in AWS while in use");
  assert.ok((await getResource(e2e.kube, "DBSubnetGroup", "net", "shop-db-net"))?.metadata.deletionTimestamp);

  // An instance applied now names the group being deleted: it waits, creates nothing, and does not
  // hold the group (nothing in AWS depends on it): were it to, each would wait on the other.
  await e2e.apply([dbInstance("net", "late-db", { dbSubnetGroupRef: { from: { name: "shop-db-net" } } })]);
  const late = await waitForResourceCondition(
    e2e.kube,
    "DBInstance",
    "net",
    "late-db",
    "ACK.Recoverable",
    "True",
  );
  assert.equal(condition(late, "ACK.Recoverable")?.reason, "ReferenceDeleting");

  await deleteResourceAndWait(e2e.kube, "DBInstance", "net", "central-db");
  await deleteResourceAndWait(e2e.kube, "DBInstance", "net", "shop-db", 60_000);
  assert.equal(await instanceIn(X, "net-shop-db"), undefined);
  // The last referrer's deletion wakes the group (referrer-index.ts): well before its 15 s retry.
  await waitFor(
    async () => (await getResource(e2e.kube, "DBSubnetGroup", "net", "shop-db-net")) === undefined,
    {
      what: "DBSubnetGroup net/shop-db-net gone once unreferenced",
      timeoutMs: 10_000,
    },
  );
  assert.equal(await groupIn(X, "shop-db-subnets-in-aws"), undefined, "deleted in AWS");
  assert.equal(await instanceIn(X, "net-late-db"), undefined, "the late instance was never created");
  await deleteResourceAndWait(e2e.kube, "DBInstance", "net", "late-db");
});
