// What a new bucket costs in AWS, call by call, with the real controller process, counted at a
// proxy in front of the emulator (never by the code under test). After CreateBucket the
// reconciler reads only what S3 decides (tags, and the defaults it late-initialises), never
// what the create itself fixed (region, no versioning, no policy), and never reads back what it
// wrote: on real S3, which keeps CreateBucket's tags, a bare bucket is 6 calls; the emulator
// ignores them, so its bucket also needs the claim (PutBucketTagging). The tags it reads still
// decide whose the bucket is: in us-east-1 S3 answers 200 for a bucket of the account's that
// another writer made between the read and the create, and that one is never taken.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  CreateBucketCommand,
  PutBucketEncryptionCommand,
  PutBucketOwnershipControlsCommand,
  PutBucketTaggingCommand,
  PutPublicAccessBlockCommand,
} from "@aws-sdk/client-s3";
import { bucketTagsIn, s3As } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import { type AwsProxy, s3Bucket, s3Operation, startAwsProxy } from "../support/aws-proxy.ts";
import {
  bucket,
  condition,
  configMap,
  type E2E,
  getBucket,
  namespace,
  patchResource,
  startE2E,
  waitForCondition,
} from "./fixture.ts";

const X = "111111111111";
const ns = "calls";

let e2e: E2E;
let endpoint: string;
let proxy: AwsProxy;

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  proxy = await startAwsProxy(endpoint);
  await e2e.apply([
    namespace("ack-system"),
    namespace(ns, { "services.k8s.aws/owner-account-id": X }),
    configMap("ack-role-account-map", { [X]: `arn:aws:iam::${X}:role/calls` }),
  ]);
  await e2e.startController([], { awsEndpoint: proxy.endpoint });
});
after(async () => {
  await e2e?.stop();
  await proxy?.close();
});

/** The S3 operations the controller sent for bucket `name`, sorted (reads run in parallel). */
const callsFor = (name: string): string[] =>
  proxy.requests
    .filter((r) => s3Bucket(r) === name)
    .map((r) => s3Operation(r) ?? `${r.method} ${r.path}`)
    .sort();

/** What every new bucket costs before anything its spec sets. */
const createCalls = [
  "HeadBucket", // is the name free? (in us-east-1 a create answers 200 for one of ours, resetting its ACLs)
  "CreateBucket", // with the user's and the ownership tags
  "GetBucketTagging", // whose is it now? (the 200 may be for a bucket another writer just made)
  "GetBucketEncryption", // S3's defaults, late-initialised (none on the emulator)
  "GetPublicAccessBlock",
  "GetBucketOwnershipControls",
];

test("a bare new bucket: the create, what S3 decided, and the claim the emulator's ignored create tags need", async () => {
  await e2e.apply([bucket(ns, "bare")]);
  const b = await waitForCondition(e2e.kube, ns, "bare", "ACK.ResourceSynced", "True");
  assert.deepEqual(callsFor(`${ns}-bare`), [...createCalls, "PutBucketTagging"].sort());
  const tags = await bucketTagsIn(endpoint, X, `${ns}-bare`);
  assert.equal(tags.ownership["services.k8s.aws/owner-uid"], b.metadata.uid);
  assert.deepEqual(tags.user, {});
  assert.equal(b.status?.["intent"], undefined, "the intent is cleared once Synced");

  // Any later reconcile reads the whole bucket: drift is still seen and corrected.
  const s3 = await s3As(endpoint, X);
  await s3.send(
    new PutBucketTaggingCommand({
      Bucket: `${ns}-bare`,
      Tagging: {
        TagSet: [
          ...Object.entries(tags.ownership).map(([Key, Value]) => ({ Key, Value })),
          { Key: "added", Value: "out-of-band" },
        ],
      },
    }),
  );
  proxy.clearRecording();
  await patchResource(e2e.kube, "Bucket", ns, "bare", { metadata: { annotations: { poke: "1" } } });
  await waitFor(async () => (await bucketTagsIn(endpoint, X, `${ns}-bare`)).user["added"] === undefined, {
    what: "the out-of-band tag removed",
    timeoutMs: 20_000,
  });
  assert.deepEqual(
    callsFor(`${ns}-bare`),
    [
      // Every sub-resource: with none meaning removal (as in ACK), only a read shows one
      // removed from the spec or added out of band.
      "GetBucketAbac",
      "GetBucketAccelerateConfiguration",
      "GetBucketAcl",
      "GetBucketCors",
      "GetBucketEncryption",
      "GetBucketLifecycleConfiguration",
      "GetBucketLogging",
      "GetBucketNotificationConfiguration",
      "GetBucketOwnershipControls",
      "GetBucketPolicy",
      "GetBucketReplication",
      "GetBucketRequestPayment",
      "GetBucketTagging",
      "GetBucketVersioning",
      "GetBucketWebsite",
      "GetObjectLockConfiguration",
      "GetPublicAccessBlock",
      "HeadBucket",
      "ListBucketAnalyticsConfigurations",
      "ListBucketIntelligentTieringConfigurations",
      "ListBucketInventoryConfigurations",
      "ListBucketMetricsConfigurations",
      "PutBucketTagging",
    ],
    "a full read, then the tag drift corrected",
  );
});

