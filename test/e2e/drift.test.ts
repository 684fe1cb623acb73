// Drift with the real controller process:
//   - spec drift: what someone changes out-of-band in AWS (with that account's own credentials)
//     is brought back by the periodic resync (Buckets' own, --reconcile-resource-resync-seconds);
//     a bucket deleted out of band is recreated with a Warning Event; a spec change is applied;
//     fields the spec leaves out are late-initialised from AWS;
//   - account drift: a bucket recorded in account X whose decision moves to account Y is
//     ACK.Terminal with ACK's message and nothing is called in Y (--account-drift-policy=block);
//     with --account-drift-policy=recreate the controller follows the new role.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  DeleteBucketCommand,
  GetBucketTaggingCommand,
  GetBucketVersioningCommand,
  PutBucketTaggingCommand,
  PutBucketVersioningCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { withoutReservedTags } from "../../src/api/reserved-tag-keys.ts";
import { bucketTagsIn, s3As as harnessS3As } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import { patchTypes } from "../../src/runtime/kube-client.ts";
import {
  bucket,
  bucketPath,
  bucketsIn,
  type ControllerProcess,
  condition,
  configMap,
  controllerAccount,
  type E2E,
  getBucket,
  namespace,
  startE2E,
  waitForCondition,
  waitForEvent,
} from "./fixture.ts";

const X = "111111111111";
const Y = "222222222222";
/** Buckets' resync: short enough that it corrects out-of-band drift within a test's patience. */
const resyncSeconds = 3;

let e2e: E2E;
let controller: ControllerProcess;
let endpoint: string;

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  await e2e.apply([
    namespace("ack-system"),
    namespace("drift-spec", { "services.k8s.aws/owner-account-id": X }),
    namespace("drift-acct", { "services.k8s.aws/owner-account-id": X }),
    configMap("ack-role-account-map", {
      [X]: `arn:aws:iam::${X}:role/drift-x`,
      [Y]: `arn:aws:iam::${Y}:role/drift-y`,
    }),
  ]);
  // The per-kind flag (ACK's), with the default left at 10 h: Buckets resync on their own period.
  controller = await e2e.startController([`--reconcile-resource-resync-seconds=Bucket=${resyncSeconds}`]);
});
after(() => e2e?.stop());

/** An S3 client acting as account `account` itself (what an out-of-band change would use). */
const s3As = (account: string): Promise<S3Client> => harnessS3As(endpoint, account);

/** The user's tags on the bucket; crossrole's ownership tags never count as drift (DESIGN §3.5). */
async function tagsOf(s3: S3Client, name: string): Promise<Record<string, string>> {
  try {
    const out = await s3.send(new GetBucketTaggingCommand({ Bucket: name }));
    return withoutReservedTags(
      Object.fromEntries((out.TagSet ?? []).map((t) => [t.Key ?? "", t.Value ?? ""])),
    );
  } catch (err) {
    if ((err as { name?: string }).name === "NoSuchTagSet") return {};
    throw err;
  }
}

async function versioningOf(s3: S3Client, name: string): Promise<string | undefined> {
  return (await s3.send(new GetBucketVersioningCommand({ Bucket: name }))).Status;
}

async function patch(path: string, body: unknown): Promise<void> {
  await e2e.kube.request({ method: "PATCH", path, contentType: patchTypes.merge, body });
}

const eventFor = (ns: string, name: string, reason: string, pattern?: RegExp) =>
  waitForEvent(e2e.kube, ns, "Bucket", name, reason, pattern);

const within = resyncSeconds * 1000 * 3 + 5_000;

test("out-of-band tag and versioning changes in AWS are brought back by the resync, without touching the resource", async () => {
  await e2e.apply([
    bucket("drift-spec", "guarded", {
      tagging: { tagSet: [{ key: "team", value: "shop" }] },
      versioning: { status: "Enabled" },
    }),
  ]);
  const b = await waitForCondition(e2e.kube, "drift-spec", "guarded", "ACK.ResourceSynced", "True");
  const s3 = await s3As(X);
  const name = "drift-spec-guarded";
  assert.deepEqual(await tagsOf(s3, name), { team: "shop" });
  assert.equal(await versioningOf(s3, name), "Enabled");

  // The intruder changes the user's tags but keeps crossrole's ownership tags (a tool that wipes
  // those too makes the bucket untagged: ownership.test.ts shows that is refused, not retaken).
  const ownership = (await bucketTagsIn(endpoint, X, name)).ownership;
  assert.equal(ownership["services.k8s.aws/owner-uid"], b.metadata.uid);
  await s3.send(
    new PutBucketTaggingCommand({
      Bucket: name,
      Tagging: {
        TagSet: [
          { Key: "team", Value: "intruder" },
          { Key: "extra", Value: "x" },
          ...Object.entries(ownership).map(([Key, Value]) => ({ Key, Value })),
        ],
      },
    }),
  );
  await s3.send(
    new PutBucketVersioningCommand({ Bucket: name, VersioningConfiguration: { Status: "Suspended" } }),
  );

  await waitFor(
    async () =>
      JSON.stringify(await tagsOf(s3, name)) === JSON.stringify({ team: "shop" }) &&
      (await versioningOf(s3, name)) === "Enabled",
    { what: `${name}'s tags and versioning back to the spec`, timeoutMs: within },
  );
  const updated = await eventFor("drift-spec", "guarded", "Updated", /back to the desired state/);
  assert.match(updated.message, /spec\.tagging/);
  assert.match(updated.message, /spec\.versioning/);
  const after = await getBucket(e2e.kube, "drift-spec", "guarded");
  assert.equal(after?.metadata.generation, b.metadata.generation, "the resource itself was not changed");
  assert.equal(condition(after, "ACK.ResourceSynced")?.status, "True");
});

