// The Role kind — a declaration served by the generic runtime (src/services/declared-kind/), with
// no hook — against the AWS emulator, calls checked on the wire through the recording proxy: the
// create carries the trust policy and the ownership tags; the read decodes IAM's URL-encoded
// documents and fills ACK's status and the ARN (with its path, no region); description and session
// duration by UpdateRole, the trust policy by UpdateAssumeRolePolicy, the permissions boundary put
// and deleted, managed policies attached and detached by ARN, inline policies put and deleted by
// name; drift corrected; an untagged role claimed; another account sees nothing; the role's
// policies go before the role; delete is idempotent.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  AttachRolePolicyCommand,
  CreatePolicyCommand,
  CreateRoleCommand,
  GetPolicyCommand,
  IAMClient,
  PutRolePolicyCommand,
  UpdateAssumeRolePolicyCommand,
} from "@aws-sdk/client-iam";
import type { DeclaredObserved } from "../../src/services/declared-kind/source.ts";
import { roleService as service } from "../../src/services/iam/role.ts";
import {
  type AccountClient,
  startTwoAccounts,
  type TwoAccounts,
  type WireCalls,
  writesOnly,
} from "../support/two-accounts.ts";

const region = "us-east-1";
const owner = {
  "services.k8s.aws/namespace": "shop",
  "services.k8s.aws/owner": "Role/shop/shop-app",
  "services.k8s.aws/owner-uid": "uid-role-1",
  "services.k8s.aws/controller-version": "crossrole-test",
};
const trust = (service: string) =>
  JSON.stringify({
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Principal: { Service: service }, Action: "sts:AssumeRole" }],
  });
const readS3 = JSON.stringify({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Action: "s3:GetObject", Resource: "*" }],
});
const readSqs = JSON.stringify({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Action: "sqs:ReceiveMessage", Resource: "*" }],
});

type Client = AccountClient<IAMClient>;
let accounts: TwoAccounts<IAMClient>;
let calls: WireCalls;
/** This account, through the proxy. */
let mine: Client;
let other: Client;
let myAccount: string;
let policyA: string;
let policyB: string;

before(async () => {
  accounts = await startTwoAccounts(
    "iam-role",
    region,
    (endpoint, credentials) => new IAMClient({ region, endpoint, credentials }),
  );
  ({ calls, mine, other } = accounts);
  myAccount = mine.account;
  for (const [name, doc] of [
    ["read-s3", readS3],
    ["read-sqs", readSqs],
  ] as const) {
    const made = await mine.sdk.send(new CreatePolicyCommand({ PolicyName: name, PolicyDocument: doc }));
    if (name === "read-s3") policyA = made.Policy?.Arn ?? "";
    else policyB = made.Policy?.Arn ?? "";
  }
});

after(() => accounts?.close());

let counter = 0;
const uniqueName = (label: string) => `${label}-${process.pid}-${++counter}`;

function spec(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const r = service.parseSpec({ name, assumeRolePolicyDocument: trust("ec2.amazonaws.com"), ...extra });
  assert.ok(r.ok, r.ok ? "" : r.message);
  return r.value;
}

async function observed(client: Client, s: Record<string, unknown>): Promise<DeclaredObserved> {
  const r = await service.read(client, s, {});
  assert.ok(r.found, "found");
  return r.observed;
}

const create = (s: Record<string, unknown>) => service.create(mine, s, region, owner, {}, undefined as never);
const update = (desired: Record<string, unknown>, o: DeclaredObserved) =>
  service.update(mine, desired, o, owner, {}, undefined as never);
const settle = async (desired: Record<string, unknown>) => {
  await update(desired, await observed(mine, desired));
  const o = await observed(mine, desired);
  assert.deepEqual(service.diff(desired, o), [], "what was written reads back the same");
  return o;
};

