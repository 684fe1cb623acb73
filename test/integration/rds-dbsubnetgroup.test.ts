// The DBSubnetGroup kind — a declaration served by the generic runtime (src/services/declared-kind/)
// — against the AWS emulator: the create call carries the ownership tags, the read fills the spec
// fields (subnetIDs from RDS's Subnets, the kind's one hook) and ACK's status, an update sends
// ModifyDBSubnetGroup with the whole group and the tag calls for tags, out-of-band drift is seen
// and corrected, an untagged group is claimed, errors name the field, another account sees
// nothing, and delete is idempotent.
//
// Where moto 5.2.5 departs from RDS, the test says so and checks the wire through the recording
// proxy (test/support/aws-proxy.ts): its ModifyDBSubnetGroup removes the group it modifies (it
// pops it from its store and never puts it back), and a second CreateDBSubnetGroup of a name
// replaces the group instead of failing with DBSubnetGroupAlreadyExists.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { AddTagsToResourceCommand, CreateDBSubnetGroupCommand, RDSClient } from "@aws-sdk/client-rds";
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from "@aws-sdk/client-sts";
import type { AwsCredentialIdentity } from "@smithy/types";
import { defaultSubnets } from "../../src/local-stack/default-subnets.ts";
import { type Emulator, startEmulator } from "../../src/local-stack/stack.ts";
import type { DeclaredObserved } from "../../src/services/declared-kind/source.ts";
import { dbSubnetGroupService as service } from "../../src/services/rds/db-subnet-group.ts";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";
import { type MotoRecordedRequest, readMotoRecording } from "../support/moto-recording.ts";

const defaultCredentials: AwsCredentialIdentity = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "default-secret",
};
const region = "us-east-1";
const owner = {
  "services.k8s.aws/namespace": "shop",
  "services.k8s.aws/owner": "DBSubnetGroup/shop/shop-db-subnets",
  "services.k8s.aws/owner-uid": "uid-sg-1",
  "services.k8s.aws/controller-version": "crossrole-test",
};

type Client = { readonly sdk: RDSClient; readonly region: string };
let dir: string;
let emulator: Emulator;
let mine: Client;
let other: Client;
let proxy: AwsProxy;
/** This account, through the proxy. */
let proxied: Client;
let myAccount: string;
let subnets: string[];

const rds = (credentials: AwsCredentialIdentity) =>
  new RDSClient({ region, endpoint: emulator.endpoint, credentials });

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "crossrole-rds-dbsubnetgroup-"));
  emulator = await startEmulator({ dir, recording: true });
  const sts = new STSClient({ region, endpoint: emulator.endpoint, credentials: defaultCredentials });
  myAccount = (await sts.send(new GetCallerIdentityCommand({}))).Account ?? "";
  mine = { sdk: rds(defaultCredentials), region };
  proxy = await startAwsProxy(emulator.endpoint);
  proxied = {
    sdk: new RDSClient({ region, endpoint: proxy.endpoint, credentials: defaultCredentials }),
    region,
  };
  const assumed = await sts.send(
    new AssumeRoleCommand({ RoleArn: "arn:aws:iam::222222222222:role/x", RoleSessionName: "sg-test" }),
  );
  const c = assumed.Credentials;
  assert.ok(c?.AccessKeyId && c.SecretAccessKey && c.SessionToken);
  other = {
    sdk: rds({
      accessKeyId: c.AccessKeyId,
      secretAccessKey: c.SecretAccessKey,
      sessionToken: c.SessionToken,
    }),
    region,
  };
  sts.destroy();
  subnets = await defaultSubnets(emulator.endpoint, defaultCredentials.accessKeyId, region);
  assert.ok(subnets.length >= 3, "moto's default VPC has subnets");
});

after(async () => {
  for (const c of [mine, other, proxied]) c?.sdk.destroy();
  await proxy?.close();
  await emulator?.stop();
  await rm(dir, { recursive: true, force: true });
});

let counter = 0;
const uniqueName = (label: string) => `crossrole-${label}-${process.pid}-${++counter}`;

function spec(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const r = service.parseSpec({
    name,
    description: "shop database subnets",
    subnetIDs: subnets.slice(0, 2),
    ...extra,
  });
  assert.ok(r.ok, r.ok ? "" : r.message);
  return r.value;
}

async function observed(client: Client, s: Record<string, unknown>): Promise<DeclaredObserved> {
  const r = await service.read(client, s, {});
  assert.ok(r.found, "found");
  return r.observed;
}

/** The RDS actions (with their form fields) `action` sent, from moto's own recording. */
async function rdsRequestsDuring(action: () => Promise<unknown>): Promise<MotoRecordedRequest[]> {
  const path = emulator.recordingPath;
  assert.ok(path !== undefined);
  const before = (await readMotoRecording(path)).length;
  await action();
  return (await readMotoRecording(path)).slice(before).filter((r) => r.params["Action"] !== undefined);
}
const actions = (rs: readonly MotoRecordedRequest[]) => rs.map((r) => r.params["Action"]);

