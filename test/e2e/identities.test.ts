// Identity objects end to end (DESIGN §2.5, §3.1 step 1, §3.2), default CARM mode, with the real
// controller process: `spec.identityRef` allowed and denied, a two-hop role chain, an
// allowedNamespaces label selector, a chain whose first hop refuses, an AWSControllerIdentity
// that excludes a namespace, and AWSStaticIdentity keys from a Secret in the system namespace
// (present, and missing until it is created). Every AWS claim is checked in the emulator with
// the owning account's own credentials.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";
import { accountsHolding } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import {
  bucket,
  type ControllerProcess,
  condition,
  controllerAccount,
  controllerCredentials,
  type E2E,
  getBucket,
  identity,
  namespace,
  region,
  startE2E,
  waitForCondition,
} from "./fixture.ts";

const fromController = { kind: "AWSControllerIdentity", name: "default" };
const teamRole = "arn:aws:iam::111111111111:role/team";
const hop1Role = "arn:aws:iam::222222222222:role/hop1";
const hop2Role = "arn:aws:iam::333333333333:role/hop2";
const goldRole = "arn:aws:iam::444444444444:role/gold";
const staticAccount = "555555555555";
const lateStaticAccount = "666666666666";
/** Every account a bucket of this file could land in. */
const accounts = [
  controllerAccount,
  "111111111111",
  "222222222222",
  "333333333333",
  "444444444444",
  staticAccount,
  lateStaticAccount,
];

/** Real assumed-role keys for `account`, minted the way any AWS user would: sts:AssumeRole. */
async function keysFor(endpoint: string, account: string): Promise<Record<string, string>> {
  const sts = new STSClient({ region, endpoint, credentials: controllerCredentials });
  const out = await sts.send(
    new AssumeRoleCommand({
      RoleArn: `arn:aws:iam::${account}:role/static-keys`,
      RoleSessionName: "e2e-static-keys",
    }),
  );
  const c = out.Credentials;
  if (!c?.AccessKeyId || !c.SecretAccessKey || !c.SessionToken)
    throw new Error(`AssumeRole into ${account} returned no credentials`);
  return { AccessKeyID: c.AccessKeyId, SecretAccessKey: c.SecretAccessKey, SessionToken: c.SessionToken };
}

function secret(name: string, stringData: Record<string, string>): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name, namespace: "ack-system" },
    type: "Opaque",
    stringData,
  } as KubeObject;
}

const ref = (kind: string, name: string) => ({ identityRef: { kind, name } });

let e2e: E2E;
let controller: ControllerProcess;
let endpoint: string;

