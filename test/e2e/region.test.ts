// Region precedence and region drift end to end with the real controller process (DESIGN §3.1
// step 4): the resource's `services.k8s.aws/region` annotation > the namespace's
// `services.k8s.aws/default-region` > `--aws-region` (the fixture passes us-east-1). Each case is
// checked twice: in status.ackResourceMetadata.region and where S3 itself says the bucket is.
// A well-formed region the AWS SDK's partitions do not know is used (the emulator takes any),
// with a Warning Event and a note on the Synced condition naming the known regions' pattern.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import { bucketRegion } from "../../src/local-stack/accounts.ts";
import { patchTypes } from "../../src/runtime/kube-client.ts";
import {
  bucket,
  bucketPath,
  bucketsIn,
  condition,
  configMap,
  controllerAccount,
  type E2E,
  eventsAbout,
  region as flagRegion,
  namespace,
  startE2E,
  waitForCondition,
  waitForEvent,
} from "./fixture.ts";

const regionAnnotation = "services.k8s.aws/region";
const defaultRegion = "services.k8s.aws/default-region";
const carmAccount = "313131313131";

let e2e: E2E;
let endpoint: string;

before(async () => {
  e2e = await startE2E({ awsRecording: true });
  endpoint = e2e.stack.awsEndpoint!;
  await e2e.apply([
    namespace("ack-system"),
    configMap("ack-role-account-map", { [carmAccount]: `arn:aws:iam::${carmAccount}:role/region-team` }),
    // No region anywhere but the controller's flag.
    namespace("region-flag"),
    // A namespace default, on the controller's own account.
    namespace("region-ns", { [defaultRegion]: "eu-west-1" }),
    // A namespace default on a CARM-mapped account: the region rule does not depend on the identity.
    namespace("region-carm", {
      [defaultRegion]: "ap-northeast-1",
      "services.k8s.aws/owner-account-id": carmAccount,
    }),
    // A namespace default no AWS partition knows.
    namespace("region-fake", { [defaultRegion]: "xx-fake-9" }),
  ]);
  await e2e.startController();
});
after(() => e2e?.stop());

/** Where S3 says `name` (owned by `account`) lives, asked with that account's credentials. */
const bucketLocation = (account: string, name: string): Promise<string> =>
  bucketRegion(endpoint, account, name);

/** Mutating requests (anything but GET/HEAD) the emulator received that name bucket `name`. */
async function writesTo(name: string): Promise<string[]> {
  const path = e2e.stack.emulator?.recordingPath;
  assert.ok(path, "the emulator records requests");
  const out: string[] = [];
  for (const line of (await readFile(path, "utf8")).split("\n")) {
    if (line.trim() === "") continue;
    const r = JSON.parse(line) as { method?: string; url?: string };
    const url = new URL(r.url ?? "/", "http://emulator");
    const names = url.pathname === `/${name}` || url.pathname.startsWith(`/${name}/`);
    if (names && r.method !== "GET" && r.method !== "HEAD") out.push(`${r.method} ${url.search}`);
  }
  return out;
}

/** Waits for the bucket to sync; checks its recorded region, its account and S3's location. */
async function assertLandsIn(ns: string, name: string, account: string, expected: string): Promise<void> {
  const b = await waitForCondition(e2e.kube, ns, name, "ACK.ResourceSynced", "True");
  assert.equal(b.status?.ackResourceMetadata?.region, expected, "status.ackResourceMetadata.region");
  assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, account);
  const s3Name = `${ns}-${name}`;
  assert.ok((await bucketsIn(endpoint, account)).includes(s3Name), `${s3Name} is in account ${account}`);
  assert.equal(await bucketLocation(account, s3Name), expected, "GetBucketLocation");
}

test("--aws-region (us-east-1) applies when neither the resource nor its namespace names a region", async () => {
  await e2e.apply([bucket("region-flag", "plain")]);
  await assertLandsIn("region-flag", "plain", controllerAccount, flagRegion);
});

test("the resource annotation services.k8s.aws/region wins over --aws-region", async () => {
  await e2e.apply([
    bucket("region-flag", "annotated", {}, { annotations: { [regionAnnotation]: "eu-central-1" } }),
  ]);
  await assertLandsIn("region-flag", "annotated", controllerAccount, "eu-central-1");
});

test("the namespace's default-region wins over --aws-region", async () => {
  await e2e.apply([bucket("region-ns", "plain")]);
  await assertLandsIn("region-ns", "plain", controllerAccount, "eu-west-1");
});

test("the resource annotation wins over the namespace's default-region", async () => {
  await e2e.apply([
    bucket("region-ns", "annotated", {}, { annotations: { [regionAnnotation]: "ap-southeast-2" } }),
  ]);
  await assertLandsIn("region-ns", "annotated", controllerAccount, "ap-southeast-2");
});

