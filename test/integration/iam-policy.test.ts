// The Policy kind — a declaration served by the generic runtime (src/services/declared-kind/), with
// IAM's versions as hooks — against the AWS emulator, calls checked on the wire through the
// recording proxy: the create carries the document, path and ownership tags; every other call names
// the policy by the ARN composed from the account, path and name; the read gives the default
// version's document (decoded), ACK's status and the tags; a changed document is a new default
// version, the oldest other one deleted first once IAM's five are there; drift corrected; tags
// changed; an untagged policy claimed and adopted by its default version; another account sees
// nothing; the other versions go before the policy; delete is idempotent.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  CreatePolicyCommand,
  CreatePolicyVersionCommand,
  IAMClient,
  ListPolicyVersionsCommand,
} from "@aws-sdk/client-iam";
import type { DeclaredObserved } from "../../src/services/declared-kind/source.ts";
import { policyService as service } from "../../src/services/iam/policy.ts";
import type { AwsProxy } from "../support/aws-proxy.ts";
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
  "services.k8s.aws/owner": "Policy/shop/shop-read",
  "services.k8s.aws/owner-uid": "uid-policy-1",
  "services.k8s.aws/controller-version": "crossrole-test",
};
const allow = (action: string) =>
  JSON.stringify({ Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: action, Resource: "*" }] });

type Client = AccountClient<IAMClient>;
let accounts: TwoAccounts<IAMClient>;
let proxy: AwsProxy;
let calls: WireCalls;
let mine: Client;
let other: Client;
let myAccount: string;

before(async () => {
  accounts = await startTwoAccounts(
    "iam-policy",
    region,
    (endpoint, credentials) => new IAMClient({ region, endpoint, credentials }),
  );
  ({ proxy, calls, mine, other } = accounts);
  myAccount = mine.account;
});

after(() => accounts?.close());

let counter = 0;
const uniqueName = (label: string) => `${label}-${process.pid}-${++counter}`;