test("where S3 keeps CreateBucket's tags and sets its defaults (real S3): 6 calls, no write, the defaults late-initialised", async () => {
  const later = "calls-later";
  const name = `${later}-kept`;
  // An account the map does not name: the resource waits, and nothing is called in AWS.
  await e2e.apply([namespace(later, { "services.k8s.aws/owner-account-id": "333333333333" })]);
  await e2e.apply([bucket(later, "kept", { tagging: { tagSet: [{ key: "team", value: "x" }] } })]);
  const waiting = await waitForCondition(e2e.kube, later, "kept", "ACK.Recoverable", "True");
  assert.deepEqual(callsFor(name), []);
  // What real S3 holds once our CreateBucket ran: the bucket, with the tags the call carried and
  // S3's defaults for every new bucket. (The emulator has neither; the proxy answers our
  // HeadBucket as S3 did before the create.)
  const s3 = await s3As(endpoint, X);
  await s3.send(new CreateBucketCommand({ Bucket: name }));
  const ours = {
    "services.k8s.aws/namespace": later,
    "services.k8s.aws/owner": `Bucket/${later}/kept`,
    "services.k8s.aws/owner-uid": waiting.metadata.uid ?? "",
  };
  await s3.send(
    new PutBucketTaggingCommand({
      Bucket: name,
      Tagging: {
        TagSet: Object.entries({ ...ours, team: "x" }).map(([Key, Value]) => ({ Key, Value })),
      },
    }),
  );
  await s3.send(
    new PutBucketEncryptionCommand({
      Bucket: name,
      ServerSideEncryptionConfiguration: {
        Rules: [{ ApplyServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" }, BucketKeyEnabled: false }],
      },
    }),
  );
  await s3.send(
    new PutBucketOwnershipControlsCommand({
      Bucket: name,
      OwnershipControls: { Rules: [{ ObjectOwnership: "BucketOwnerEnforced" }] },
    }),
  );
  await s3.send(
    new PutPublicAccessBlockCommand({
      Bucket: name,
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
    }),
  );
  proxy.addFault({
    name: "not created yet",
    match: (r) => s3Operation(r) === "HeadBucket" && s3Bucket(r) === name,
    respond: { status: 404, code: "NotFound", message: "injected: not created yet" },
    times: 1,
  });
  await e2e.apply([namespace(later, { "services.k8s.aws/owner-account-id": X })]);
  const b = await waitForCondition(e2e.kube, later, "kept", "ACK.ResourceSynced", "True");
  assert.deepEqual(
    callsFor(name),
    [...createCalls].sort(),
    "the create, its tags read: ours, nothing to write",
  );
  assert.deepEqual(await bucketTagsIn(endpoint, X, name), { user: { team: "x" }, ownership: ours });
  assert.equal(b.metadata.uid, waiting.metadata.uid);
  assert.deepEqual(
    {
      encryption: b.spec?.["encryption"],
      ownershipControls: b.spec?.["ownershipControls"],
      publicAccessBlock: b.spec?.["publicAccessBlock"],
      versioning: b.spec?.["versioning"],
    },
    {
      encryption: {
        rules: [{ applyServerSideEncryptionByDefault: { sseAlgorithm: "AES256" }, bucketKeyEnabled: false }],
      },
      ownershipControls: { rules: [{ objectOwnership: "BucketOwnerEnforced" }] },
      publicAccessBlock: {
        blockPublicACLs: true,
        blockPublicPolicy: true,
        ignorePublicACLs: true,
        restrictPublicBuckets: true,
      },
      versioning: undefined,
    },
    "S3's defaults copied into the spec; a new bucket's versioning is not S3's to decide",
  );
});

test("a new bucket with settings: each written once after the create, nothing read back", async () => {
  const name = `${ns}-configured`;
  const policy = JSON.stringify({
    Version: "2012-10-17",
    Statement: [
      {
        Effect: "Allow",
        Principal: { AWS: `arn:aws:iam::${X}:root` },
        Action: "s3:GetObject",
        Resource: `arn:aws:s3:::${name}/*`,
      },
    ],
  });
  await e2e.apply([
    bucket(ns, "configured", {
      tagging: { tagSet: [{ key: "team", value: "x" }] },
      versioning: { status: "Enabled" },
      policy,
    }),
  ]);
  const b = await waitForCondition(e2e.kube, ns, "configured", "ACK.ResourceSynced", "True");
  assert.deepEqual(
    callsFor(name),
    [
      ...createCalls,
      // The claim (ownership tags: the emulator kept none of the create's), then the user's tags.
      "PutBucketTagging",
      "PutBucketTagging",
      "PutBucketVersioning",
      "PutBucketPolicy",
    ].sort(),
  );
  const tags = await bucketTagsIn(endpoint, X, name);
  assert.equal(tags.ownership["services.k8s.aws/owner-uid"], b.metadata.uid);
  assert.deepEqual(tags.user, { team: "x" });
  assert.equal(condition(b, "ACK.ResourceSynced")?.observedGeneration, b.metadata.generation);
});

test("CreateBucket's 200 for a bucket another object tagged a moment before (us-east-1): NameTaken, nothing written", async () => {
  const name = `${ns}-raced`;
  // Another crossrole (another cluster, the same account) made and tagged it between our
  // HeadBucket and our CreateBucket: the proxy answers our HeadBucket as S3 did before that.
  const s3 = await s3As(endpoint, X);
  await s3.send(new CreateBucketCommand({ Bucket: name }));
  const theirs = {
    "services.k8s.aws/owner": "Bucket/elsewhere/raced",
    "services.k8s.aws/owner-uid": "uid-of-the-other-cluster",
  };
  await s3.send(
    new PutBucketTaggingCommand({
      Bucket: name,
      Tagging: { TagSet: Object.entries(theirs).map(([Key, Value]) => ({ Key, Value })) },
    }),
  );
  proxy.addFault({
    name: "not there yet",
    match: (r) => s3Operation(r) === "HeadBucket" && s3Bucket(r) === name,
    respond: { status: 404, code: "NotFound", message: "injected: not created yet" },
    times: 1,
  });
  await e2e.apply([bucket(ns, "raced")]);
  const b = await waitForCondition(e2e.kube, ns, "raced", "ACK.Terminal", "True", "NameTaken");
  assert.match(condition(b, "ACK.Terminal")?.message ?? "", /owned by Bucket\/elsewhere\/raced/);
  assert.deepEqual(callsFor(name), [...createCalls].sort(), "only reads after the create");
  assert.deepEqual((await bucketTagsIn(endpoint, X, name)).ownership, theirs, "their tags are untouched");
  assert.ok(await getBucket(e2e.kube, ns, "raced"));
});