test("a bucket deleted out of band is noticed at the next resync and recreated, with a Warning Event", async () => {
  await e2e.apply([
    bucket("drift-spec", "vanishing", { tagging: { tagSet: [{ key: "team", value: "shop" }] } }),
  ]);
  const b = await waitForCondition(e2e.kube, "drift-spec", "vanishing", "ACK.ResourceSynced", "True");
  const name = "drift-spec-vanishing";
  const s3 = await s3As(X);
  await s3.send(new DeleteBucketCommand({ Bucket: name }));
  assert.ok(!(await bucketsIn(endpoint, X)).includes(name));

  const recreated = await eventFor("drift-spec", "vanishing", "Recreated", /deleted outside crossrole/);
  assert.equal(recreated.type, "Warning");
  assert.match(recreated.message, new RegExp(`arn:aws:s3:::${name} was not found in account ${X}`));
  await waitFor(async () => (await bucketsIn(endpoint, X)).includes(name), {
    what: `${name} recreated in ${X}`,
    timeoutMs: within,
  });
  const tags = await bucketTagsIn(endpoint, X, name);
  assert.deepEqual(tags.user, { team: "shop" });
  assert.equal(tags.ownership["services.k8s.aws/owner-uid"], b.metadata.uid);
  await waitForCondition(e2e.kube, "drift-spec", "vanishing", "ACK.ResourceSynced", "True");
});

test("a spec change (tags added) is applied in AWS and the resource is Synced at its new generation", async () => {
  await e2e.apply([bucket("drift-spec", "retagged", { tagging: { tagSet: [{ key: "a", value: "1" }] } })]);
  const b = await waitForCondition(e2e.kube, "drift-spec", "retagged", "ACK.ResourceSynced", "True");
  await patch(bucketPath("drift-spec", "retagged"), {
    spec: {
      tagging: {
        tagSet: [
          { key: "a", value: "1" },
          { key: "b", value: "2" },
          { key: "cost-center", value: "42" },
        ],
      },
    },
  });
  const s3 = await s3As(X);
  await waitFor(
    async () =>
      JSON.stringify(await tagsOf(s3, "drift-spec-retagged")) ===
      JSON.stringify({ a: "1", b: "2", "cost-center": "42" }),
    { what: "the added tags in AWS", timeoutMs: 10_000 },
  );
  const synced = await waitFor(
    async () => {
      const r = await getBucket(e2e.kube, "drift-spec", "retagged");
      const c = condition(r, "ACK.ResourceSynced") as
        | { status: string; observedGeneration?: number }
        | undefined;
      return c?.status === "True" && c.observedGeneration === r?.metadata.generation ? r : undefined;
    },
    { what: "Synced at the new generation", timeoutMs: 10_000 },
  );
  assert.ok((synced.metadata.generation ?? 0) > (b.metadata.generation ?? 0));
});

test("a field the spec leaves out is late-initialised from AWS (versioning enabled out-of-band appears in spec)", async () => {
  await e2e.apply([bucket("drift-spec", "late")]);
  const b = await waitForCondition(e2e.kube, "drift-spec", "late", "ACK.ResourceSynced", "True");
  assert.equal(b.spec?.["versioning"], undefined, "moto gives a new bucket no versioning to copy");
  const s3 = await s3As(X);
  await s3.send(
    new PutBucketVersioningCommand({
      Bucket: "drift-spec-late",
      VersioningConfiguration: { Status: "Enabled" },
    }),
  );
  const late = await waitFor(
    async () => {
      const r = await getBucket(e2e.kube, "drift-spec", "late");
      return (r?.spec?.["versioning"] as { status?: string } | undefined)?.status === "Enabled"
        ? r
        : undefined;
    },
    { what: "spec.versioning late-initialised to Enabled", timeoutMs: within },
  );
  assert.equal(late.spec?.["name"], "drift-spec-late");
  assert.equal(
    await versioningOf(s3, "drift-spec-late"),
    "Enabled",
    "late initialisation changed nothing in AWS",
  );
  await waitFor(
    async () => {
      const r = await getBucket(e2e.kube, "drift-spec", "late");
      const c = condition(r, "ACK.ResourceSynced") as
        | { status: string; observedGeneration?: number }
        | undefined;
      return c?.status === "True" && c.observedGeneration === r?.metadata.generation;
    },
    { what: "Synced at the late-initialised generation", timeoutMs: 10_000 },
  );
});

