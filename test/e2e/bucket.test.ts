// Buckets end to end with the real controller process and ACK's own e2e manifests
// (aws-controllers-k8s/s3-controller v1.10.0, test/e2e/resources/bucket_{cors,lifecycle,
// website,accelerate}.yaml, copied here unchanged but for $BUCKET_NAME): each applies under
// strict field validation, is Synced, and S3 holds what it says. A configuration removed from the
// spec is removed in S3, one added out of band is removed at the resync, and one S3 refuses is
// ACK.Terminal naming the field and S3's reason.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  GetBucketAccelerateConfigurationCommand,
  GetBucketCorsCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketWebsiteCommand,
  PutBucketWebsiteCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { parseAllDocuments } from "yaml";
import { s3As as harnessS3As } from "../../src/local-stack/accounts.ts";
import { applyServerSide } from "../../src/local-stack/manifests.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import {
  condition,
  configMap,
  type E2E,
  namespace,
  patchResource,
  startE2E,
  waitForResourceCondition,
} from "./fixture.ts";

const X = "111111111111";
const ns = "s3-ack";
const resyncSeconds = 3;

/** ACK's manifests at v1.10.0, as its e2e tests apply them. */
const ackManifests: Readonly<Record<string, string>> = {
  cors: `apiVersion: s3.services.k8s.aws/v1alpha1
kind: Bucket
metadata:
  name: $BUCKET_NAME
spec:
  name: $BUCKET_NAME
  cors:
    corsRules:
    - allowedMethods:
      - GET
      - PUT
      allowedOrigins:
      - localhost`,
  lifecycle: `apiVersion: s3.services.k8s.aws/v1alpha1
kind: Bucket
metadata:
  name: $BUCKET_NAME
spec:
  name: $BUCKET_NAME
  lifecycle:
    rules:
    - id: "Move to Glacier after sixty days"
      prefix: "/logs/"
      status: "Enabled"
      transitions:
      - days: 60
        storageClass: "GLACIER"`,
  website: `apiVersion: s3.services.k8s.aws/v1alpha1
kind: Bucket
metadata:
  name: $BUCKET_NAME
spec:
  name: $BUCKET_NAME
  website:
    indexDocument:
      suffix: index.html
    errorDocument:
      key: error.html
`,
  accelerate: `apiVersion: s3.services.k8s.aws/v1alpha1
kind: Bucket
metadata:
  name: $BUCKET_NAME
spec:
  name: $BUCKET_NAME
  accelerate:
    status: Enabled`,
};

let e2e: E2E;
let endpoint: string;

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  await e2e.apply([
    namespace("ack-system"),
    namespace(ns, { "services.k8s.aws/owner-account-id": X }),
    configMap("ack-role-account-map", { [X]: `arn:aws:iam::${X}:role/s3-ack` }),
  ]);
  await e2e.startController([`--reconcile-resource-resync-seconds=Bucket=${resyncSeconds}`]);
});
after(() => e2e?.stop());

const s3As = (account: string): Promise<S3Client> => harnessS3As(endpoint, account);

const bucketName = (label: string) => `crossrole-ack-${label}-${process.pid}`;

/** ACK's manifest for `label`, named as its e2e test names it, applied as kubectl apply --server-side would. */
async function applyAck(label: string): Promise<string> {
  const name = bucketName(label);
  const text = (ackManifests[label] ?? "").replaceAll("$BUCKET_NAME", name);
  const objects = parseAllDocuments(text).map((d) => d.toJS() as KubeObject);
  await applyServerSide(
    e2e.kube,
    objects.map((o) => ({ ...o, metadata: { ...o.metadata, namespace: ns } })),
    "kubectl",
  );
  return name;
}

const synced = (name: string) =>
  waitForResourceCondition(e2e.kube, "Bucket", ns, name, "ACK.ResourceSynced", "True");

const gone = async (read: () => Promise<unknown>): Promise<boolean> => {
  try {
    await read();
    return false;
  } catch {
    return true;
  }
};

test("ACK's cors, lifecycle, website and accelerate manifests apply unchanged and reach S3", async () => {
  const names: Record<string, string> = Object.fromEntries(
    await Promise.all(Object.keys(ackManifests).map(async (l) => [l, await applyAck(l)])),
  );
  for (const name of Object.values(names)) await synced(name);
  const s3 = await s3As(X);
  const cors = await s3.send(new GetBucketCorsCommand({ Bucket: names["cors"] }));
  assert.deepEqual(cors.CORSRules?.[0]?.AllowedMethods, ["GET", "PUT"]);
  const lifecycle = await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: names["lifecycle"] }));
  assert.equal(lifecycle.Rules?.[0]?.ID, "Move to Glacier after sixty days");
  assert.equal(lifecycle.Rules?.[0]?.Transitions?.[0]?.StorageClass, "GLACIER");
  const website = await s3.send(new GetBucketWebsiteCommand({ Bucket: names["website"] }));
  assert.equal(website.IndexDocument?.Suffix, "index.html");
  assert.equal(website.ErrorDocument?.Key, "error.html");
  const accelerate = await s3.send(
    new GetBucketAccelerateConfigurationCommand({ Bucket: names["accelerate"] }),
  );
  assert.equal(accelerate.Status, "Enabled");
});

test("cors removed from the spec is removed in S3; a website added out of band is removed at the resync", async () => {
  const name = bucketName("cors");
  await synced(name);
  const s3 = await s3As(X);
  await patchResource(e2e.kube, "Bucket", ns, name, { spec: { cors: null } });
  await waitFor(async () => gone(() => s3.send(new GetBucketCorsCommand({ Bucket: name }))), {
    what: "CORS removed from the bucket",
    timeoutMs: 20_000,
  });
  await s3.send(
    new PutBucketWebsiteCommand({
      Bucket: name,
      WebsiteConfiguration: { IndexDocument: { Suffix: "x.html" } },
    }),
  );
  await waitFor(async () => gone(() => s3.send(new GetBucketWebsiteCommand({ Bucket: name }))), {
    what: "the out-of-band website removed",
    timeoutMs: resyncSeconds * 1000 + 20_000,
  });
});

test("a CORS rule S3 refuses is ACK.Terminal naming spec.cors and S3's reason", async () => {
  const name = bucketName("cors");
  await patchResource(e2e.kube, "Bucket", ns, name, {
    spec: { cors: { corsRules: [{ allowedMethods: ["FETCH"], allowedOrigins: ["*"] }] } },
  });
  const b = await waitForResourceCondition(e2e.kube, "Bucket", ns, name, "ACK.Terminal", "True");
  const message = condition(b, "ACK.Terminal")?.message ?? "";
  assert.match(message, /spec\.cors/);
  assert.match(message, /FETCH|unsupported HTTP method/i);
});
