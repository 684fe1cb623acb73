// The Bucket's configuration field groups against the emulator (moto in server mode), one
// group at a time: sent on create (by the update right after it, as the reconciler does), read
// back without a difference, drift corrected, and removal from the spec removing it in S3.
// moto implements neither ABAC, request payment, nor the analytics, metrics and
// Intelligent-Tiering calls (its GETs answer an empty object listing; a DELETE of them deletes
// the bucket itself): those are checked on the wire through the recording proxy, answered by the
// proxy, and their SDK input by src/services/s3/configuration-groups.test.ts.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  GetBucketAclCommand,
  GetBucketCorsCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketWebsiteCommand,
  PutBucketCorsCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import type { AwsCredentialIdentity } from "@smithy/types";
import { type Emulator, startEmulator } from "../../src/local-stack/stack.ts";
import { type BucketFields, bucketSpecSchema } from "../../src/services/s3/schema.ts";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";
import {
  afterApplying,
  type BucketError,
  createBucket,
  deleteBucket,
  diff,
  isBucketError,
  type ObservedBucket,
  readBucket,
  readCreatedBucket,
  updateBucket,
} from "../support/bucket-shims.ts";
import { buckets } from "../support/s3-buckets.ts";

const credentials: AwsCredentialIdentity = { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "x" };
const region = "us-east-1";

let dir: string;
let emulator: Emulator;
let proxy: AwsProxy;
let s3: S3Client;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "crossrole-s3-groups-"));
  emulator = await startEmulator({ dir, recording: false });
  proxy = await startAwsProxy(emulator.endpoint);
  s3 = new S3Client({ region, endpoint: proxy.endpoint, forcePathStyle: true, credentials });
});

after(async () => {
  s3?.destroy();
  await proxy?.close();
  await emulator?.stop();
  await rm(dir, { recursive: true, force: true });
});

let counter = 0;
const uniqueName = (label: string) => `crossrole-${label}-${process.pid}-${++counter}`;

const spec = (name: string, fields: Record<string, unknown>): BucketFields =>
  bucketSpecSchema.parse({ name, ...fields }) as BucketFields;

async function mustRead(name: string): Promise<ObservedBucket> {
  const r = await readBucket(buckets(s3), { name });
  assert.ok(r.found, `bucket ${name} not found`);
  return r.bucket;
}

/** What the reconciler does for a new bucket: create, read what S3 decided, update to the spec. */
async function createToSpec(desired: BucketFields): Promise<void> {
  assert.equal((await createBucket(buckets(s3), desired, region)).created, true);
  const created = await readCreatedBucket(buckets(s3), desired, region);
  assert.ok(created.found);
  await updateBucket(buckets(s3), desired, created.bucket);
}

/** The bucket's requests whose query names the sub-resource `sub` (path-style requests). */
function requestsFor(name: string, sub: string) {
  return proxy.requests.filter((r) => {
    const [path = "", query = ""] = r.path.split("?");
    return path.replace(/\/$/, "") === `/${name}` && new URLSearchParams(query).has(sub);
  });
}

/** The bucket's CreateBucket request. */
const createRequest = (name: string) =>
  proxy.requests.find((r) => r.method === "PUT" && r.path.replace(/\/$/, "") === `/${name}`);

/**
 * Create with the group, read back equal; change it out of band or in the spec and correct it;
 * remove it from the spec and see S3 has none.
 */
async function roundTrip(
  label: string,
  fields: Record<string, unknown>,
  changed: Record<string, unknown>,
): Promise<{ name: string; observed: ObservedBucket }> {
  const name = uniqueName(label);
  const desired = spec(name, fields);
  await createToSpec(desired);
  const observed = await mustRead(name);
  assert.deepEqual(diff(desired, observed), [], `${label}: read back equal`);
  const next = spec(name, changed);
  const field = Object.keys(fields)[0] as string;
  assert.deepEqual(
    diff(next, observed).map((d) => d.path),
    [`spec.${field}`],
  );
  await updateBucket(buckets(s3), next, observed);
  const after = await mustRead(name);
  assert.deepEqual(diff(next, after), [], `${label}: changed in S3`);
  // What the reconciler assumes S3 holds after the update is what a read gives.
  assert.deepEqual(diff(next, afterApplying(next, observed, {})), []);
  const removed = spec(name, {});
  await updateBucket(buckets(s3), removed, after);
  const gone = await mustRead(name);
  assert.equal(gone[field as keyof ObservedBucket], undefined, `${label}: removed from S3`);
  assert.deepEqual(diff(removed, gone), []);
  return { name, observed: gone };
}

