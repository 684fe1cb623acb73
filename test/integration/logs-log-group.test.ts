// The LogGroup kind — a declaration served by the generic runtime (src/services/declared-kind/),
// with no hook — against the AWS emulator, calls checked on the wire through the recording proxy:
// the create carries the ownership tags, the read asks by name prefix and keeps only the log group
// of the resource's name, the retention policy is put and deleted by its own calls, subscription
// filters are set and deleted one per name (a distribution left out is AWS's default, no drift),
// the key is associated and disassociated (calls the emulator lacks: answered as AWS does, the
// input checked), drift is corrected, an untagged log group is claimed, another account sees
// nothing, and delete is idempotent.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  CloudWatchLogsClient,
  CreateLogGroupCommand,
  DescribeSubscriptionFiltersCommand,
  PutRetentionPolicyCommand,
  TagResourceCommand,
} from "@aws-sdk/client-cloudwatch-logs";
import type { DeclaredObserved } from "../../src/services/declared-kind/source.ts";
import { logGroupService as service } from "../../src/services/logs/log-group.ts";
import type { AwsProxy } from "../support/aws-proxy.ts";
import { type NamedKindHarness, namedKindHarness } from "../support/named-kind.ts";
import { type AccountClient, type WireCalls, writesOnly } from "../support/two-accounts.ts";

const region = "us-east-1";

type Client = AccountClient<CloudWatchLogsClient>;
let h: NamedKindHarness<CloudWatchLogsClient>;
let proxy: AwsProxy;
let calls: WireCalls;
/** This account, through the proxy. */
let mine: Client;
let other: Client;
let myAccount: string;

before(async () => {
  h = await namedKindHarness({
    label: "logs-log-group",
    region,
    resource: { kind: "LogGroup", namespace: "shop", name: "shop-logs", uid: "uid-logs-1" },
    client: (endpoint, credentials) => new CloudWatchLogsClient({ region, endpoint, credentials }),
    service,
    prefix: "/crossrole/",
  });
  ({ proxy, calls, mine, other } = h);
  myAccount = mine.account;
});

after(() => h?.close());

const uniqueName = (label: string) => h.uniqueName(label);
const spec = (name: string, extra: Record<string, unknown> = {}) => h.spec(name, extra);
const observed = (client: Client, s: Record<string, unknown>): Promise<DeclaredObserved> =>
  h.observed(client, s);
const create = (s: Record<string, unknown>) => h.create(s);
const update = (desired: Record<string, unknown>, o: DeclaredObserved) => h.update(desired, o);
/** Another log group of this account, a subscription filter's destination the emulator accepts. */
async function destination(label: string): Promise<string> {
  const name = uniqueName(label);
  await mine.sdk.send(new CreateLogGroupCommand({ logGroupName: name }));
  return `arn:aws:logs:${region}:${myAccount}:log-group:${name}`;
}