test("account drift is blocked: the namespace moves to account Y, the bucket recorded in X goes ACK.Terminal and nothing happens in Y", async () => {
  await e2e.apply([bucket("drift-acct", "stays"), bucket("drift-acct", "vanished")]);
  for (const name of ["stays", "vanished"]) {
    const b = await waitForCondition(e2e.kube, "drift-acct", name, "ACK.ResourceSynced", "True");
    assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, X);
  }
  await patch("/api/v1/namespaces/drift-acct", {
    metadata: { annotations: { "services.k8s.aws/owner-account-id": Y } },
  });

  const expected = `Resource already exists in account ${X}, but the role used for reconciliation is in account ${Y}`;
  for (const name of ["stays", "vanished"]) {
    const b = await waitForCondition(e2e.kube, "drift-acct", name, "ACK.Terminal", "True");
    assert.equal(condition(b, "ACK.Terminal")?.message, expected, name);
    assert.equal(condition(b, "ACK.ResourceSynced")?.status, "False", name);
    assert.equal(condition(b, "Ready")?.status, "False", name);
    assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, X, `${name} still recorded in X`);
    await eventFor("drift-acct", name, "AccountDrift");
  }

  // Someone removes one bucket in X by hand, and its spec changes: a controller that followed
  // the new role would now be free to create it in Y. Under the block policy it must not.
  await (await s3As(X)).send(new DeleteBucketCommand({ Bucket: "drift-acct-vanished" }));
  await patch(bucketPath("drift-acct", "vanished"), {
    spec: { tagging: { tagSet: [{ key: "poke", value: "1" }] } },
  });
  await waitFor(
    async () => {
      const r = await getBucket(e2e.kube, "drift-acct", "vanished");
      const c = condition(r, "ACK.Terminal") as { status: string; observedGeneration?: number } | undefined;
      return (
        c?.status === "True" &&
        c.observedGeneration === r?.metadata.generation &&
        (c.observedGeneration ?? 0) > 1
      );
    },
    { what: "the spec change processed (still Terminal at the new generation)", timeoutMs: 10_000 },
  );
  const inY = await bucketsIn(endpoint, Y);
  assert.ok(
    !inY.includes("drift-acct-stays") && !inY.includes("drift-acct-vanished"),
    "nothing created in Y",
  );
  const inX = await bucketsIn(endpoint, X);
  assert.ok(inX.includes("drift-acct-stays"), "the bucket in X is left alone");
  assert.ok(!inX.includes("drift-acct-vanished"));
  assert.ok(!(await bucketsIn(endpoint, controllerAccount)).some((n) => n.startsWith("drift-acct-")));
});

test("--account-drift-policy=recreate follows the new role: the bucket is created in Y and the old ARN is recorded in an Event", async () => {
  await controller.stop("SIGTERM");
  controller = await e2e.startController(
    ["--account-drift-policy=recreate", `--reconcile-default-resync-seconds=${resyncSeconds}`],
    { name: "controller-recreate" },
  );
  // The one whose name is free (deleted in X by hand) is created in Y under Y's role.
  const moved = await waitForCondition(e2e.kube, "drift-acct", "vanished", "ACK.ResourceSynced", "True");
  assert.equal(moved.status?.ackResourceMetadata?.ownerAccountID, Y);
  assert.equal(
    (moved.status?.ackResourceMetadata?.identity as { roleARN?: string } | undefined)?.roleARN,
    `arn:aws:iam::${Y}:role/drift-y`,
  );
  assert.equal(condition(moved, "ACK.Terminal"), undefined, "the Terminal condition is cleared");
  assert.ok((await bucketsIn(endpoint, Y)).includes("drift-acct-vanished"));
  const event = await eventFor("drift-acct", "vanished", "AccountDrift", /arn:aws:s3:::drift-acct-vanished/);
  assert.match(event.message, new RegExp(`${X}.*${Y}`));

  // The other one's name is still held by the old bucket in X (S3 names are global): it cannot
  // follow: the name is another account's, so it is NameTaken (retrying cannot help while the
  // old bucket exists); the old bucket is left alone.
  const stuck = await waitForCondition(e2e.kube, "drift-acct", "stays", "ACK.Terminal", "True", "NameTaken");
  assert.match(
    condition(stuck, "ACK.Terminal")?.message ?? "",
    new RegExp(`cannot be used from account ${Y}: .*owned by another AWS account`),
  );
  await eventFor("drift-acct", "stays", "AccountDrift", /arn:aws:s3:::drift-acct-stays/);
  assert.ok((await bucketsIn(endpoint, X)).includes("drift-acct-stays"));
  assert.ok(!(await bucketsIn(endpoint, Y)).includes("drift-acct-stays"));
});