describe("configuration groups against the emulator", () => {
  test("cors: ACK's e2e manifest's rules, changed, removed (DeleteBucketCors)", async () => {
    const { name } = await roundTrip(
      "cors",
      { cors: { corsRules: [{ allowedMethods: ["GET", "PUT"], allowedOrigins: ["localhost"] }] } },
      { cors: { corsRules: [{ allowedMethods: ["GET"], allowedOrigins: ["*"], maxAgeSeconds: 60 }] } },
    );
    await assert.rejects(s3.send(new GetBucketCorsCommand({ Bucket: name })), /NoSuchCORSConfiguration|CORS/);
  });

  test("cors added out of band is drift: a spec without it removes it", async () => {
    const name = uniqueName("cors-oob");
    const desired = spec(name, {});
    await createToSpec(desired);
    await s3.send(
      new PutBucketCorsCommand({
        Bucket: name,
        CORSConfiguration: { CORSRules: [{ AllowedMethods: ["GET"], AllowedOrigins: ["*"] }] },
      }),
    );
    const observed = await mustRead(name);
    assert.deepEqual(
      diff(desired, observed).map((d) => d.path),
      ["spec.cors"],
    );
    await updateBucket(buckets(s3), desired, observed);
    assert.deepEqual(diff(desired, await mustRead(name)), []);
  });

  test("lifecycle: rules with S3-made IDs compare equal, a changed rule is put, removal deletes it", async () => {
    const { name } = await roundTrip(
      "lifecycle",
      {
        lifecycle: {
          rules: [
            {
              id: "glacier",
              filter: { prefix: "logs/" },
              status: "Enabled",
              transitions: [{ days: 60, storageClass: "GLACIER" }],
            },
          ],
        },
      },
      {
        lifecycle: {
          rules: [{ id: "expire", filter: { prefix: "tmp/" }, status: "Enabled", expiration: { days: 3 } }],
        },
      },
    );
    await assert.rejects(s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: name })));
  });

  test("website: index and error documents, changed, removed (DeleteBucketWebsite)", async () => {
    const { name } = await roundTrip(
      "website",
      { website: { indexDocument: { suffix: "index.html" }, errorDocument: { key: "error.html" } } },
      { website: { indexDocument: { suffix: "home.html" } } },
    );
    await assert.rejects(s3.send(new GetBucketWebsiteCommand({ Bucket: name })));
  });

  test("accelerate: Enabled, then Suspended; removal suspends it (S3 cannot remove it)", async () => {
    await roundTrip(
      "accelerate",
      { accelerate: { status: "Enabled" } },
      { accelerate: { status: "Suspended" } },
    );
    // Suspended is what a never-accelerated bucket is: no difference either way.
  });

  test("notification: a queue configuration, changed, removed by an empty configuration", async () => {
    const queue = (events: string[]) => ({
      notification: {
        queueConfigurations: [
          {
            id: "q",
            queueARN: "arn:aws:sqs:us-east-1:123456789012:q",
            events,
            filter: { key: { filterRules: [{ name: "prefix", value: "in/" }] } },
          },
        ],
      },
    });
    await roundTrip("notification", queue(["s3:ObjectCreated:*"]), queue(["s3:ObjectRemoved:*"]));
  });

  test("replication: needs versioning, which the update enables first; removal deletes it", async () => {
    // moto reports every rule's filter prefix back as "" (its template drops it): the change
    // here is the destination.
    const replication = (destination: string) => ({
      replication: {
        role: "arn:aws:iam::123456789012:role/replication",
        rules: [
          {
            id: "all",
            priority: 1,
            status: "Enabled",
            filter: { prefix: "" },
            deleteMarkerReplication: { status: "Disabled" },
            destination: { bucket: `arn:aws:s3:::${destination}` },
          },
        ],
      },
      versioning: { status: "Enabled" },
    });
    const name = uniqueName("replication");
    await createToSpec(spec(name, replication("crossrole-replica")));
    const observed = await mustRead(name);
    assert.deepEqual(diff(spec(name, replication("crossrole-replica")), observed), []);
    const next = spec(name, replication("crossrole-replica-2"));
    proxy.clearRecording();
    await updateBucket(buckets(s3), next, observed);
    assert.deepEqual(diff(next, await mustRead(name)), []);
    const removed = spec(name, { versioning: { status: "Enabled" } });
    await updateBucket(buckets(s3), removed, await mustRead(name));
    assert.equal((await mustRead(name)).replication, undefined);
  });

  test("inventory: configurations by ID, one changed (moto), one removed (DeleteBucketInventoryConfiguration, on the wire)", async () => {
    const inv = (id: string, frequency: string) => ({
      id,
      isEnabled: true,
      includedObjectVersions: "All",
      schedule: { frequency },
      destination: { s3BucketDestination: { bucket: "arn:aws:s3:::crossrole-inventory", format: "CSV" } },
    });
    const name = uniqueName("inventory");
    await createToSpec(spec(name, { inventory: [inv("daily", "Daily"), inv("weekly", "Weekly")] }));
    const observed = await mustRead(name);
    assert.deepEqual(
      diff(spec(name, { inventory: [inv("weekly", "Weekly"), inv("daily", "Daily")] }), observed),
      [],
    );
    proxy.clearRecording();
    // moto has no DeleteBucketInventoryConfiguration (it deletes the bucket instead): the proxy
    // answers it, and what remains in moto is checked for the ID that was put.
    const removeFault = proxy.addFault({
      name: "no-inventory-delete-in-moto",
      match: (r) => r.method === "DELETE" && r.path.includes("inventory"),
      respond: { status: 204, code: "NoContent", message: "answered by the proxy" },
    });
    const next = spec(name, { inventory: [inv("daily", "Weekly")] });
    await updateBucket(buckets(s3), next, observed).finally(removeFault);
    assert.deepEqual(
      requestsFor(name, "inventory").map(
        (r) => `${r.method} ${new URLSearchParams(r.path.split("?")[1]).get("id")}`,
      ),
      ["DELETE weekly", "PUT daily"],
    );
    const after = await mustRead(name);
    assert.deepEqual(
      after.inventory?.find((c) => c.id === "daily"),
      next.inventory?.[0],
    );
  });

  test("Object Lock: enabled by CreateBucket, its default retention managed, removal keeps it on", async () => {
    const name = uniqueName("object-lock");
    const desired = spec(name, {
      objectLockEnabledForBucket: true,
      objectLockConfiguration: { rule: { defaultRetention: { mode: "GOVERNANCE", days: 1 } } },
    });
    proxy.clearRecording();
    await createToSpec(desired);
    const create = createRequest(name);
    assert.equal(create?.headers["x-amz-bucket-object-lock-enabled"], "true");
    const observed = await mustRead(name);
    assert.deepEqual(diff(desired, observed), []);
    const removed = spec(name, { objectLockEnabledForBucket: true });
    await updateBucket(buckets(s3), removed, observed);
    const after = await mustRead(name);
    assert.equal(after.objectLockEnabledForBucket, true);
    assert.equal(after.objectLockConfiguration?.rule, undefined);
    assert.deepEqual(diff(spec(name, {}), after), [], "S3 cannot turn Object Lock off: not a difference");
  });

  test("acl: a canned ACL by PutBucketAcl after the create, then grants; removal makes it private", async () => {
    const logDelivery = 'uri="http://acs.amazonaws.com/groups/s3/LogDelivery"';
    const name = uniqueName("acl");
    const desired = spec(name, { acl: "public-read", objectOwnership: "ObjectWriter" });
    proxy.clearRecording();
    await createToSpec(desired);
    const create = createRequest(name);
    assert.equal(
      create?.headers["x-amz-acl"],
      undefined,
      "the ACL waits for the tags to say whose the bucket is",
    );
    assert.equal(create?.headers["x-amz-object-ownership"], "ObjectWriter");
    const observed = await mustRead(name);
    assert.equal(observed.acl, "public-read");
    assert.deepEqual(diff(desired, observed), []);
    const owner = (await s3.send(new GetBucketAclCommand({ Bucket: name }))).Owner?.ID;
    const grants = spec(name, {
      objectOwnership: "ObjectWriter",
      grantFullControl: `id="${owner}"`,
      grantWrite: logDelivery,
      grantReadACP: logDelivery,
    });
    await updateBucket(buckets(s3), grants, observed);
    assert.deepEqual(diff(grants, await mustRead(name)), []);
    await updateBucket(buckets(s3), spec(name, { objectOwnership: "ObjectWriter" }), await mustRead(name));
    assert.equal((await mustRead(name)).acl, "private");
  });

  test("logging: to a target bucket that grants the log delivery group; removal turns it off", async () => {
    const logDelivery = 'uri="http://acs.amazonaws.com/groups/s3/LogDelivery"';
    const target = uniqueName("log-target");
    await createToSpec(spec(target, {}));
    const owner = (await s3.send(new GetBucketAclCommand({ Bucket: target }))).Owner?.ID;
    await updateBucket(
      buckets(s3),
      spec(target, { grantFullControl: `id="${owner}"`, grantWrite: logDelivery, grantReadACP: logDelivery }),
      await mustRead(target),
    );
    await roundTrip(
      "logging",
      { logging: { loggingEnabled: { targetBucket: target, targetPrefix: "a/" } } },
      { logging: { loggingEnabled: { targetBucket: target, targetPrefix: "b/" } } },
    );
  });

  test("a configuration S3 refuses is Terminal, naming the field and S3's reason", async () => {
    const name = uniqueName("bad-cors");
    await createToSpec(spec(name, {}));
    const bad = spec(name, { cors: { corsRules: [{ allowedMethods: ["FETCH"], allowedOrigins: ["*"] }] } });
    await assert.rejects(updateBucket(buckets(s3), bad, await mustRead(name)), (err: BucketError) => {
      assert.ok(isBucketError(err));
      assert.equal(err.terminal, true);
      assert.equal(err.field, "spec.cors");
      assert.match(err.message, /spec\.cors/);
      assert.match(err.message, /FETCH|unsupported HTTP method/i);
      return true;
    });
    assert.equal((await mustRead(name)).cors, undefined, "nothing of the refused configuration is left");
  });

  test("a locationConstraint that is not the resource's region is Terminal before anything is created", async () => {
    const name = uniqueName("bad-location");
    proxy.clearRecording();
    await assert.rejects(
      createBucket(
        buckets(s3),
        spec(name, { createBucketConfiguration: { locationConstraint: "eu-west-1" } }),
        region,
      ),
      (err: BucketError) =>
        err.terminal &&
        err.field === "spec.createBucketConfiguration.locationConstraint" &&
        /us-east-1/.test(err.message),
    );
    assert.equal(proxy.requests.length, 0);
    assert.deepEqual(await readBucket(buckets(s3), { name }), { found: false });
  });
});