test("the same precedence holds for a CARM-mapped account (namespace default, then annotation)", async () => {
  await e2e.apply([
    bucket("region-carm", "plain"),
    bucket("region-carm", "annotated", {}, { annotations: { [regionAnnotation]: "sa-east-1" } }),
  ]);
  await assertLandsIn("region-carm", "plain", carmAccount, "ap-northeast-1");
  await assertLandsIn("region-carm", "annotated", carmAccount, "sa-east-1");
});

test("changing the region annotation after sync is ACK.Terminal region drift, and nothing moves", async () => {
  const ns = "region-flag";
  const name = "moving";
  const s3Name = `${ns}-${name}`;
  await e2e.apply([bucket(ns, name, {}, { annotations: { [regionAnnotation]: "eu-central-1" } })]);
  await assertLandsIn(ns, name, controllerAccount, "eu-central-1");
  const writesBefore = await writesTo(s3Name);

  await e2e.kube.request({
    method: "PATCH",
    path: bucketPath(ns, name),
    contentType: patchTypes.merge,
    body: { metadata: { annotations: { [regionAnnotation]: "eu-west-1" } } },
  });
  const b = await waitForCondition(e2e.kube, ns, name, "ACK.Terminal", "True");
  assert.equal(
    condition(b, "ACK.Terminal")?.message,
    "Resource already exists in region eu-central-1, but the desired state specifies region eu-west-1",
  );
  assert.equal(condition(b, "ACK.ResourceSynced")?.status, "False");
  assert.equal(condition(b, "Ready")?.status, "False");
  // Nothing moved: the recorded region, S3's location and the owning account are unchanged, and
  // no write (create, delete, configuration) reached S3 for this bucket after the change.
  assert.equal(b.status?.ackResourceMetadata?.region, "eu-central-1");
  assert.equal(await bucketLocation(controllerAccount, s3Name), "eu-central-1");
  assert.ok((await bucketsIn(endpoint, controllerAccount)).includes(s3Name));
  assert.deepEqual(await writesTo(s3Name), writesBefore);
});

/** The pattern the aws partition's regions follow, as the warning names it. */
const awsPattern = String.raw`aws ^(us|eu|ap|sa|ca|me|af|il|mx)\-\w+\-\d+$`;

for (const [ns, name, annotations, expected, from] of [
  [
    "region-flag",
    "martian",
    { [regionAnnotation]: "mars-north-1" },
    "mars-north-1",
    "the resource's annotation services.k8s.aws/region",
  ],
  [
    "region-fake",
    "plain",
    {},
    "xx-fake-9",
    "namespace region-fake's annotation services.k8s.aws/default-region",
  ],
] as const) {
  test(`a region no AWS partition knows (${expected}, from ${from}) is used, with a Warning Event and a Synced note naming the known pattern`, async () => {
    await e2e.apply([bucket(ns, name, {}, { annotations })]);
    // Not blocked: it reconciles, and the emulator holds the bucket there.
    await assertLandsIn(ns, name, controllerAccount, expected);
    const warning = `Region ${expected} (${from}) is not known to any AWS partition: known regions follow ${awsPattern}`;
    const b = await waitForCondition(e2e.kube, ns, name, "ACK.ResourceSynced", "True");
    for (const type of ["ACK.ResourceSynced", "Ready"]) {
      const message = condition(b, type)?.message ?? "";
      assert.ok(message.startsWith(`Resource synced with AWS. Warning: ${warning}`), `${type}: ${message}`);
    }
    const event = await waitForEvent(e2e.kube, ns, "Bucket", name, "UnknownRegion");
    assert.ok(event.message.startsWith(warning), event.message);
    assert.equal(event.type, "Warning");
    // Once per decision change, not once per reconcile.
    const unknown = (await eventsAbout(e2e.kube, ns, "Bucket", name)).filter(
      (e) => e.reason === "UnknownRegion",
    );
    assert.equal(unknown.length, 1);
    assert.equal(unknown[0]?.count ?? 1, 1);
  });
}

test("a region AWS lists gets no UnknownRegion warning", async () => {
  await assertLandsIn("region-ns", "plain", controllerAccount, "eu-west-1");
  const b = await waitForCondition(e2e.kube, "region-ns", "plain", "ACK.ResourceSynced", "True");
  assert.equal(condition(b, "ACK.ResourceSynced")?.message, "Resource synced with AWS");
  const reasons = (await eventsAbout(e2e.kube, "region-ns", "Bucket", "plain")).map((e) => e.reason);
  assert.ok(!reasons.includes("UnknownRegion"), reasons.join(","));
});
