// Adoption and read-only with the real controller process. Buckets are first made out-of-band in
// an account (with that account's own credentials, as another tool would), then:
//   - services.k8s.aws/adoption-policy: adopt — strict import: the resource's spec becomes what
//     AWS has, nothing is created or changed in AWS; a missing bucket is not created;
//   - adopt-or-create — a missing bucket is created; an existing one is adopted and, as in ACK,
//     the manifest is the source of truth from then on;
//   - services.k8s.aws/read-only: "true" — AWS is read (status filled, Synced) but never
//     written: no create, no update, and deleting the resource leaves the bucket;
//   - an invalid annotation value is ACK.Terminal naming the annotation and the fix, and
//     nothing happens in AWS until it is fixed.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import {
  CreateBucketCommand,
  GetBucketVersioningCommand,
  PutBucketTaggingCommand,
  PutBucketVersioningCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { parse as parseYaml } from "yaml";
import { accountsHolding, bucketTagsIn, s3As as harnessS3As } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import { patchTypes } from "../../src/runtime/kube-client.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import {
  bucket,
  bucketPath,
  condition,
  configMap,
  controllerAccount,
  type E2E,
  eventsAbout,
  getBucket,
  namespace,
  type Resource,
  region,
  startE2E,
  waitForCondition,
  waitForEvent,
} from "./fixture.ts";

const X = "111111111111";
const Y = "222222222222";
const accounts = [X, Y, controllerAccount] as const;
const finalizer = "finalizers.s3.services.k8s.aws/Bucket";
const adoptionPolicy = "services.k8s.aws/adoption-policy";
const readOnly = "services.k8s.aws/read-only";

let e2e: E2E;
let endpoint: string;

before(async () => {
  e2e = await startE2E({ awsRecording: true });
  endpoint = e2e.stack.awsEndpoint ?? "";
  await e2e.apply([
    namespace("ack-system"),
    namespace("adopt", { "services.k8s.aws/owner-account-id": X }),
    namespace("adopt-create", { "services.k8s.aws/owner-account-id": X }),
    namespace("ro", { "services.k8s.aws/owner-account-id": Y }),
    namespace("typo", { "services.k8s.aws/owner-account-id": X }),
    configMap("ack-role-account-map", {
      [X]: `arn:aws:iam::${X}:role/adopt-x`,
      [Y]: `arn:aws:iam::${Y}:role/adopt-y`,
    }),
  ]);
  await e2e.startController();
});
after(() => e2e?.stop());

// ---- AWS side, as the account itself ----

const s3As = (account: string): Promise<S3Client> => harnessS3As(endpoint, account);

/** Creates `name` in `account` out-of-band, with tags and (optionally) versioning. */
async function createOutOfBand(
  account: string,
  name: string,
  tags: Record<string, string>,
  versioning?: "Enabled" | "Suspended",
): Promise<void> {
  const s3 = await s3As(account);
  await s3.send(new CreateBucketCommand({ Bucket: name }));
  if (Object.keys(tags).length > 0) {
    await s3.send(
      new PutBucketTaggingCommand({
        Bucket: name,
        Tagging: { TagSet: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })) },
      }),
    );
  }
  if (versioning) {
    await s3.send(
      new PutBucketVersioningCommand({ Bucket: name, VersioningConfiguration: { Status: versioning } }),
    );
  }
}

/** The user's tags on the bucket (crossrole's ownership tags are checked on their own). */
async function tagsIn(account: string, name: string): Promise<Record<string, string>> {
  return (await bucketTagsIn(endpoint, account, name)).user;
}

/** The object the bucket's ownership tags name ("" when untagged). */
async function ownerUidIn(account: string, name: string): Promise<string> {
  return (await bucketTagsIn(endpoint, account, name)).ownership["services.k8s.aws/owner-uid"] ?? "";
}

async function versioningIn(account: string, name: string): Promise<string | undefined> {
  return (await (await s3As(account)).send(new GetBucketVersioningCommand({ Bucket: name }))).Status;
}

const holders = (name: string): Promise<string[]> => accountsHolding(endpoint, name, accounts);

