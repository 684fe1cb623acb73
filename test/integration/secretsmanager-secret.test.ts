// The Secret kind — a declaration served by the generic runtime (src/services/declared-kind/) —
// against the AWS emulator, calls checked on the wire through the recording proxy: the create
// carries the value from the Kubernetes Secret (never the spec), the description and the ownership
// tags; the read (DescribeSecret by name) gives ACK's status (the ARN as answered, its random suffix
// and all; the current version) and never the value; the description by UpdateSecret (cleared when
// removed), the value again by PutSecretValue only when the Kubernetes Secret changed; tags by the
// ARN; an untagged secret claimed; another account sees nothing; deleted, the secret scheduled for
// deletion is none (its DeletedDate), and deleting again is not-found.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  CreateSecretCommand,
  DescribeSecretCommand,
  GetSecretValueCommand,
  SecretsManagerClient,
  UpdateSecretCommand,
} from "@aws-sdk/client-secrets-manager";
import type { DeclaredObserved } from "../../src/services/declared-kind/source.ts";
import { secretService as service } from "../../src/services/secretsmanager/secret.ts";
import type { SecretValues } from "../../src/services/service-module.ts";
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
  "services.k8s.aws/owner": "Secret/shop/db-credentials",
  "services.k8s.aws/owner-uid": "uid-secret-1",
  "services.k8s.aws/controller-version": "crossrole-test",
};

type Client = AccountClient<SecretsManagerClient>;
let accounts: TwoAccounts<SecretsManagerClient>;
let calls: WireCalls;
let mine: Client;
let other: Client;

before(async () => {
  accounts = await startTwoAccounts(
    "secretsmanager-secret",
    region,
    (endpoint, credentials) => new SecretsManagerClient({ region, endpoint, credentials }),
  );
  ({ calls, mine, other } = accounts);
});

after(() => accounts?.close());

let counter = 0;
const uniqueName = (label: string) => `${label}-${process.pid}-${++counter}`;
const valueRef = { name: "db", key: "password" };
const withValue = (value: string, changed = false): SecretValues => ({
  values: new Map([["spec.secretString", value]]),
  changed: changed ? ["spec.secretString"] : [],
});

function spec(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const r = service.parseSpec({ name, secretString: valueRef, ...extra });
  assert.ok(r.ok, r.ok ? "" : r.message);
  return r.value;
}

async function observed(client: Client, s: Record<string, unknown>): Promise<DeclaredObserved> {
  const r = await service.read(client, s, {});
  assert.ok(r.found, "found");
  return r.observed;
}

const create = (s: Record<string, unknown>, value = "s3cret") =>
  service.create(mine, s, region, owner, {}, withValue(value));
const update = (desired: Record<string, unknown>, o: DeclaredObserved, secrets = withValue("s3cret")) =>
  service.update(mine, desired, o, owner, {}, secrets);
const secretValue = async (name: string) =>
  (await mine.sdk.send(new GetSecretValueCommand({ SecretId: name }))).SecretString;