/** The accounts (of `accounts`) whose own ListBuckets shows `name`. */
const holders = (name: string): Promise<string[]> => accountsHolding(endpoint, name, accounts);

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint!;
  await e2e.apply([
    namespace("ack-system"),
    namespace("id-allowed"),
    namespace("id-denied"),
    namespace("chain"),
    namespace("chain-denied"),
    namespace("gold", {}, { tier: "gold" }),
    namespace("silver", {}, { tier: "silver" }),
    namespace("open"),
    namespace("closed"),
    namespace("static"),
    // The controller's own credentials: every namespace but `closed` (the role identities below
    // are assumed from them, so they must admit those namespaces too).
    identity("AWSControllerIdentity", "default", {
      allowedNamespaces: {
        list: ["id-allowed", "id-denied", "chain", "chain-denied", "open"],
        selector: { matchExpressions: [{ key: "tier", operator: "Exists" }] },
      },
    }),
    identity("AWSRoleIdentity", "team", {
      sourceIdentityRef: fromController,
      roleARN: teamRole,
      allowedNamespaces: { list: ["id-allowed"] },
    }),
    identity("AWSRoleIdentity", "hop1", {
      sourceIdentityRef: fromController,
      roleARN: hop1Role,
      allowedNamespaces: { list: ["chain"] },
    }),
    identity("AWSRoleIdentity", "hop2", {
      sourceIdentityRef: { kind: "AWSRoleIdentity", name: "hop1" },
      roleARN: hop2Role,
      allowedNamespaces: { list: ["chain", "chain-denied"] },
    }),
    identity("AWSRoleIdentity", "gold", {
      sourceIdentityRef: fromController,
      roleARN: goldRole,
      allowedNamespaces: { selector: { matchLabels: { tier: "gold" } } },
    }),
    secret("static-keys", await keysFor(endpoint, staticAccount)),
    identity("AWSStaticIdentity", "static", {
      secretRef: "static-keys",
      allowedNamespaces: { list: ["static"] },
    }),
    secret("partial-keys", { AccessKeyID: "AKIAPARTIALEXAMPLE" }),
    identity("AWSStaticIdentity", "partial-static", {
      secretRef: "partial-keys",
      allowedNamespaces: { list: ["static"] },
    }),
    identity("AWSStaticIdentity", "late-static", {
      secretRef: "late-static-keys",
      allowedNamespaces: { list: ["static"] },
    }),
    bucket("id-allowed", "data", ref("AWSRoleIdentity", "team")),
    bucket("id-denied", "data", ref("AWSRoleIdentity", "team")),
    bucket("chain", "data", ref("AWSRoleIdentity", "hop2")),
    bucket("chain-denied", "data", ref("AWSRoleIdentity", "hop2")),
    bucket("gold", "data", ref("AWSRoleIdentity", "gold")),
    bucket("silver", "data", ref("AWSRoleIdentity", "gold")),
    bucket("open", "data"),
    bucket("closed", "data"),
    bucket("static", "data", ref("AWSStaticIdentity", "static")),
    bucket("static", "partial", ref("AWSStaticIdentity", "partial-static")),
    bucket("static", "late", ref("AWSStaticIdentity", "late-static")),
  ]);
  controller = await e2e.startController();
});
after(() => e2e?.stop());

/** Waits for the deny condition, checks nothing was created anywhere, returns the message. */
async function denied(ns: string, name: string): Promise<string> {
  const b = await waitForCondition(e2e.kube, ns, name, "ACK.Recoverable", "True", "IdentityNotPermitted");
  assert.equal(condition(b, "ACK.ResourceSynced")?.status, "False");
  assert.equal(b.status?.ackResourceMetadata, undefined);
  assert.deepEqual(await holders(`${ns}-${name}`), []);
  return condition(b, "ACK.Recoverable")?.message ?? "";
}

test("identityRef to an AWSRoleIdentity that allows the namespace lands in its role's account", async () => {
  const b = await waitForCondition(e2e.kube, "id-allowed", "data", "ACK.ResourceSynced", "True");
  assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, "111111111111");
  assert.equal(b.status?.ackResourceMetadata?.identity?.["source"], "identityRef");
  assert.equal(b.status?.ackResourceMetadata?.identity?.["roleARN"], teamRole);
  assert.deepEqual(await holders("id-allowed-data"), ["111111111111"]);
});

test("identityRef from a namespace not in allowedNamespaces is denied, naming identity, namespace and list", async () => {
  const message = await denied("id-denied", "data");
  assert.match(message, /AWSRoleIdentity team does not allow namespace id-denied/);
  assert.match(message, /allowedNamespaces admits namespaces \[id-allowed\]/);
});

test("a two-hop chain (AWSRoleIdentity → AWSRoleIdentity) lands in the last role's account", async () => {
  const b = await waitForCondition(e2e.kube, "chain", "data", "ACK.ResourceSynced", "True");
  assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, "333333333333");
  assert.equal(b.status?.ackResourceMetadata?.identity?.["roleARN"], hop2Role);
  assert.deepEqual(await holders("chain-data"), ["333333333333"]);
});

test("a chain whose first hop does not allow the namespace is denied, naming that hop", async () => {
  // hop2 (the one referenced) admits chain-denied; hop1, assumed first, does not.
  const message = await denied("chain-denied", "data");
  assert.match(message, /AWSRoleIdentity hop1 does not allow namespace chain-denied/);
  assert.match(message, /AWSRoleIdentity hop2 → AWSRoleIdentity hop1/);
  assert.match(message, /allowedNamespaces admits namespaces \[chain\]/);
});