/** How many times moto was asked to create `name` (CreateBucket = PUT /<name> with no sub-resource). */
async function createRequests(name: string): Promise<number> {
  const path = e2e.stack.emulator?.recordingPath;
  assert.ok(path, "the emulator records requests");
  let n = 0;
  for (const line of (await readFile(path, "utf8")).split("\n")) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { method?: string; url?: string };
    if (r.method !== "PUT" || typeof r.url !== "string") continue;
    const url = new URL(r.url);
    const parts = url.pathname.split("/").filter(Boolean);
    if (parts.length === 1 && parts[0] === name && url.search === "") n++;
  }
  return n;
}

// ---- Kubernetes side ----

const eventFor = (ns: string, name: string, reason: string) =>
  waitForEvent(e2e.kube, ns, "Bucket", name, reason);

async function eventReasons(ns: string, name: string): Promise<string[]> {
  return (await eventsAbout(e2e.kube, ns, "Bucket", name)).map((e) => e.reason);
}

/** Waits until `type` is `status` for the resource's current generation. */
function conditionAtGeneration(
  ns: string,
  name: string,
  type: string,
  status: "True" | "False",
  minGeneration = 1,
): Promise<Resource> {
  return waitFor(
    async () => {
      const r = await getBucket(e2e.kube, ns, name);
      const c = condition(r, type) as { status: string; observedGeneration?: number } | undefined;
      return c?.status === status &&
        c.observedGeneration === r?.metadata.generation &&
        (c.observedGeneration ?? 0) >= minGeneration
        ? r
        : undefined;
    },
    { what: `Bucket ${ns}/${name} ${type}=${status} at its current generation`, timeoutMs: 15_000 },
  );
}

async function patch(path: string, body: unknown): Promise<void> {
  await e2e.kube.request({ method: "PATCH", path, contentType: patchTypes.merge, body });
}

const tagSet = (spec: Record<string, unknown> | undefined) =>
  (spec?.["tagging"] as { tagSet?: { key: string; value: string }[] } | undefined)?.tagSet;

// ---- adopt ----

test("adopt: an existing bucket is adopted as it is — spec filled from AWS, Synced in its account, nothing created", async () => {
  const name = "adopt-existing";
  await createOutOfBand(X, name, { owner: "data-team", env: "prod" }, "Enabled");
  await e2e.apply([bucket("adopt", "existing", {}, { annotations: { [adoptionPolicy]: "adopt" } })]);

  const b = await waitForCondition(e2e.kube, "adopt", "existing", "ACK.ResourceSynced", "True");
  assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, X);
  assert.equal(b.status?.ackResourceMetadata?.arn, `arn:aws:s3:::${name}`);
  assert.equal(condition(b, "Ready")?.status, "True");
  assert.deepEqual(
    [...(tagSet(b.spec) ?? [])].sort((p, q) => p.key.localeCompare(q.key)),
    [
      { key: "env", value: "prod" },
      { key: "owner", value: "data-team" },
    ],
    "spec.tagging comes from AWS",
  );
  assert.deepEqual(b.spec?.["versioning"], { status: "Enabled" }, "spec.versioning comes from AWS");
  assert.equal(b.spec?.["name"], name);
  assert.ok(b.metadata.finalizers?.includes(finalizer), "an adopted bucket is managed: finalizer set");
  assert.match((await eventFor("adopt", "existing", "Adopted")).message, new RegExp(`${name}.*${X}`));

  assert.equal(await createRequests(name), 1, "only the out-of-band CreateBucket: nothing recreated");
  assert.deepEqual(await holders(name), [X]);
  assert.deepEqual(await tagsIn(X, name), { owner: "data-team", env: "prod" });
  assert.equal(await ownerUidIn(X, name), b.metadata.uid, "adopting tags it as this object's (DESIGN §3.5)");
  assert.equal(await versioningIn(X, name), "Enabled");
  assert.ok(!(await eventReasons("adopt", "existing")).includes("Created"));
});