describe("groups moto does not implement: checked on the wire, answered by the proxy", () => {
  // moto routes these calls to other handlers (a DELETE of them deletes the bucket), so the
  // proxy answers every write of them itself and the test checks what left crossrole.
  const unimplemented = ["abac", "requestPayment", "analytics", "metrics", "intelligent-tiering"];
  let removeFault: () => void;
  before(() => {
    removeFault = proxy.addFault({
      name: "unimplemented-by-moto",
      match: (r) =>
        r.method !== "GET" &&
        unimplemented.some((sub) => new URLSearchParams(r.path.split("?")[1] ?? "").has(sub)),
      respond: { status: 200, code: "OK", message: "answered by the proxy" },
    });
  });
  after(() => removeFault?.());

  test("abac, requestPayment and the per-ID analytics, metrics, Intelligent-Tiering are put after the create", async () => {
    const name = uniqueName("wire");
    const desired = spec(name, {
      abac: { status: "Enabled" },
      requestPayment: { payer: "Requester" },
      analytics: [{ id: "a1", storageClassAnalysis: {} }],
      metrics: [{ id: "m1", filter: { prefix: "p/" } }],
      intelligentTiering: [
        { id: "t1", status: "Enabled", tierings: [{ days: 90, accessTier: "ARCHIVE_ACCESS" }] },
      ],
    });
    proxy.clearRecording();
    await createToSpec(desired);
    const puts = (sub: string) =>
      requestsFor(name, sub)
        .filter((r) => r.method === "PUT")
        .map((r) => r.body.replace(/\s+/g, ""));
    assert.match(puts("abac")[0] ?? "", /<Status>Enabled<\/Status>/);
    assert.match(puts("requestPayment")[0] ?? "", /<Payer>Requester<\/Payer>/);
    assert.match(puts("analytics")[0] ?? "", /<Id>a1<\/Id>/);
    assert.match(puts("metrics")[0] ?? "", /<Id>m1<\/Id>.*<Prefix>p\/<\/Prefix>/);
    assert.match(
      puts("intelligent-tiering")[0] ?? "",
      /<Days>90<\/Days><AccessTier>ARCHIVE_ACCESS<\/AccessTier>/,
    );
    // Reading: moto reports none of them, so each shows as a difference the next update puts again.
    assert.deepEqual(
      diff(desired, await mustRead(name)).map((d) => d.path),
      ["spec.abac", "spec.requestPayment", "spec.analytics", "spec.intelligentTiering", "spec.metrics"],
    );
    // Removed from the spec: ABAC disabled, the owner pays, each configuration deleted by ID.
    proxy.clearRecording();
    await updateBucket(buckets(s3), spec(name, {}), { ...(await mustRead(name)), ...desired });
    assert.match(puts("abac")[0] ?? "", /<Status>Disabled<\/Status>/);
    assert.match(puts("requestPayment")[0] ?? "", /<Payer>BucketOwner<\/Payer>/);
    for (const [sub, id] of [
      ["analytics", "a1"],
      ["metrics", "m1"],
      ["intelligent-tiering", "t1"],
    ] as const) {
      const deletes = requestsFor(name, sub).filter((r) => r.method === "DELETE");
      assert.deepEqual(
        deletes.map((r) => new URLSearchParams(r.path.split("?")[1]).get("id")),
        [id],
        sub,
      );
    }
    assert.equal(await deleteBucket(buckets(s3), name), "deleted");
  });
});