describe("LogGroup through the generic runtime", () => {
  test("create: one call carrying the ownership tags and the key; the read fills ACK's status and the ARN", async () => {
    const name = uniqueName("create");
    const key = `arn:aws:kms:${region}:${myAccount}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;
    const desired = spec(name, { tags: { team: "shop" }, kmsKeyID: key });
    const sent = await calls.during(() => create(desired));
    assert.deepEqual(sent, ["CreateLogGroup"], "one call (the reconciler has read first)");
    const create0 = calls.input("CreateLogGroup");
    assert.equal(create0["logGroupName"], name);
    assert.equal(create0["kmsKeyId"], key);
    assert.equal((create0["tags"] as Record<string, string>)["services.k8s.aws/owner-uid"], "uid-logs-1");
    const o = await observed(mine, desired);
    assert.equal(o.fields["name"], name);
    assert.equal(o.fields["kmsKeyID"], key);
    assert.equal(o.tags["team"], "shop");
    assert.equal(
      o.arn,
      `arn:aws:logs:${region}:${myAccount}:log-group:${name}`,
      "the log group's own, not ':*'",
    );
    assert.equal(service.arn(desired, region, myAccount), o.arn, "the ARN is known before it exists");
    assert.equal(service.observedRegion(o), region);
    const status = service.statusFrom?.(o) ?? {};
    assert.ok(Number(status["creationTime"]) > 0, "creationTime");
    assert.ok(service.parseStatus({ ...status }).ok, "status fits the CRD's status schema");
    assert.deepEqual(service.diff(desired, o), [], "nothing differs right after the create");
  });

  test("the read asks by the name as a prefix and keeps only the log group of that name", async () => {
    const name = uniqueName("read");
    await create(spec(`${name}-longer`, { retentionDays: 7 }));
    await mine.sdk.send(
      new PutRetentionPolicyCommand({ logGroupName: `${name}-longer`, retentionInDays: 7 }),
    );
    assert.deepEqual(await service.read(mine, spec(name), {}), { found: false }, "a longer name is not it");
    assert.equal(calls.input("DescribeLogGroups", -1)["logGroupNamePrefix"], name);
    await create(spec(name));
    const o = await observed(mine, spec(name));
    assert.equal(o.fields["name"], name);
    assert.equal(o.fields["retentionDays"], undefined, "the other log group's retention is not this one's");
  });

  test("retention: put by its own call, changed, then deleted by its own call when removed", async () => {
    const name = uniqueName("retention");
    await create(spec(name));
    const week = spec(name, { retentionDays: 7 });
    assert.deepEqual(service.diff(week, await observed(mine, week)), ["spec.retentionDays"]);
    const sent = await calls.during(async () => update(week, await observed(mine, week)));
    assert.deepEqual(writesOnly(sent), ["PutRetentionPolicy"]);
    assert.deepEqual(calls.input("PutRetentionPolicy"), { logGroupName: name, retentionInDays: 7 });
    const o = await observed(mine, week);
    assert.equal(o.fields["retentionDays"], 7);
    assert.equal(service.statusFrom?.(o)["retentionInDays"], 7, "ACK's status field too");
    assert.deepEqual(service.diff(week, o), []);
    const never = spec(name);
    assert.deepEqual(service.diff(never, o), ["spec.retentionDays"]);
    const removed = await calls.during(() => update(never, o));
    assert.deepEqual(writesOnly(removed), ["DeleteRetentionPolicy"]);
    assert.deepEqual(service.diff(never, await observed(mine, never)), []);
  });

  test("subscription filters: each set by its name, a left-out distribution is AWS's default, a removed one deleted", async () => {
    const name = uniqueName("filters");
    const [a, b] = [await destination("dest-a"), await destination("dest-b")];
    await create(spec(name));
    const two = spec(name, {
      subscriptionFilters: [
        { filterName: "errors", filterPattern: "ERROR", destinationARN: a },
        { filterName: "all", filterPattern: "", destinationARN: b, distribution: "ByLogStream" },
      ],
    });
    const sent = await calls.during(async () => update(two, await observed(mine, two)));
    assert.deepEqual(writesOnly(sent), ["PutSubscriptionFilter", "PutSubscriptionFilter"]);
    assert.deepEqual(calls.input("PutSubscriptionFilter"), {
      logGroupName: name,
      filterName: "errors",
      filterPattern: "ERROR",
      destinationArn: a,
    });
    const o = await observed(mine, two);
    assert.deepEqual(
      ((o.fields["subscriptionFilters"] as Record<string, unknown>[]) ?? [])
        .map((f) => f["filterName"])
        .sort(),
      ["all", "errors"],
    );
    assert.deepEqual(service.diff(two, o), [], "ByLogStream, said or left out, is what AWS reports");
    // One changed, one removed: the Delete first (a log group holds two filters at most), then the Put.
    const one = spec(name, {
      subscriptionFilters: [{ filterName: "errors", filterPattern: "WARN", destinationARN: a }],
    });
    assert.deepEqual(service.diff(one, o), ["spec.subscriptionFilters"]);
    const changed = await calls.during(() => update(one, o));
    assert.deepEqual(
      writesOnly(changed),
      ["DeleteSubscriptionFilter", "PutSubscriptionFilter"],
      "removed first",
    );
    assert.deepEqual(calls.input("DeleteSubscriptionFilter"), { logGroupName: name, filterName: "all" });
    const after = await observed(mine, one);
    assert.deepEqual(service.diff(one, after), []);
    // None left in the spec: every filter deleted.
    const none = spec(name, { subscriptionFilters: [] });
    await update(none, after);
    const left = await mine.sdk.send(new DescribeSubscriptionFiltersCommand({ logGroupName: name }));
    assert.deepEqual(left.subscriptionFilters, []);
    assert.deepEqual(service.diff(none, await observed(mine, none)), []);
  });

  test("a filter's Random distribution is sent as written", async () => {
    const name = uniqueName("random");
    const a = await destination("dest-random");
    await create(spec(name));
    const random = spec(name, {
      subscriptionFilters: [
        { filterName: "r", filterPattern: "", destinationARN: a, distribution: "Random" },
      ],
    });
    await calls.during(async () => update(random, await observed(mine, random)));
    assert.equal(calls.input("PutSubscriptionFilter")["distribution"], "Random");
  });

  test("the key: associated when set or changed, disassociated when removed (answered as AWS does)", async () => {
    const name = uniqueName("kms");
    const key = `arn:aws:kms:${region}:${myAccount}:key/aaaaaaaa-12ab-34cd-56ef-1234567890ab`;
    await create(spec(name));
    const ok = { status: 200, body: "{}" };
    const drop = [
      proxy.addFault({
        name: "associate",
        match: (r) => r.action === "AssociateKmsKey",
        respond: { answer: ok },
      }),
      proxy.addFault({
        name: "disassociate",
        match: (r) => r.action === "DisassociateKmsKey",
        respond: { answer: ok },
      }),
    ];
    try {
      const keyed = spec(name, { kmsKeyID: key });
      const o = await observed(mine, keyed);
      assert.deepEqual(service.diff(keyed, o), ["spec.kmsKeyID"]);
      const sent = await calls.during(() => update(keyed, o));
      assert.deepEqual(writesOnly(sent), ["AssociateKmsKey"]);
      assert.deepEqual(calls.input("AssociateKmsKey"), { logGroupName: name, kmsKeyId: key });
      // AWS now reports the key: removing it from the spec disassociates it.
      const withKey = { ...o, fields: { ...o.fields, kmsKeyID: key } };
      const removed = await calls.during(() => update(spec(name), withKey));
      assert.deepEqual(writesOnly(removed), ["DisassociateKmsKey"]);
      assert.deepEqual(calls.input("DisassociateKmsKey"), { logGroupName: name });
    } finally {
      for (const d of drop) d();
    }
  });

  test("drift: retention and a tag changed out of band are seen and corrected", async () => {
    const name = uniqueName("drift");
    const desired = spec(name, { retentionDays: 30 });
    await create(desired);
    await update(desired, await observed(mine, desired));
    const o = await observed(mine, desired);
    await mine.sdk.send(new PutRetentionPolicyCommand({ logGroupName: name, retentionInDays: 1 }));
    await mine.sdk.send(new TagResourceCommand({ resourceArn: o.arn, tags: { x: "y" } }));
    const drifted = await observed(mine, desired);
    assert.deepEqual(service.diff(desired, drifted), ["spec.retentionDays", "spec.tags"]);
    const sent = await calls.during(() => update(desired, drifted));
    assert.deepEqual(writesOnly(sent), ["PutRetentionPolicy", "UntagResource"]);
    assert.deepEqual(calls.input("UntagResource"), { resourceArn: o.arn, tagKeys: ["x"] });
    assert.deepEqual(service.diff(desired, await observed(mine, desired)), []);
  });

  test("claim tags an untagged log group; adopting it makes the spec AWS's, the user's tags without ownership tags", async () => {
    const name = uniqueName("claim");
    await mine.sdk.send(new CreateLogGroupCommand({ logGroupName: name, tags: { "cost-center": "42" } }));
    await mine.sdk.send(new PutRetentionPolicyCommand({ logGroupName: name, retentionInDays: 14 }));
    const o = await observed(mine, spec(name));
    assert.equal(o.tags["services.k8s.aws/owner-uid"], undefined);
    await service.claim(mine, o, h.owner, {});
    const claimed = await observed(mine, spec(name));
    assert.equal(claimed.tags["services.k8s.aws/owner-uid"], "uid-logs-1");
    assert.equal(claimed.tags["cost-center"], "42", "the log group's own tags stay");
    const adopted = service.specFromObserved(claimed, { name });
    assert.equal(adopted["retentionDays"], 14);
    assert.deepEqual(adopted["tags"], { "cost-center": "42" });
    assert.ok(service.parseSpec(adopted).ok, "the adopted spec fits the schema");
  });

  test("another account sees nothing under the name, and cannot delete it; delete is idempotent", async () => {
    const name = uniqueName("isolated");
    await create(spec(name));
    assert.deepEqual(await service.read(other, spec(name), {}), { found: false });
    assert.equal(await service.delete(other, spec(name), {}, {}), "not-found");
    assert.ok((await service.read(mine, spec(name), {})).found, "still there in its own account");
    proxy.clearRecording();
    assert.equal(await service.delete(mine, spec(name), {}, {}), "deleted");
    assert.deepEqual(calls.input("DeleteLogGroup"), { logGroupName: name });
    assert.equal(await service.delete(mine, spec(name), {}, {}), "not-found");
    assert.deepEqual(await service.read(mine, spec(name), {}), { found: false });
  });
});

describe("LogGroup spec: ACK's manifest shape, references", () => {
  test("a kmsKeyRef names a served KMS Key (its ARN fills kmsKeyID): one of the two", () => {
    assert.ok(service.parseSpec({ name: "g", kmsKeyRef: { from: { name: "k" } } }).ok);
    const both = service.parseSpec({ name: "g", kmsKeyID: "arn", kmsKeyRef: { from: { name: "k" } } });
    assert.equal(both.ok, false);
    assert.ok(
      service.references?.some((r) => r.kind === "Key" && r.arn === true),
      "fills the ARN",
    );
  });

  test("a retention CloudWatch Logs would refuse is refused by the spec check, naming the values (nothing is made)", () => {
    const r = service.parseSpec({ name: "g", retentionDays: 2 });
    assert.equal(r.ok, false);
    assert.match(
      r.ok ? "" : r.message,
      /retentionDays: 2 is not a retention CloudWatch Logs accepts; use one of 1, 3, 5/,
    );
    assert.ok(service.parseSpec({ name: "g", retentionDays: 3653 }).ok);
  });

  test("ACK's subscription filter item shape: a logGroupName in an item is no field (the put names the resource's own)", () => {
    const r = service.parseSpec({
      name: "g",
      subscriptionFilters: [
        { filterName: "f", filterPattern: "", destinationARN: "arn:aws:logs:x", logGroupName: "y" },
      ],
    });
    assert.ok(r.ok);
    assert.deepEqual(r.value["subscriptionFilters"], [
      { filterName: "f", filterPattern: "", destinationARN: "arn:aws:logs:x" },
    ]);
  });
});