describe("DBSubnetGroup through the generic runtime", () => {
  test("create: one call carrying the ownership tags; read fills the spec fields, ACK's status and the ARN", async () => {
    const name = uniqueName("create");
    const desired = spec(name, { tags: [{ key: "team", value: "shop" }] });
    const sent = await rdsRequestsDuring(() =>
      service.create(mine, desired, region, owner, {}, undefined as never),
    );
    assert.deepEqual(actions(sent), ["CreateDBSubnetGroup"], "the tags ride on the create call");
    const o = await observed(mine, desired);
    assert.equal(o.fields["name"], name);
    assert.equal(o.fields["description"], "shop database subnets");
    assert.deepEqual([...(o.fields["subnetIDs"] as string[])].sort(), subnets.slice(0, 2).sort());
    assert.equal(o.tags["services.k8s.aws/owner-uid"], "uid-sg-1");
    assert.equal(o.tags["team"], "shop");
    assert.equal(o.arn, `arn:aws:rds:${region}:${myAccount}:subgrp:${name}`);
    assert.equal(service.arn(desired, region, myAccount), o.arn, "the ARN is known before it exists");
    assert.equal(service.observedRegion(o), region);
    const status = service.statusFrom?.(o) ?? {};
    assert.match(String(status["vpcID"]), /^vpc-/);
    assert.equal(status["subnetGroupStatus"], "Complete");
    assert.equal((status["subnets"] as unknown[]).length, 2);
    assert.ok(service.parseStatus({ ...status }).ok, "status fits the CRD's status schema");
    assert.deepEqual(service.diff(desired, o), [], "nothing differs right after the create");
  });

  test("a create AWS answers DBSubnetGroupAlreadyExists is no error: the reconciler then reads whose it is", async () => {
    // moto replaces the group instead: RDS's answer comes from the proxy.
    const name = uniqueName("twice");
    const remove = proxy.addFault({
      name: "already-exists",
      match: (r) => r.action === "CreateDBSubnetGroup",
      respond: { status: 400, code: "DBSubnetGroupAlreadyExists", message: "DB Subnet Group already exists" },
    });
    try {
      assert.deepEqual(await service.create(proxied, spec(name), region, owner, {}, undefined as never), {
        created: false,
      });
    } finally {
      remove();
    }
  });

  test("update: ModifyDBSubnetGroup with the whole group, on the wire (moto then loses the group)", async () => {
    const name = uniqueName("update");
    await service.create(mine, spec(name), region, owner, {}, undefined as never);
    const changed = spec(name, { description: "moved to three subnets", subnetIDs: subnets.slice(0, 3) });
    const before = await observed(mine, changed);
    assert.deepEqual(service.diff(changed, before), ["spec.description", "spec.subnetIDs"]);
    proxy.clearRecording();
    assert.deepEqual(await service.update(proxied, changed, before, owner, {}, undefined as never), [
      "spec.description",
      "spec.subnetIDs",
    ]);
    assert.deepEqual(
      proxy.requests.map((r) => r.action),
      ["ModifyDBSubnetGroup"],
      "one call for the group, no tag call",
    );
    const modify = proxy.calls("ModifyDBSubnetGroup")[0]?.params ?? {};
    assert.equal(modify["DBSubnetGroupName"], name);
    assert.equal(modify["DBSubnetGroupDescription"], "moved to three subnets");
    assert.deepEqual(
      Object.entries(modify)
        .filter(([k]) => k.startsWith("SubnetIds."))
        .map(([, v]) => v)
        .sort(),
      subnets.slice(0, 3).sort(),
      "the whole subnet set: RDS's call replaces it",
    );
  });

  test("tags: added and removed with the tag calls, the ownership tags kept, read back", async () => {
    const name = uniqueName("tags");
    await service.create(
      mine,
      spec(name, { tags: [{ key: "old", value: "1" }] }),
      region,
      owner,
      {},
      undefined as never,
    );
    const changed = spec(name, { tags: [{ key: "new", value: "2" }] });
    const before = await observed(mine, changed);
    assert.deepEqual(service.diff(changed, before), ["spec.tags"]);
    const sent = await rdsRequestsDuring(() =>
      service.update(mine, changed, before, owner, {}, undefined as never),
    );
    assert.deepEqual(actions(sent), ["AddTagsToResource", "RemoveTagsFromResource"]);
    const after = await observed(mine, changed);
    assert.deepEqual(service.diff(changed, after), []);
    assert.equal(after.tags["old"], undefined);
    assert.equal(after.tags["new"], "2");
    assert.equal(after.tags["services.k8s.aws/owner-uid"], "uid-sg-1", "ownership tags are never removed");
  });

  test("drift: a description changed out of band is corrected; subnets in another order are no drift", async () => {
    // moto cannot be changed out of band (its ModifyDBSubnetGroup loses the group): the proxy
    // makes DescribeDBSubnetGroups report the change, as RDS would.
    const name = uniqueName("drift");
    const desired = spec(name);
    await service.create(mine, desired, region, owner, {}, undefined as never);
    const remove = proxy.addFault({
      name: "changed-by-hand",
      match: (r) => r.action === "DescribeDBSubnetGroups",
      respond: {
        rewrite: (body) => {
          const [first, second] = subnets;
          return body
            .replace(
              "<DBSubnetGroupDescription>shop database subnets<",
              "<DBSubnetGroupDescription>changed by hand<",
            )
            .replace(`<SubnetIdentifier>${first}<`, "<SubnetIdentifier>SWAP<")
            .replace(`<SubnetIdentifier>${second}<`, `<SubnetIdentifier>${first}<`)
            .replace("<SubnetIdentifier>SWAP<", `<SubnetIdentifier>${second}<`);
        },
      },
    });
    let o: DeclaredObserved;
    try {
      o = await observed(proxied, desired);
    } finally {
      remove();
    }
    assert.equal(o.fields["description"], "changed by hand");
    assert.deepEqual(service.diff(desired, o), ["spec.description"], "the subnets' order is no drift");
    proxy.clearRecording();
    await service.update(proxied, desired, o, owner, {}, undefined as never);
    assert.equal(
      proxy.calls("ModifyDBSubnetGroup")[0]?.params["DBSubnetGroupDescription"],
      "shop database subnets",
    );
  });

  test("claim tags an untagged group; adopting it makes the spec AWS's, the user's tags without ownership tags", async () => {
    const name = uniqueName("claim");
    await mine.sdk.send(
      new CreateDBSubnetGroupCommand({
        DBSubnetGroupName: name,
        DBSubnetGroupDescription: "made by another tool",
        SubnetIds: subnets.slice(1, 3),
        Tags: [{ Key: "cost-center", Value: "42" }],
      }),
    );
    const o = await observed(mine, spec(name));
    assert.equal(o.tags["services.k8s.aws/owner-uid"], undefined);
    await service.claim(mine, o, owner, {});
    const claimed = await observed(mine, spec(name));
    assert.equal(claimed.tags["services.k8s.aws/owner-uid"], "uid-sg-1");
    assert.equal(claimed.tags["cost-center"], "42", "the group's own tags stay");
    const adopted = service.specFromObserved(claimed, { name });
    assert.equal(adopted["description"], "made by another tool");
    assert.deepEqual([...(adopted["subnetIDs"] as string[])].sort(), subnets.slice(1, 3).sort());
    assert.deepEqual(adopted["tags"], [{ key: "cost-center", value: "42" }]);
    assert.ok(service.parseSpec(adopted).ok, "the adopted spec fits the schema");
  });

  test("another account sees nothing under the name, and cannot delete it", async () => {
    const name = uniqueName("isolated");
    await service.create(mine, spec(name), region, owner, {}, undefined as never);
    assert.deepEqual(await service.read(other, spec(name), {}), { found: false });
    assert.equal(await service.delete(other, spec(name), {}, {}), "not-found");
    assert.ok((await service.read(mine, spec(name), {})).found, "still there in its own account");
  });

  test("a subnet RDS cannot use: the error names the operation, the group and the fields; nothing is left", async () => {
    const name = uniqueName("bad-subnet");
    const err = await service
      .create(
        mine,
        spec(name, { subnetIDs: ["subnet-00000000000000000"] }),
        region,
        owner,
        {},
        undefined as never,
      )
      .then(
        () => assert.fail("created"),
        (e: unknown) => e as Error,
      );
    assert.match(
      err.message,
      new RegExp(`^spec\\.subnetIDs: CreateDBSubnetGroup on DB subnet group "${name}" failed with`),
    );
    assert.equal((await service.read(mine, spec(name), {})).found, false, "nothing half-made");
  });

  test("delete: deleted, then not-found; a tag the user adds out of band is drift", async () => {
    const name = uniqueName("delete");
    const desired = spec(name);
    await service.create(mine, desired, region, owner, {}, undefined as never);
    const o = await observed(mine, desired);
    await mine.sdk.send(
      new AddTagsToResourceCommand({ ResourceName: o.arn, Tags: [{ Key: "x", Value: "y" }] }),
    );
    assert.deepEqual(service.diff(desired, await observed(mine, desired)), ["spec.tags"]);
    assert.equal(await service.delete(mine, desired, {}, {}), "deleted");
    assert.equal(await service.delete(mine, desired, {}, {}), "not-found");
    assert.deepEqual(await service.read(mine, desired, {}), { found: false });
  });
});

describe("DBSubnetGroup spec: ACK's manifest shape, its references", () => {
  test("subnetRefs name ec2 Subnet resources (served): accepted in place of subnetIDs", () => {
    const r = service.parseSpec({ name: "g", description: "d", subnetRefs: [{ from: { name: "a" } }] });
    assert.ok(r.ok, r.ok ? "" : r.message);
    assert.deepEqual(
      service.references?.map((x) => `${x.service} ${x.kind} ${x.path.join(".")}`),
      ["ec2 Subnet subnetRefs"],
    );
  });

  test("neither subnetIDs nor subnetRefs: subnetIDs is required", () => {
    const r = service.parseSpec({ name: "g", description: "d" });
    assert.equal(r.ok, false);
    assert.match(r.ok ? "" : r.message, /spec\.subnetIDs: Required: set subnetIDs/);
  });
});