test("adopt is a strict import: what the manifest says differently is replaced by AWS's state, and AWS is not changed", async () => {
  const name = "adopt-strict";
  await createOutOfBand(X, name, {});
  await e2e.apply([
    bucket(
      "adopt",
      "strict",
      { tagging: { tagSet: [{ key: "wish", value: "1" }] }, versioning: { status: "Enabled" } },
      { annotations: { [adoptionPolicy]: "adopt" } },
    ),
  ]);
  await waitForCondition(e2e.kube, "adopt", "strict", "ACK.ResourceSynced", "True");
  await eventFor("adopt", "strict", "Adopted");
  // Settled: Synced for the generation the adoption wrote.
  const b = await conditionAtGeneration("adopt", "strict", "ACK.ResourceSynced", "True", 2);
  assert.deepEqual(
    b.spec?.["tagging"],
    {},
    "AWS has no tags: the adopted spec has tagging without a tagSet, as ACK's",
  );
  assert.notDeepEqual(b.spec?.["versioning"], { status: "Enabled" }, "AWS's versioning, not the manifest's");
  assert.deepEqual(await tagsIn(X, name), {}, "the manifest's tags were not applied");
  assert.notEqual(await versioningIn(X, name), "Enabled", "the manifest's versioning was not applied");
  assert.equal(await createRequests(name), 1);
});

test("adopt for a bucket that does not exist: not created; the condition names the adoption policy", async () => {
  const name = "adopt-missing";
  await e2e.apply([bucket("adopt", "missing", {}, { annotations: { [adoptionPolicy]: "adopt" } })]);
  const b = await waitForCondition(e2e.kube, "adopt", "missing", "ACK.Recoverable", "True", "NotFound");
  const message = condition(b, "ACK.Recoverable")?.message ?? "";
  assert.match(message, /does not exist in account 111111111111/);
  assert.match(message, /adoption policy is adopt/);
  assert.match(message, /services\.k8s\.aws\/adoption-policy/);
  assert.equal(condition(b, "ACK.ResourceSynced")?.status, "False");
  assert.equal(condition(b, "Ready")?.status, "False");
  assert.equal(b.status?.ackResourceMetadata, undefined);
  assert.deepEqual(await holders(name), []);
  assert.equal(await createRequests(name), 0);
});

// ---- adoption without a spec (ACK's adoption-fields) ----

/** A column of the resource as `kubectl get` prints it (the apiserver's Table form). */
async function printed(ns: string, name: string, column: string): Promise<unknown> {
  const table = await e2e.kube.request<{
    columnDefinitions: { name: string }[];
    rows: { cells: unknown[] }[];
  }>({ method: "GET", path: bucketPath(ns, name), accept: "application/json;as=Table;v=v1;g=meta.k8s.io" });
  const i = table.columnDefinitions.findIndex((c) => c.name === column);
  assert.ok(i >= 0, `a ${column} column (has ${table.columnDefinitions.map((c) => c.name).join(", ")})`);
  return table.rows[0]?.cells[i];
}

/** A manifest as written in YAML (ACK's e2e manifests are). */
const applyYaml = (text: string): Promise<void> => e2e.apply([parseYaml(text) as KubeObject]);

test("ACK's bucket_adopt.yaml: no spec, adoption-fields name an untagged bucket — adopted as it is, AWS's configuration written as the spec, then managed", async () => {
  const name = "ack-adopt-fields";
  await createOutOfBand(X, name, { owner: "data-team" }, "Enabled");
  // ACK's e2e manifest (s3-controller test/e2e/resources/bucket_adopt.yaml), its variables filled in.
  await applyYaml(`apiVersion: s3.services.k8s.aws/v1alpha1
kind: Bucket
metadata:
  name: ack-adopt
  namespace: adopt
  annotations:
    services.k8s.aws/adoption-policy: adopt
    services.k8s.aws/adoption-fields: "{\\"name\\": \\"${name}\\"}"
    services.k8s.aws/deletion-policy: retain
`);
  const b = await conditionAtGeneration("adopt", "ack-adopt", "ACK.ResourceSynced", "True", 2);
  assert.equal(b.spec?.["name"], name, "the spec names the adopted bucket");
  assert.deepEqual(b.spec?.["versioning"], { status: "Enabled" }, "spec.versioning comes from AWS");
  assert.deepEqual(tagSet(b.spec), [{ key: "owner", value: "data-team" }], "spec.tagging comes from AWS");
  assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, X);
  assert.equal(await ownerUidIn(X, name), b.metadata.uid, "tagged as this object's");
  assert.equal(await createRequests(name), 1, "nothing created");
  await eventFor("adopt", "ack-adopt", "Adopted");
  assert.equal(await printed("adopt", "ack-adopt", "Reason"), "Synced", "kubectl get shows why it is ready");

  // As ACK's test goes on: the adopted resource is managed, a spec change reaches AWS.
  await patch(bucketPath("adopt", "ack-adopt"), { spec: { versioning: { status: "Suspended" } } });
  await conditionAtGeneration("adopt", "ack-adopt", "ACK.ResourceSynced", "True", 3);
  assert.equal(await versioningIn(X, name), "Suspended");
});