test("allowedNamespaces.selector admits namespaces by label, and only those", async () => {
  const b = await waitForCondition(e2e.kube, "gold", "data", "ACK.ResourceSynced", "True");
  assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, "444444444444");
  assert.deepEqual(await holders("gold-data"), ["444444444444"]);

  const message = await denied("silver", "data");
  assert.match(message, /AWSRoleIdentity gold does not allow namespace silver/);
  assert.match(message, /namespaces with labels tier=gold/);
});

test("an AWSControllerIdentity/default that excludes a namespace denies it the controller's account", async () => {
  const open = await waitForCondition(e2e.kube, "open", "data", "ACK.ResourceSynced", "True");
  assert.equal(open.status?.ackResourceMetadata?.ownerAccountID, controllerAccount);
  assert.equal(open.status?.ackResourceMetadata?.identity?.["source"], "default");
  assert.deepEqual(await holders("open-data"), [controllerAccount]);

  const message = await denied("closed", "data");
  assert.match(message, /AWSControllerIdentity default does not allow namespace closed/);
});

test("an AWSStaticIdentity uses the keys in its Secret: the bucket lands in the keys' account", async () => {
  const b = await waitForCondition(e2e.kube, "static", "data", "ACK.ResourceSynced", "True");
  assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, staticAccount);
  assert.equal(b.status?.ackResourceMetadata?.identity?.["source"], "identityRef");
  assert.deepEqual(await holders("static-data"), [staticAccount]);
});

test("an AWSStaticIdentity whose Secret lacks a key names the Secret and the key", async () => {
  const b = await waitForCondition(
    e2e.kube,
    "static",
    "partial",
    "ACK.Recoverable",
    "True",
    "CredentialsUnavailable",
  );
  const message = condition(b, "ACK.Recoverable")?.message ?? "";
  assert.match(message, /Secret ack-system\/partial-keys has no \(or an empty\) key SecretAccessKey/);
  assert.match(message, /AWSStaticIdentity\/partial-static/);
  assert.doesNotMatch(message, /AKIAPARTIALEXAMPLE/, "no key material in the condition");
  assert.equal(condition(b, "ACK.ResourceSynced")?.status, "False");
  assert.deepEqual(await holders("static-partial"), []);
});

test("an AWSStaticIdentity whose Secret is missing names it; creating the Secret re-queues at once", async () => {
  const b = await waitForCondition(
    e2e.kube,
    "static",
    "late",
    "ACK.Recoverable",
    "True",
    "CredentialsUnavailable",
  );
  const message = condition(b, "ACK.Recoverable")?.message ?? "";
  assert.match(message, /Secret ack-system\/late-static-keys does not exist/);
  assert.match(message, /with keys AccessKeyID and SecretAccessKey/);
  assert.equal(condition(b, "ACK.ResourceSynced")?.status, "False");
  assert.deepEqual(await holders("static-late"), []);

  // Let the per-item backoff (5 ms·2^n) grow past 2.5 s, so that a sync within 1.5 s of the
  // Secret's creation can only come from the Secret watch re-queueing the bucket.
  const failures = () =>
    controller
      .logs()
      .filter((l) => l["key"] === "static/late" && String(l["msg"]).startsWith("reconcile failed")).length;
  await waitFor(() => failures() >= 10, { what: "10 failed reconciles of static/late", timeoutMs: 20_000 });
  const started = Date.now();
  await e2e.apply([secret("late-static-keys", await keysFor(endpoint, lateStaticAccount))]);
  const synced = await waitFor(
    async () => {
      const s = await getBucket(e2e.kube, "static", "late");
      return condition(s, "ACK.ResourceSynced")?.status === "True" ? s : undefined;
    },
    {
      what: "Bucket static/late ACK.ResourceSynced=True after its Secret appeared",
      timeoutMs: 10_000,
      intervalMs: 10,
    },
  );
  const elapsed = Date.now() - started;
  assert.ok(elapsed <= 1_500, `synced ${elapsed} ms after the Secret was created (limit 1500 ms)`);
  assert.equal(synced.status?.ackResourceMetadata?.ownerAccountID, lateStaticAccount);
  assert.deepEqual(await holders("static-late"), [lateStaticAccount]);
});