describe("Role through the generic runtime", () => {
  test("create: one call with the trust policy, path and ownership tags; the read decodes the documents and fills ACK's status", async () => {
    const name = uniqueName("create");
    const desired = spec(name, {
      path: "/apps/",
      description: "the app",
      tags: [{ key: "team", value: "shop" }],
    });
    const sent = await calls.during(() => create(desired));
    assert.deepEqual(sent, ["CreateRole"], "one call (the reconciler has read first)");
    const made = calls.input("CreateRole");
    assert.equal(made["RoleName"], name);
    assert.equal(made["Path"], "/apps/");
    assert.deepEqual(
      JSON.parse(String(made["AssumeRolePolicyDocument"] ?? "")),
      JSON.parse(trust("ec2.amazonaws.com")),
    );
    assert.ok(Object.values(made).includes("uid-role-1"), "the ownership tags ride on the create");
    const o = await observed(mine, desired);
    assert.equal(o.fields["name"], name);
    assert.deepEqual(
      JSON.parse(String(o.fields["assumeRolePolicyDocument"])),
      JSON.parse(trust("ec2.amazonaws.com")),
    );
    assert.equal(o.fields["maxSessionDuration"], 3600);
    assert.equal(o.tags["team"], "shop");
    assert.equal(o.arn, `arn:aws:iam::${myAccount}:role/apps/${name}`, "with its path, in no region");
    assert.equal(service.arn(desired, region, myAccount), o.arn, "the ARN is known before it exists");
    assert.equal(service.observedRegion(o), undefined, "a role is in no region: never in another");
    const status = service.statusFrom?.(o) ?? {};
    assert.ok(String(status["roleID"]).length > 0, "roleID");
    assert.ok(status["createDate"], "createDate");
    assert.ok(service.parseStatus({ ...status }).ok, "status fits the CRD's status schema");
    assert.deepEqual(service.diff(desired, o), [], "nothing differs right after the create");
    const adopted = service.lateInitialize(desired, o);
    assert.deepEqual(adopted.initialized, ["spec.maxSessionDuration"], "IAM's session duration copied");
  });

  test("description and session duration by UpdateRole (a description removed is cleared), the trust policy by UpdateAssumeRolePolicy", async () => {
    const name = uniqueName("update");
    await create(spec(name, { description: "first" }));
    const changed = spec(name, {
      description: "second",
      maxSessionDuration: 7200,
      assumeRolePolicyDocument: trust("lambda.amazonaws.com"),
    });
    const before = await observed(mine, changed);
    assert.deepEqual(service.diff(changed, before), [
      "spec.description",
      "spec.maxSessionDuration",
      "spec.assumeRolePolicyDocument",
    ]);
    const sent = await calls.during(() => update(changed, before));
    assert.deepEqual(writesOnly(sent), ["UpdateRole", "UpdateAssumeRolePolicy"]);
    assert.deepEqual(calls.input("UpdateRole"), {
      RoleName: name,
      Description: "second",
      MaxSessionDuration: "7200",
    });
    assert.deepEqual(
      JSON.parse(String(calls.input("UpdateAssumeRolePolicy")["PolicyDocument"] ?? "")),
      JSON.parse(trust("lambda.amazonaws.com")),
    );
    const after = await observed(mine, changed);
    assert.deepEqual(service.diff(changed, after), []);
    const cleared = spec(name, {
      maxSessionDuration: 7200,
      assumeRolePolicyDocument: trust("lambda.amazonaws.com"),
    });
    assert.deepEqual(service.diff(cleared, after), ["spec.description"]);
    await calls.during(() => update(cleared, after));
    assert.deepEqual(calls.input("UpdateRole"), { RoleName: name, Description: "" });
  });

  test("managed policies attached and detached by ARN; inline policies put and deleted by name; the boundary put and deleted", async () => {
    const name = uniqueName("policies");
    await create(spec(name));
    const withPolicies = spec(name, {
      policies: [policyA, policyB],
      inlinePolicies: { s3: readS3, sqs: readSqs },
      permissionsBoundary: policyA,
    });
    const before = await observed(mine, withPolicies);
    assert.deepEqual(service.diff(withPolicies, before), [
      "spec.permissionsBoundary",
      "spec.policies",
      "spec.inlinePolicies",
    ]);
    const sent = await calls.during(() => update(withPolicies, before));
    assert.deepEqual(writesOnly(sent), [
      "PutRolePermissionsBoundary",
      "AttachRolePolicy",
      "AttachRolePolicy",
      "PutRolePolicy",
      "PutRolePolicy",
    ]);
    assert.deepEqual(calls.input("AttachRolePolicy"), { RoleName: name, PolicyArn: policyA });
    assert.equal(calls.input("PutRolePolicy")["PolicyName"], "s3");
    const o = await observed(mine, withPolicies);
    assert.deepEqual([...(o.fields["policies"] as string[])].sort(), [policyA, policyB].sort());
    assert.deepEqual(Object.keys(o.fields["inlinePolicies"] as object).sort(), ["s3", "sqs"]);
    assert.equal(o.fields["permissionsBoundary"], policyA);
    assert.deepEqual(
      service.diff(withPolicies, o),
      [],
      "documents read back (URL-encoded by IAM) are the same",
    );
    // One of each kept, changed or removed.
    const fewer = spec(name, { policies: [policyB], inlinePolicies: { s3: readSqs } });
    assert.deepEqual(service.diff(fewer, o), [
      "spec.permissionsBoundary",
      "spec.policies",
      "spec.inlinePolicies",
    ]);
    const removed = await calls.during(() => update(fewer, o));
    assert.deepEqual(writesOnly(removed), [
      "DeleteRolePermissionsBoundary",
      "DetachRolePolicy",
      "DeleteRolePolicy",
      "PutRolePolicy",
    ]);
    assert.deepEqual(calls.input("DetachRolePolicy"), { RoleName: name, PolicyArn: policyA });
    assert.deepEqual(calls.input("DeleteRolePolicy"), { RoleName: name, PolicyName: "sqs" });
    const after = await observed(mine, fewer);
    assert.deepEqual(service.diff(fewer, after), []);
  });

  test("drift: the trust policy and an inline policy changed out of band, a policy attached out of band, are corrected", async () => {
    const name = uniqueName("drift");
    const desired = spec(name, { inlinePolicies: { s3: readS3 } });
    await create(desired);
    const o = await settle(desired);
    await mine.sdk.send(
      new UpdateAssumeRolePolicyCommand({ RoleName: name, PolicyDocument: trust("ecs.amazonaws.com") }),
    );
    await mine.sdk.send(
      new PutRolePolicyCommand({ RoleName: name, PolicyName: "s3", PolicyDocument: readSqs }),
    );
    await mine.sdk.send(new AttachRolePolicyCommand({ RoleName: name, PolicyArn: policyB }));
    const drifted = await observed(mine, desired);
    assert.deepEqual(service.diff(desired, drifted), [
      "spec.assumeRolePolicyDocument",
      "spec.policies",
      "spec.inlinePolicies",
    ]);
    await update(desired, drifted);
    assert.deepEqual(service.diff(desired, await observed(mine, desired)), []);
    assert.ok(o);
  });

  test("claim tags an untagged role; adopting it makes the spec AWS's, documents decoded", async () => {
    const name = uniqueName("claim");
    await mine.sdk.send(
      new CreateRoleCommand({
        RoleName: name,
        AssumeRolePolicyDocument: trust("ec2.amazonaws.com"),
        Tags: [{ Key: "cost-center", Value: "42" }],
      }),
    );
    await mine.sdk.send(new AttachRolePolicyCommand({ RoleName: name, PolicyArn: policyA }));
    const o = await observed(mine, spec(name));
    assert.equal(o.tags["services.k8s.aws/owner-uid"], undefined);
    await service.claim(mine, o, owner, {});
    const claimed = await observed(mine, spec(name));
    assert.equal(claimed.tags["services.k8s.aws/owner-uid"], "uid-role-1");
    assert.equal(claimed.tags["cost-center"], "42", "the role's own tags stay");
    const adopted = service.specFromObserved(claimed, { name });
    assert.deepEqual(adopted["policies"], [policyA]);
    assert.deepEqual(
      JSON.parse(String(adopted["assumeRolePolicyDocument"])),
      JSON.parse(trust("ec2.amazonaws.com")),
    );
    assert.deepEqual(adopted["tags"], [{ key: "cost-center", value: "42" }]);
    assert.ok(service.parseSpec(adopted).ok, "the adopted spec fits the schema");
  });

  test("delete: the role's attached and inline policies go first, then the role; another account sees nothing; idempotent", async () => {
    const name = uniqueName("delete");
    const desired = spec(name, { policies: [policyA], inlinePolicies: { s3: readS3 } });
    await create(desired);
    await settle(desired);
    assert.deepEqual(await service.read(other, desired, {}), { found: false });
    assert.equal(await service.delete(other, desired, {}, {}), "not-found");
    const sent = await calls.during(async () =>
      assert.equal(await service.delete(mine, desired, {}, {}), "deleted"),
    );
    assert.deepEqual(writesOnly(sent), ["DetachRolePolicy", "DeleteRolePolicy", "DeleteRole"]);
    assert.deepEqual(await service.read(mine, desired, {}), { found: false });
    assert.equal(await service.delete(mine, desired, {}, {}), "not-found");
    // The managed policies themselves are untouched: only detached.
    const kept = await mine.sdk.send(new GetPolicyCommand({ PolicyArn: policyA }));
    assert.equal(kept.Policy?.Arn, policyA);
  });
});

describe("Role spec: ACK's manifest shape, references to Policies", () => {
  test("policyRefs name iam Policies (served): taken alone, refused beside policies", () => {
    const base = { name: "r", assumeRolePolicyDocument: trust("ec2.amazonaws.com") };
    const policyRefs = [{ from: { name: "p" } }];
    assert.equal(service.parseSpec({ ...base, policyRefs }).ok, true);
    const both = service.parseSpec({
      ...base,
      policyRefs,
      policies: ["arn:aws:iam::aws:policy/ReadOnlyAccess"],
    });
    assert.equal(both.ok, false);
    assert.match(both.ok ? "" : both.message, /policyRefs: and spec\.policies are both set/);
  });

  test("a trust policy is required (CreateRole's AssumeRolePolicyDocument)", () => {
    assert.equal(service.parseSpec({ name: "r" }).ok, false);
  });
});