test("no spec, adoption-fields naming another object's bucket: refused, nothing written to it or to the spec", async () => {
  await e2e.apply([bucket("adopt", "owned")]);
  const owner = await waitForCondition(e2e.kube, "adopt", "owned", "ACK.ResourceSynced", "True");
  const name = "adopt-owned";
  await applyYaml(`apiVersion: s3.services.k8s.aws/v1alpha1
kind: Bucket
metadata:
  name: grab
  namespace: adopt-create
  annotations:
    services.k8s.aws/adoption-policy: adopt
    services.k8s.aws/adoption-fields: '{"name": "${name}"}'
`);
  const b = await waitForCondition(e2e.kube, "adopt-create", "grab", "ACK.Terminal", "True", "NameTaken");
  assert.match(
    condition(b, "ACK.Terminal")?.message ?? "",
    /never updates, adopts or deletes another object's/,
  );
  assert.equal(b.spec, undefined, "no spec written");
  assert.equal(await ownerUidIn(X, name), owner.metadata.uid, "still the owner's");
  assert.equal(await createRequests(name), 1);
});

// ---- adopt-or-create ----

test("adopt-or-create for a missing bucket: created in the namespace's account", async () => {
  const name = "adopt-create-fresh";
  await e2e.apply([
    bucket(
      "adopt-create",
      "fresh",
      { tagging: { tagSet: [{ key: "team", value: "shop" }] } },
      { annotations: { [adoptionPolicy]: "adopt-or-create" } },
    ),
  ]);
  const b = await waitForCondition(e2e.kube, "adopt-create", "fresh", "ACK.ResourceSynced", "True");
  assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, X);
  assert.deepEqual(await holders(name), [X]);
  assert.deepEqual(await tagsIn(X, name), { team: "shop" });
  await eventFor("adopt-create", "fresh", "Created");
  assert.equal(await createRequests(name), 1);
});

test("adopt-or-create for an existing bucket: adopted, not recreated; the manifest is the source of truth (as in ACK)", async () => {
  const name = "adopt-create-existing";
  await createOutOfBand(X, name, { owner: "old-team" }, "Enabled");
  await e2e.apply([
    bucket(
      "adopt-create",
      "existing",
      { tagging: { tagSet: [{ key: "team", value: "shop" }] } },
      { annotations: { [adoptionPolicy]: "adopt-or-create" } },
    ),
  ]);
  const b = await waitForCondition(e2e.kube, "adopt-create", "existing", "ACK.ResourceSynced", "True");
  assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, X);
  assert.equal(b.status?.ackResourceMetadata?.arn, `arn:aws:s3:::${name}`);
  await eventFor("adopt-create", "existing", "Adopted");
  assert.ok(!(await eventReasons("adopt-create", "existing")).includes("Created"));
  assert.equal(await createRequests(name), 1, "only the out-of-band CreateBucket");
  assert.deepEqual(await holders(name), [X]);

  const settled = await conditionAtGeneration("adopt-create", "existing", "ACK.ResourceSynced", "True");
  assert.deepEqual(tagSet(settled.spec), [{ key: "team", value: "shop" }], "the manifest's tags stay");
  assert.deepEqual(await tagsIn(X, name), { team: "shop" }, "and are applied in AWS");
  // What the manifest leaves out is late-initialised from AWS, not reset.
  assert.deepEqual(settled.spec?.["versioning"], { status: "Enabled" });
  assert.equal(await versioningIn(X, name), "Enabled");
});

// ---- read-only ----