describe("Secret through the generic runtime", () => {
  test("create: one call with the Kubernetes Secret's value, the description and the ownership tags; the read gives ACK's status and never the value", async () => {
    const name = uniqueName("create");
    const desired = spec(name, {
      description: "the shop's database",
      tags: [{ key: "team", value: "shop" }],
    });
    const sent = await calls.during(() => create(desired, '{"password":"p1"}'));
    assert.deepEqual(sent, ["CreateSecret"]);
    const made = calls.input("CreateSecret");
    assert.equal(made["Name"], name);
    assert.equal(made["SecretString"], '{"password":"p1"}', "the Secret's value, not the spec's reference");
    assert.equal(made["Description"], "the shop's database");
    assert.ok(JSON.stringify(made["Tags"]).includes("uid-secret-1"), "the ownership tags ride on the create");
    assert.equal(await secretValue(name), '{"password":"p1"}');

    const read = await calls.during(() => observed(mine, desired));
    assert.deepEqual(
      read,
      ["DescribeSecret"],
      "the tags are in DescribeSecret's answer; the value is never read",
    );
    assert.deepEqual(calls.input("DescribeSecret"), { SecretId: name });
    const o = await observed(mine, desired);
    assert.equal(o.fields["description"], "the shop's database");
    assert.equal(o.fields["secretString"], undefined, "the value never reaches the spec");
    assert.equal(o.tags["team"], "shop");
    const arn = (await mine.sdk.send(new DescribeSecretCommand({ SecretId: name }))).ARN;
    assert.ok(arn?.startsWith(`arn:aws:secretsmanager:${region}:${mine.account}:secret:${name}-`), arn);
    assert.equal(service.answeredArn?.(o), arn, "the ARN as answered, its random suffix and all");
    const status = service.statusFrom?.(o) ?? {};
    assert.equal(status["id"], arn);
    assert.ok(String(status["versionID"]).length > 0, "the AWSCURRENT version");
    assert.ok(service.parseStatus({ ...status }).ok, "status fits the CRD's status schema");
    assert.deepEqual(service.diff(desired, o), [], "nothing differs right after the create");
  });

  test("the description by UpdateSecret (cleared when removed); the value by PutSecretValue only when the Kubernetes Secret changed", async () => {
    const name = uniqueName("update");
    await create(spec(name, { description: "first" }));
    const changed = spec(name, { description: "second" });
    const before = await observed(mine, changed);
    assert.deepEqual(service.diff(changed, before), ["spec.description"]);
    const sent = await calls.during(() => update(changed, before));
    assert.deepEqual(writesOnly(sent), ["UpdateSecret"], "the value unchanged: not sent");
    assert.equal(calls.input("UpdateSecret")["Description"], "second");
    assert.ok(String(calls.input("UpdateSecret")["SecretId"]).startsWith("arn:"), "by the ARN as read");
    assert.equal(calls.input("UpdateSecret")["SecretString"], undefined);
    // Removed from the spec: cleared with "" (on the wire: moto ignores an empty description).
    const cleared = spec(name);
    const now = await observed(mine, cleared);
    await calls.during(() => update(cleared, now));
    assert.equal(calls.input("UpdateSecret")["Description"], "");

    const rotated = await calls.during(async () =>
      update(changed, await observed(mine, changed), withValue("n3w", true)),
    );
    assert.deepEqual(
      writesOnly(rotated),
      ["PutSecretValue"],
      "the Kubernetes Secret changed: the value again",
    );
    assert.equal(calls.input("PutSecretValue")["SecretString"], "n3w");
    assert.equal(await secretValue(name), "n3w");
  });

  test("drift: a description changed out of band is set back; tags changed by the ARN", async () => {
    const name = uniqueName("drift");
    const desired = spec(name, { description: "mine", tags: [{ key: "team", value: "shop" }] });
    await create(desired);
    await mine.sdk.send(new UpdateSecretCommand({ SecretId: name, Description: "theirs" }));
    const drifted = await observed(mine, desired);
    assert.deepEqual(service.diff(desired, drifted), ["spec.description"]);
    await update(desired, drifted);
    assert.deepEqual(service.diff(desired, await observed(mine, desired)), []);
    const retagged = spec(name, { description: "mine", tags: [{ key: "tier", value: "gold" }] });
    const sent = await calls.during(async () => update(retagged, await observed(mine, retagged)));
    assert.deepEqual(writesOnly(sent).sort(), ["TagResource", "UntagResource"]);
    const tagged = await observed(mine, retagged);
    assert.deepEqual(service.diff(retagged, tagged), []);
    assert.equal(tagged.tags["services.k8s.aws/owner-uid"], "uid-secret-1", "ownership tags stay");
  });

  test("claim tags an untagged secret; adopting it keeps the spec's reference to the value", async () => {
    const name = uniqueName("claim");
    await mine.sdk.send(
      new CreateSecretCommand({
        Name: name,
        SecretString: "x",
        Description: "made out of band",
        Tags: [{ Key: "cost-center", Value: "42" }],
      }),
    );
    const o = await observed(mine, spec(name));
    assert.equal(o.tags["services.k8s.aws/owner-uid"], undefined);
    await service.claim(mine, o, owner, {});
    const claimed = await observed(mine, spec(name));
    assert.equal(claimed.tags["services.k8s.aws/owner-uid"], "uid-secret-1");
    assert.equal(claimed.tags["cost-center"], "42");
    const adopted = service.specFromObserved(claimed, spec(name));
    assert.equal(adopted["description"], "made out of band");
    assert.deepEqual(adopted["secretString"], valueRef, "the reference stays: AWS never reveals the value");
    assert.ok(service.parseSpec(adopted).ok);
  });

  test("delete: scheduled for deletion, the secret is none; deleting again is not-found; another account sees nothing", async () => {
    const name = uniqueName("delete");
    const desired = spec(name);
    await create(desired);
    assert.deepEqual(await service.read(other, desired, {}), { found: false });
    assert.equal(await service.delete(other, desired, {}, {}), "not-found");
    assert.equal(await service.delete(mine, desired, {}, {}), "deleted");
    const scheduled = await mine.sdk.send(new DescribeSecretCommand({ SecretId: name }));
    assert.ok(scheduled.DeletedDate, "scheduled, with Secrets Manager's recovery window (as ACK)");
    assert.deepEqual(await service.read(mine, desired, {}), { found: false }, "being deleted is none");
    assert.equal(await service.delete(mine, desired, {}, {}), "not-found", "already being deleted");
  });
});