function spec(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const r = service.parseSpec({ name, policyDocument: allow("s3:GetObject"), ...extra });
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
const arnOf = (name: string, path = "") => `arn:aws:iam::${myAccount}:policy/${path}${name}`;
const versions = async (arn: string) =>
  ((await mine.sdk.send(new ListPolicyVersionsCommand({ PolicyArn: arn }))).Versions ?? []).map(
    (v) => `${v.VersionId}${v.IsDefaultVersion ? "*" : ""}`,
  );

describe("Policy through the generic runtime", () => {
  test("create: one call with the document, path and ownership tags; the read by ARN gives the default version's document and ACK's status", async () => {
    const name = uniqueName("create");
    const desired = spec(name, {
      path: "/apps/",
      description: "reads objects",
      tags: [{ key: "team", value: "shop" }],
    });
    const sent = await calls.during(() => create(desired));
    assert.deepEqual(sent, ["CreatePolicy"], "one call: CreatePolicy refuses an existing name itself");
    const made = calls.input("CreatePolicy");
    assert.equal(made["PolicyName"], name);
    assert.equal(made["Path"], "/apps/");
    assert.equal(made["Description"], "reads objects");
    assert.deepEqual(JSON.parse(String(made["PolicyDocument"] ?? "")), JSON.parse(allow("s3:GetObject")));
    assert.ok(Object.values(made).includes("uid-policy-1"), "the ownership tags ride on the create");
    const read = await calls.during(() => observed(mine, desired));
    assert.deepEqual(read, ["GetPolicy", "GetPolicyVersion"], "the tags are in GetPolicy's answer");
    assert.deepEqual(calls.input("GetPolicy"), { PolicyArn: arnOf(name, "apps/") });
    assert.deepEqual(calls.input("GetPolicyVersion"), { PolicyArn: arnOf(name, "apps/"), VersionId: "v1" });
    const o = await observed(mine, desired);
    assert.equal(o.fields["name"], name);
    assert.deepEqual(JSON.parse(String(o.fields["policyDocument"])), JSON.parse(allow("s3:GetObject")));
    assert.equal(o.fields["path"], "/apps/");
    assert.equal(o.tags["team"], "shop");
    assert.equal(o.arn, arnOf(name, "apps/"), "with its path, in no region");
    assert.equal(service.arn(desired, region, myAccount), o.arn, "the ARN is known before it exists");
    assert.equal(service.observedRegion(o), undefined, "a policy is in no region: never in another");
    const status = service.statusFrom?.(o) ?? {};
    assert.equal(status["defaultVersionID"], "v1");
    assert.equal(status["attachmentCount"], 0);
    assert.equal(status["isAttachable"], true);
    assert.ok(String(status["policyID"]).length > 0, "policyID");
    assert.ok(service.parseStatus({ ...status }).ok, "status fits the CRD's status schema");
    assert.deepEqual(service.diff(desired, o), [], "nothing differs right after the create");
    assert.deepEqual(service.lateInitialize(spec(name), o).initialized, ["spec.path"]);
  });

  test("a changed document is a new default version; at IAM's five, the oldest other one is deleted first", async () => {
    const name = uniqueName("versions");
    await create(spec(name));
    const arn = arnOf(name);
    const actions = ["s3:ListBucket", "s3:PutObject", "s3:DeleteObject", "sqs:SendMessage"];
    for (const action of actions) {
      const desired = spec(name, { policyDocument: allow(action) });
      const before = await observed(mine, desired);
      assert.deepEqual(service.diff(desired, before), ["spec.policyDocument"]);
      const sent = await calls.during(() => update(desired, before));
      assert.deepEqual(writesOnly(sent), ["CreatePolicyVersion"], "four versions or fewer: nothing deleted");
      assert.equal(calls.input("CreatePolicyVersion")["SetAsDefault"], "true");
      assert.deepEqual(service.diff(desired, await observed(mine, desired)), []);
    }
    assert.deepEqual((await versions(arn)).sort(), ["v1", "v2", "v3", "v4", "v5*"]);
    const sixth = spec(name, { policyDocument: allow("sqs:ReceiveMessage") });
    const sent = await calls.during(async () => update(sixth, await observed(mine, sixth)));
    assert.deepEqual(writesOnly(sent), ["DeletePolicyVersion", "CreatePolicyVersion"]);
    assert.deepEqual(calls.input("DeletePolicyVersion"), { PolicyArn: arn, VersionId: "v1" }, "the oldest");
    const after = await observed(mine, sixth);
    assert.deepEqual(service.diff(sixth, after), []);
    assert.equal(service.statusFrom?.(after)["defaultVersionID"], "v6");
  });

  test("drift: a default version made out of band is corrected by a new one; tags changed and removed", async () => {
    const name = uniqueName("drift");
    const desired = spec(name, { tags: [{ key: "team", value: "shop" }] });
    await create(desired);
    await mine.sdk.send(
      new CreatePolicyVersionCommand({
        PolicyArn: arnOf(name),
        PolicyDocument: allow("*"),
        SetAsDefault: true,
      }),
    );
    const drifted = await observed(mine, desired);
    assert.deepEqual(service.diff(desired, drifted), ["spec.policyDocument"]);
    await update(desired, drifted);
    const fixed = await observed(mine, desired);
    assert.deepEqual(service.diff(desired, fixed), []);
    assert.equal(service.statusFrom?.(fixed)["defaultVersionID"], "v3");
    const retagged = spec(name, { tags: [{ key: "tier", value: "gold" }] });
    const sent = await calls.during(() => update(retagged, fixed));
    assert.deepEqual(writesOnly(sent).sort(), ["TagPolicy", "UntagPolicy"]);
    assert.equal(calls.input("UntagPolicy")["PolicyArn"], arnOf(name));
    const tagged = await observed(mine, retagged);
    assert.deepEqual(service.diff(retagged, tagged), []);
    assert.equal(tagged.tags["team"], undefined);
    assert.equal(tagged.tags["services.k8s.aws/owner-uid"], "uid-policy-1", "ownership tags stay");
  });

  test("claim tags an untagged policy; adopting it makes the spec its default version's", async () => {
    const name = uniqueName("claim");
    const made = await mine.sdk.send(
      new CreatePolicyCommand({
        PolicyName: name,
        PolicyDocument: allow("s3:GetObject"),
        Tags: [{ Key: "cost-center", Value: "42" }],
      }),
    );
    await mine.sdk.send(
      new CreatePolicyVersionCommand({
        PolicyArn: made.Policy?.Arn,
        PolicyDocument: allow("s3:ListBucket"),
        SetAsDefault: true,
      }),
    );
    const o = await observed(mine, spec(name));
    assert.equal(o.tags["services.k8s.aws/owner-uid"], undefined);
    await service.claim(mine, o, owner, {});
    const claimed = await observed(mine, spec(name));
    assert.equal(claimed.tags["services.k8s.aws/owner-uid"], "uid-policy-1");
    assert.equal(claimed.tags["cost-center"], "42", "the policy's own tags stay");
    const adopted = service.specFromObserved(claimed, { name });
    assert.deepEqual(JSON.parse(String(adopted["policyDocument"])), JSON.parse(allow("s3:ListBucket")));
    assert.deepEqual(adopted["tags"], [{ key: "cost-center", value: "42" }]);
    assert.ok(service.parseSpec(adopted).ok, "the adopted spec fits the schema");
  });

  test("a name taken under another path: refused once, terminal, naming spec.path (never looked for again and again)", async () => {
    const name = uniqueName("elsewhere");
    await mine.sdk.send(
      new CreatePolicyCommand({ PolicyName: name, Path: "/other/", PolicyDocument: allow("s3:GetObject") }),
    );
    const desired = spec(name);
    assert.deepEqual(await service.read(mine, desired, {}), { found: false }, "not under /");
    // IAM's names are unique in an account whatever the path; the emulator keys them by ARN, so
    // the proxy answers as IAM does.
    const removeFault = proxy.addFault({
      name: "IAM's duplicate name",
      match: (r) => r.action === "CreatePolicy",
      respond: {
        status: 409,
        code: "EntityAlreadyExists",
        message: `A policy called ${name} already exists.`,
      },
    });
    try {
      await assert.rejects(create(desired), (err: unknown) => {
        assert.equal(service.isTerminal(err), true);
        assert.match(
          service.describeError(err, desired),
          /exists in this account under another path than \/: set spec\.path to its path/,
        );
        return true;
      });
    } finally {
      removeFault();
    }
    assert.ok((await service.read(mine, spec(name, { path: "/other/" }), {})).found, "found under its path");
  });

  test("delete: the versions other than the default go first, then the policy; another account sees nothing; idempotent", async () => {
    const name = uniqueName("delete");
    const desired = spec(name);
    await create(desired);
    await update(spec(name, { policyDocument: allow("s3:ListBucket") }), await observed(mine, desired));
    assert.deepEqual(await service.read(other, desired, {}), { found: false });
    assert.equal(await service.delete(other, desired, {}, {}), "not-found");
    const sent = await calls.during(async () =>
      assert.equal(await service.delete(mine, desired, {}, {}), "deleted"),
    );
    assert.deepEqual(writesOnly(sent), ["DeletePolicyVersion", "DeletePolicy"]);
    assert.deepEqual(calls.input("DeletePolicyVersion"), { PolicyArn: arnOf(name), VersionId: "v1" });
    assert.deepEqual(await service.read(mine, desired, {}), { found: false });
    assert.equal(await service.delete(mine, desired, {}, {}), "not-found");
  });
});

describe("Policy spec and adoption", () => {
  test("a document is required (CreatePolicy's PolicyDocument)", () => {
    assert.equal(service.parseSpec({ name: "p" }).ok, false);
  });

  test("ACK's adoption by ARN: the name and path from it, another account's refused", () => {
    const at = { region, account: "111111111111" };
    const seed = service.adoptionSeed?.({ arn: "arn:aws:iam::111111111111:policy/team/read" }, at);
    assert.deepEqual(seed, { ok: true, value: { name: "read", path: "/team/" } });
    const other = service.adoptionSeed?.({ arn: "arn:aws:iam::222222222222:policy/read" }, at);
    assert.equal(other?.ok, false);
    assert.match(other?.ok ? "" : (other?.message ?? ""), /names account 222222222222/);
    const notOne = service.adoptionSeed?.({ arn: "arn:aws:iam::111111111111:role/read" }, at);
    assert.equal(notOne?.ok, false);
  });
});