test("read-only: an existing bucket is read (status filled, Synced), a differing spec is not applied, and deleting the resource leaves the bucket", async () => {
  const name = "ro-observed";
  await createOutOfBand(Y, name, { owner: "platform" }, "Enabled");
  await e2e.apply([
    bucket(
      "ro",
      "observed",
      { tagging: { tagSet: [{ key: "owner", value: "someone-else" }] } },
      { annotations: { [readOnly]: "true" } },
    ),
  ]);
  const b = await waitForCondition(e2e.kube, "ro", "observed", "ACK.ResourceSynced", "True");
  assert.deepEqual(
    {
      arn: b.status?.ackResourceMetadata?.arn,
      ownerAccountID: b.status?.ackResourceMetadata?.ownerAccountID,
      region: b.status?.ackResourceMetadata?.region,
    },
    { arn: `arn:aws:s3:::${name}`, ownerAccountID: Y, region },
  );
  assert.equal(condition(b, "Ready")?.status, "True");
  assert.ok(!b.metadata.finalizers?.includes(finalizer), "no finalizer on a read-only resource");
  assert.deepEqual(await tagsIn(Y, name), { owner: "platform" }, "the spec's tags were not applied");

  // A spec change, processed (Synced at the new generation), is not applied either.
  await patch(bucketPath("ro", "observed"), {
    spec: { tagging: { tagSet: [{ key: "owner", value: "third" }] }, versioning: { status: "Suspended" } },
  });
  await conditionAtGeneration("ro", "observed", "ACK.ResourceSynced", "True", 2);
  assert.deepEqual(await tagsIn(Y, name), { owner: "platform" });
  assert.equal(await versioningIn(Y, name), "Enabled");
  const reasons = await eventReasons("ro", "observed");
  assert.ok(!reasons.includes("Updated") && !reasons.includes("Created"), reasons.join(", "));

  await e2e.kube.request({ method: "DELETE", path: bucketPath("ro", "observed") });
  await waitFor(async () => (await getBucket(e2e.kube, "ro", "observed")) === undefined, {
    what: "Bucket ro/observed gone from Kubernetes",
    timeoutMs: 10_000,
  });
  assert.deepEqual(await holders(name), [Y], "the bucket is still in AWS");
  assert.equal(await createRequests(name), 1);
});

test("read-only for a bucket that does not exist: not created; the condition says it is read-only", async () => {
  const name = "ro-missing";
  await e2e.apply([bucket("ro", "missing", {}, { annotations: { [readOnly]: "true" } })]);
  const b = await waitForCondition(e2e.kube, "ro", "missing", "ACK.Recoverable", "True", "NotFound");
  const message = condition(b, "ACK.Recoverable")?.message ?? "";
  assert.match(message, /does not exist in account 222222222222/);
  assert.match(message, /read-only \(services\.k8s\.aws\/read-only\)/);
  assert.equal(condition(b, "ACK.ResourceSynced")?.status, "False");
  assert.ok(!b.metadata.finalizers?.includes(finalizer));
  assert.deepEqual(await holders(name), []);
  assert.equal(await createRequests(name), 0);
});

// ---- invalid annotation ----

test("an invalid adoption-policy value: ACK.Terminal naming the annotation and the fix, nothing in AWS; fixing it proceeds", async () => {
  const name = "typo-please";
  await e2e.apply([bucket("typo", "please", {}, { annotations: { [adoptionPolicy]: "adopt-please" } })]);
  const b = await waitForCondition(e2e.kube, "typo", "please", "ACK.Terminal", "True", "InvalidAnnotation");
  const message = condition(b, "ACK.Terminal")?.message ?? "";
  assert.match(message, /annotation services\.k8s\.aws\/adoption-policy/);
  assert.match(message, /"adopt-please"/);
  assert.match(message, /write "adopt" or "adopt-or-create"/);
  assert.equal(condition(b, "ACK.ResourceSynced")?.status, "False");
  assert.equal(condition(b, "Ready")?.status, "False");
  assert.equal(condition(b, "Ready")?.reason, "InvalidAnnotation");
  assert.ok(!b.metadata.finalizers?.includes(finalizer), "no finalizer: nothing was taken over");
  assert.equal(b.status?.ackResourceMetadata, undefined);
  assert.deepEqual(await holders(name), []);
  assert.equal(await createRequests(name), 0);

  await patch(bucketPath("typo", "please"), {
    metadata: { annotations: { [adoptionPolicy]: "adopt-or-create" } },
  });
  const fixed = await waitForCondition(e2e.kube, "typo", "please", "ACK.ResourceSynced", "True");
  assert.equal(condition(fixed, "ACK.Terminal"), undefined, "the Terminal condition is cleared");
  assert.deepEqual(await holders(name), [X]);
});
