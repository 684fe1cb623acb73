// The S3 Bucket module against the real AWS emulator (moto in server mode): create with every
// sub-resource, read back, drift corrected per sub-resource, "none" values deleted, delete,
// idempotent create, and isolation between accounts (moto maps sts:AssumeRole keys for
// 222222222222 to that account; the harness runs it with MOTO_S3_ALLOW_CROSSACCOUNT_ACCESS=false).
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  DeleteBucketOwnershipControlsCommand,
  DeleteBucketPolicyCommand,
  GetBucketLocationCommand,
  GetBucketOwnershipControlsCommand,
  GetBucketPolicyCommand,
  GetBucketTaggingCommand,
  GetBucketVersioningCommand,
  GetPublicAccessBlockCommand,
  ListBucketsCommand,
  PutBucketEncryptionCommand,
  PutBucketTaggingCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  PutPublicAccessBlockCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";
import type { AwsCredentialIdentity } from "@smithy/types";
import { type Emulator, startEmulator } from "../../src/local-stack/stack.ts";
import { type BucketFields, bucketSpecSchema } from "../../src/services/s3/schema.ts";
import {
  type BucketError,
  bucketCreatedAt,
  claimBucket,
  createBucket,
  deleteBucket,
  diff,
  isBucketError,
  lateInitialize,
  type ObservedBucket,
  readBucket,
  readCreatedBucket,
  updateBucket,
} from "../support/bucket-shims.ts";
import { buckets } from "../support/s3-buckets.ts";

const defaultCredentials: AwsCredentialIdentity = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "default-secret",
};
const otherAccount = "222222222222";

let dir: string;
let emulator: Emulator;
let s3: S3Client;
let s3Europe: S3Client;
let s3Other: S3Client;

function client(region: string, credentials: AwsCredentialIdentity): S3Client {
  return new S3Client({ region, endpoint: emulator.endpoint, forcePathStyle: true, credentials });
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "crossrole-s3-bucket-"));
  // Recording: what the module SENT, to show an update calls only what differs.
  emulator = await startEmulator({ dir, recording: true });
  s3 = client("us-east-1", defaultCredentials);
  s3Europe = client("eu-west-1", defaultCredentials);
  const sts = new STSClient({
    region: "us-east-1",
    endpoint: emulator.endpoint,
    credentials: defaultCredentials,
  });
  const assumed = await sts.send(
    new AssumeRoleCommand({
      RoleArn: `arn:aws:iam::${otherAccount}:role/x`,
      RoleSessionName: "s3-bucket-test",
    }),
  );
  const c = assumed.Credentials;
  assert.ok(c?.AccessKeyId && c.SecretAccessKey && c.SessionToken, "AssumeRole returned no credentials");
  s3Other = client("us-east-1", {
    accessKeyId: c.AccessKeyId,
    secretAccessKey: c.SecretAccessKey,
    sessionToken: c.SessionToken,
  });
});

after(async () => {
  for (const c of [s3, s3Europe, s3Other]) c?.destroy();
  await emulator?.stop();
  await rm(dir, { recursive: true, force: true });
});

let counter = 0;
/** A bucket name no other test uses (names are global across accounts). */
function uniqueName(label: string): string {
  counter += 1;
  return `crossrole-${label}-${process.pid}-${counter}`;
}

const policyOf = (name: string) =>
  JSON.stringify({
    Version: "2012-10-17",
    Statement: [
      {
        Sid: "ReadOnly",
        Effect: "Allow",
        Principal: { AWS: "arn:aws:iam::111111111111:root" },
        Action: "s3:GetObject",
        Resource: `arn:aws:s3:::${name}/*`,
      },
    ],
  });

/** Every managed sub-resource set, parsed through the schema as the reconciler will. */
function fullSpec(name: string): BucketFields {
  return bucketSpecSchema.parse({
    name,
    tagging: {
      tagSet: [
        { key: "team", value: "shop" },
        { key: "cost-center", value: "42" },
      ],
    },
    versioning: { status: "Enabled" },
    encryption: {
      rules: [
        {
          applyServerSideEncryptionByDefault: { sseAlgorithm: "aws:kms", kmsMasterKeyID: "alias/shop" },
          bucketKeyEnabled: true,
        },
      ],
    },
    policy: policyOf(name),
    publicAccessBlock: {
      blockPublicACLs: true,
      blockPublicPolicy: true,
      ignorePublicACLs: true,
      restrictPublicBuckets: false,
    },
    ownershipControls: { rules: [{ objectOwnership: "ObjectWriter" }] },
  });
}

/**
 * A read without the grant fields GetBucketAcl spells out: a bucket its create just made is
 * known to be private (readCreatedBucket), without asking S3 who its owner is.
 */
function withoutGrants(observed: ObservedBucket): ObservedBucket {
  const {
    grantFullControl: _f,
    grantRead: _r,
    grantReadACP: _ra,
    grantWrite: _w,
    grantWriteACP: _wa,
    ...rest
  } = observed;
  return rest;
}

async function mustRead(c: S3Client, name: string): Promise<ObservedBucket> {
  const result = await readBucket(buckets(c), { name });
  assert.ok(result.found, `bucket ${name} not found`);
  return result.bucket;
}

/**
 * What the reconciler does for a new bucket: CreateBucket (with the tags), read it back, then
 * apply the other sub-resources as an update.
 */
async function createToSpec(
  c: S3Client,
  spec: BucketFields,
  region: string,
  ownerTags: Record<string, string> = {},
): Promise<void> {
  const created = await createBucket(buckets(c), spec, region, ownerTags);
  assert.equal(created.created, true, `CreateBucket ${spec.name}`);
  await updateBucket(buckets(c), spec, await mustRead(c, spec.name), ownerTags);
}

/** The S3 error code a raw call fails with, or "ok". */
async function outcome(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return "ok";
  } catch (err) {
    return (err as { name?: string }).name ?? "?";
  }
}

async function bucketError(call: Promise<unknown>): Promise<BucketError> {
  try {
    await call;
  } catch (err) {
    assert.ok(isBucketError(err), `expected a BucketError, got ${String(err)}`);
    return err;
  }
  assert.fail("expected the call to fail");
}

/** The S3 writes (method and sub-resource, e.g. "PUT ?tagging") `action` sent, in order. */
async function writesDuring(action: () => Promise<unknown>): Promise<string[]> {
  const path = emulator.recordingPath;
  assert.ok(path !== undefined, "the emulator records requests");
  const recorded = async () =>
    (await readFile(path, "utf8").catch(() => "")).split("\n").filter((l) => l !== "");
  const before = (await recorded()).length;
  await action();
  return (await recorded())
    .slice(before)
    .map((line) => JSON.parse(line) as { method: string; url: string })
    .filter((r) => r.method !== "GET" && r.method !== "HEAD")
    .map((r) => {
      const query = new URL(r.url, "http://x").search.replace(/[=&].*$/, "");
      return `${r.method} ${query}`;
    });
}

async function listedNames(c: S3Client): Promise<string[]> {
  return ((await c.send(new ListBucketsCommand({}))).Buckets ?? []).map((b) => b.Name ?? "");
}

describe("createBucket and readBucket", () => {
  test("creates a bucket, then every sub-resource, in us-east-1; it reads back equal to the spec", async () => {
    const spec = fullSpec(uniqueName("full"));
    await createToSpec(s3, spec, "us-east-1");

    const observed = await mustRead(s3, spec.name);
    assert.equal(observed.region, "us-east-1");
    const { spec: desired, initialized } = lateInitialize(spec, observed);
    assert.deepEqual(initialized, [], "the spec sets every late-initialised field");
    assert.deepEqual(diff(desired, observed), []);
    // And S3 itself holds it, independently of the module's mapping.
    const versioning = await s3.send(new GetBucketVersioningCommand({ Bucket: spec.name }));
    assert.equal(versioning.Status, "Enabled");
    const tags = await s3.send(new GetBucketTaggingCommand({ Bucket: spec.name }));
    assert.deepEqual(tags.TagSet?.map((t) => `${t.Key}=${t.Value}`).sort(), ["cost-center=42", "team=shop"]);
  });

  test("creates a bucket in eu-west-1 with a LocationConstraint", async () => {
    const name = uniqueName("europe");
    await createToSpec(s3Europe, { name, tagging: { tagSet: [{ key: "a", value: "1" }] } }, "eu-west-1");
    assert.equal((await mustRead(s3Europe, name)).region, "eu-west-1");
    const location = await s3Europe.send(new GetBucketLocationCommand({ Bucket: name }));
    assert.equal(location.LocationConstraint, "eu-west-1");
  });

  test("a bare spec reads back without a difference; moto gives new buckets no defaults to late-initialise", async () => {
    const name = uniqueName("bare");
    await createBucket(buckets(s3), { name }, "us-east-1");
    const observed = await mustRead(s3, name);
    // The new bucket's ACL is its owner's alone: private.
    assert.deepEqual(withoutGrants(observed), { name, region: "us-east-1", acl: "private" });
    const { spec, initialized } = lateInitialize({ name }, observed);
    assert.deepEqual(initialized, []);
    assert.deepEqual(diff(spec, observed), []);
  });

  test("a spec setting only some fields reads back equal after late initialisation", async () => {
    const name = uniqueName("partial");
    const spec: BucketFields = { name, versioning: { status: "Suspended" }, publicAccessBlock: {} };
    await createToSpec(s3, spec, "us-east-1");
    const observed = await mustRead(s3, name);
    assert.deepEqual(diff(lateInitialize(spec, observed).spec, observed), []);
  });

  test("readBucket says not found for a bucket that does not exist", async () => {
    assert.deepEqual(await readBucket(buckets(s3), { name: uniqueName("missing") }), { found: false });
  });

  test("createBucket refuses a client configured for another region than the bucket's", async () => {
    await assert.rejects(
      createBucket(buckets(s3), { name: uniqueName("wrong-region") }, "eu-west-1"),
      /configured for us-east-1/,
    );
  });
});

describe("createBucket: the create call only, with the tags", () => {
  const owner = { "services.k8s.aws/owner-uid": "uid-1", "services.k8s.aws/owner": "Bucket/shop/a" };

  test("sends CreateBucket alone, carrying the user's and the ownership tags in the same request", async () => {
    const name = uniqueName("tags-at-create");
    const spec = fullSpec(name);
    const path = emulator.recordingPath;
    assert.ok(path !== undefined);
    const writes = await writesDuring(async () => {
      assert.deepEqual(await createBucket(buckets(s3), spec, "us-east-1", owner), {
        created: true,
        location: `/${name}`,
      });
    });
    assert.deepEqual(
      writes,
      ["PUT "],
      "nothing but CreateBucket: the caller reads the bucket back before writing to it",
    );
    const create = (await readFile(path, "utf8"))
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as { method: string; url: string; body?: string; body_encoded?: boolean })
      .filter(
        (r) => r.method === "PUT" && new URL(r.url, "http://x").pathname.replace(/\/$/, "") === `/${name}`,
      )
      .at(-1);
    const body = create?.body_encoded
      ? Buffer.from(create.body ?? "", "base64").toString()
      : (create?.body ?? "");
    for (const [k, v] of [...Object.entries(owner), ["team", "shop"]]) {
      assert.match(
        body,
        new RegExp(`<Tag><Key>${k}</Key><Value>${v}</Value></Tag>`),
        `CreateBucket carries ${k}`,
      );
    }
  });

  test("again in eu-west-1: BucketAlreadyOwnedByYou is {created: false}, and nothing is written", async () => {
    const spec = fullSpec(uniqueName("again"));
    await createToSpec(s3Europe, spec, "eu-west-1");
    await s3Europe.send(new DeleteBucketPolicyCommand({ Bucket: spec.name }));
    const writes = await writesDuring(async () => {
      assert.deepEqual(await createBucket(buckets(s3Europe), spec, "eu-west-1", owner), { created: false });
    });
    assert.deepEqual(writes, ["PUT "]);
    assert.equal(
      (await mustRead(s3Europe, spec.name)).policy,
      undefined,
      "the existing bucket was not touched",
    );
  });

  test("again in us-east-1: S3's legacy 200, and still nothing but the create call is sent", async () => {
    const spec = fullSpec(uniqueName("again-use1"));
    await createToSpec(s3, spec, "us-east-1");
    const writes = await writesDuring(() =>
      createBucket(buckets(s3), { name: spec.name }, "us-east-1", owner),
    );
    assert.deepEqual(writes, ["PUT "]);
    assert.deepEqual(
      diff(spec, await mustRead(s3, spec.name)),
      [],
      "the existing bucket kept its configuration",
    );
  });

  test("our own bucket in another region: {created: false}; the read shows where it is (the reconciler's RegionDrift)", async () => {
    const name = uniqueName("moved");
    await createBucket(buckets(s3Europe), { name }, "eu-west-1");
    assert.deepEqual(await createBucket(buckets(s3), { name }, "us-east-1"), { created: false });
    assert.equal((await mustRead(s3, name)).region, "eu-west-1");
  });
});

/** Every S3 request (method and sub-resource, e.g. "GET ?tagging") `action` sent, sorted. */
async function requestsDuring(action: () => Promise<unknown>): Promise<string[]> {
  const path = emulator.recordingPath;
  assert.ok(path !== undefined, "the emulator records requests");
  const recorded = async () =>
    (await readFile(path, "utf8").catch(() => "")).split("\n").filter((l) => l !== "");
  const before = (await recorded()).length;
  await action();
  return (await recorded())
    .slice(before)
    .map((line) => JSON.parse(line) as { method: string; url: string })
    .map((r) => `${r.method} ${new URL(r.url, "http://x").search.replace(/[=&].*$/, "")}`)
    .sort();
}

describe("readCreatedBucket: a bucket the create just made, read for what S3 decides only", () => {
  test("asks only for the tags and the late-initialised defaults; reads the same as readBucket", async () => {
    const name = uniqueName("just-made");
    await createBucket(buckets(s3), { name }, "us-east-1");
    let read: Awaited<ReturnType<typeof readCreatedBucket>> = { found: false };
    const requests = await requestsDuring(async () => {
      read = await readCreatedBucket(buckets(s3), { name }, "us-east-1");
    });
    assert.deepEqual(requests, [
      "GET ?encryption",
      "GET ?ownershipControls",
      "GET ?publicAccessBlock",
      "GET ?tagging",
    ]);
    assert.deepEqual(read, { found: true, bucket: withoutGrants(await mustRead(s3, name)) });
  });

  test("shows what the store decided: tags it kept from the create, its default settings", async () => {
    const name = uniqueName("store-defaults");
    await createBucket(buckets(s3Europe), { name }, "eu-west-1");
    // As real S3 does for every new bucket (and a store that honours CreateBucket's tags).
    await s3Europe.send(
      new PutBucketTaggingCommand({
        Bucket: name,
        Tagging: { TagSet: [{ Key: "services.k8s.aws/owner-uid", Value: "u" }] },
      }),
    );
    await s3Europe.send(
      new PutBucketEncryptionCommand({
        Bucket: name,
        ServerSideEncryptionConfiguration: {
          Rules: [
            { ApplyServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" }, BucketKeyEnabled: false },
          ],
        },
      }),
    );
    await s3Europe.send(
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
    const read = await readCreatedBucket(buckets(s3Europe), { name }, "eu-west-1");
    assert.ok(read.found);
    assert.deepEqual(read.bucket, withoutGrants(await mustRead(s3Europe, name)));
    assert.equal(read.bucket.region, "eu-west-1");
    assert.deepEqual(lateInitialize({ name }, read.bucket).initialized, ["publicAccessBlock", "encryption"]);
  });

  test("a bucket that does not show (deleted, or not yet everywhere) is not found", async () => {
    assert.deepEqual(await readCreatedBucket(buckets(s3), { name: uniqueName("not-there") }, "us-east-1"), {
      found: false,
    });
  });
});

describe("ownership tags: claimBucket, updateBucket, bucketCreatedAt", () => {
  const owner = { "services.k8s.aws/owner-uid": "uid-2", "services.k8s.aws/owner": "Bucket/shop/b" };
  const tagsOf = async (name: string) =>
    Object.fromEntries(
      ((await s3.send(new GetBucketTaggingCommand({ Bucket: name }))).TagSet ?? []).map((t) => [
        t.Key,
        t.Value,
      ]),
    );

  test("claimBucket adds the ownership tags and keeps every tag the bucket had", async () => {
    const name = uniqueName("claim");
    await createToSpec(s3, { name, tagging: { tagSet: [{ key: "team", value: "shop" }] } }, "us-east-1");
    await claimBucket(buckets(s3), await mustRead(s3, name), owner);
    assert.deepEqual(await tagsOf(name), { team: "shop", ...owner });
  });

  test("updateBucket writes the ownership tags with every tag change, also when the user's tags go", async () => {
    const name = uniqueName("owner-kept");
    await createToSpec(
      s3,
      { name, tagging: { tagSet: [{ key: "team", value: "shop" }] } },
      "us-east-1",
      owner,
    );
    assert.deepEqual(await tagsOf(name), { team: "shop", ...owner });
    const applied = await updateBucket(
      buckets(s3),
      { name, tagging: { tagSet: [] } },
      await mustRead(s3, name),
      owner,
    );
    assert.deepEqual(
      applied.map((d) => d.field),
      ["tagging"],
    );
    assert.deepEqual(await tagsOf(name), owner, "the ownership tags stay when the user removes all tags");
  });

  test("ownership tags are never drift, and a bucket holding only them matches a spec without tags", async () => {
    const name = uniqueName("owner-not-drift");
    await createToSpec(s3, { name, tagging: { tagSet: [{ key: "x", value: "1" }] } }, "us-east-1", owner);
    await updateBucket(buckets(s3), { name }, await mustRead(s3, name), owner);
    const observed = await mustRead(s3, name);
    assert.deepEqual(diff({ name }, observed), []);
    assert.deepEqual(await tagsOf(name), owner);
  });

  test("bucketCreatedAt: when this account made it; undefined for a bucket it does not list", async () => {
    const before = Date.now();
    const name = uniqueName("created-at");
    await createBucket(buckets(s3), { name }, "us-east-1");
    const at = await bucketCreatedAt(buckets(s3), name);
    assert.ok(
      at !== undefined && at.getTime() >= before - 5_000 && at.getTime() <= Date.now() + 5_000,
      String(at),
    );
    assert.equal(await bucketCreatedAt(buckets(s3), uniqueName("never-made")), undefined);
    const others = uniqueName("others-created-at");
    await createBucket(buckets(s3Other), { name: others }, "us-east-1");
    assert.equal(await bucketCreatedAt(buckets(s3), others), undefined);
  });
});

describe("updateBucket", () => {
  test("detects drift on every sub-resource and corrects it", async () => {
    const spec = fullSpec(uniqueName("drift"));
    await createToSpec(s3, spec, "us-east-1");
    const Bucket = spec.name;
    await s3.send(
      new PutBucketTaggingCommand({ Bucket, Tagging: { TagSet: [{ Key: "added", Value: "by-hand" }] } }),
    );
    await s3.send(
      new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: "Suspended" } }),
    );
    await s3.send(
      new PutBucketEncryptionCommand({
        Bucket,
        ServerSideEncryptionConfiguration: {
          Rules: [{ ApplyServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }],
        },
      }),
    );
    await s3.send(new DeleteBucketPolicyCommand({ Bucket }));
    await s3.send(
      new PutPublicAccessBlockCommand({ Bucket, PublicAccessBlockConfiguration: { BlockPublicAcls: false } }),
    );
    await s3.send(new DeleteBucketOwnershipControlsCommand({ Bucket }));

    const drifted = await mustRead(s3, Bucket);
    const expected = [
      "ownershipControls",
      "publicAccessBlock",
      "encryption",
      "versioning",
      "tagging",
      "policy",
    ];
    assert.deepEqual(
      diff(spec, drifted).map((d) => d.field),
      expected,
    );
    const applied = await updateBucket(buckets(s3), spec, drifted);
    assert.deepEqual(
      applied.map((d) => d.path),
      expected.map((f) => `spec.${f}`),
    );
    assert.deepEqual(diff(spec, await mustRead(s3, Bucket)), []);
  });

  test("a changed spec updates only the sub-resources that differ", async () => {
    const spec = fullSpec(uniqueName("change"));
    await createToSpec(s3, spec, "us-east-1");
    const changed: BucketFields = {
      ...spec,
      tagging: { tagSet: [{ key: "team", value: "billing" }] },
      versioning: { status: "Suspended" },
    };
    const observed = await mustRead(s3, spec.name);
    let applied: Awaited<ReturnType<typeof updateBucket>> = [];
    const writes = await writesDuring(async () => {
      applied = await updateBucket(buckets(s3), changed, observed);
    });
    assert.deepEqual(
      applied.map((d) => d.field),
      ["versioning", "tagging"],
    );
    assert.deepEqual(writes, ["PUT ?versioning", "PUT ?tagging"]);
    const after = await mustRead(s3, spec.name);
    assert.deepEqual(diff(changed, after), []);
    assert.deepEqual(after.tagging, { tagSet: [{ key: "team", value: "billing" }] });
    assert.deepEqual(after.versioning, { status: "Suspended" });
  });

  test("empty sub-resources (no tags, empty policy, {} block, no ownership rule) are deleted in S3", async () => {
    const spec = fullSpec(uniqueName("empty"));
    await createToSpec(s3, spec, "us-east-1");
    const emptied: BucketFields = {
      ...spec,
      tagging: { tagSet: [] },
      policy: "",
      publicAccessBlock: {},
      ownershipControls: { rules: [] },
    };
    const observed = await mustRead(s3, spec.name);
    const writes = await writesDuring(() => updateBucket(buckets(s3), emptied, observed));
    assert.deepEqual(writes, [
      "DELETE ?ownershipControls",
      "DELETE ?publicAccessBlock",
      "DELETE ?tagging",
      "DELETE ?policy",
    ]);
    const Bucket = spec.name;
    assert.equal(await outcome(s3.send(new GetBucketTaggingCommand({ Bucket }))), "NoSuchTagSet");
    assert.equal(await outcome(s3.send(new GetBucketPolicyCommand({ Bucket }))), "NoSuchBucketPolicy");
    assert.equal(
      await outcome(s3.send(new GetPublicAccessBlockCommand({ Bucket }))),
      "NoSuchPublicAccessBlockConfiguration",
    );
    assert.equal(
      await outcome(s3.send(new GetBucketOwnershipControlsCommand({ Bucket }))),
      "OwnershipControlsNotFoundError",
    );
    assert.deepEqual(diff(emptied, await mustRead(s3, Bucket)), []);
  });

  test("tags and policy left out of the spec are removed from S3 (ACK's semantics)", async () => {
    const spec = fullSpec(uniqueName("absent"));
    await createToSpec(s3, spec, "us-east-1");
    const { tagging: _tagging, policy: _policy, ...rest } = spec;
    const applied = await updateBucket(buckets(s3), rest, await mustRead(s3, spec.name));
    assert.deepEqual(
      applied.map((d) => d.field),
      ["tagging", "policy"],
    );
    const after = await mustRead(s3, spec.name);
    assert.equal(after.tagging, undefined);
    assert.equal(after.policy, undefined);
  });
});

describe("deleteBucket", () => {
  test("deletes the bucket; afterwards read says not found and a second delete says not-found", async () => {
    const spec = fullSpec(uniqueName("delete"));
    await createToSpec(s3, spec, "us-east-1");
    assert.equal(await deleteBucket(buckets(s3), spec.name), "deleted");
    assert.deepEqual(await readBucket(buckets(s3), spec), { found: false });
    assert.equal(await deleteBucket(buckets(s3), spec.name), "not-found");
    assert.ok(!(await listedNames(s3)).includes(spec.name));
  });

  test("a bucket holding objects is a retryable error that says why, and is kept", async () => {
    const name = uniqueName("not-empty");
    await createBucket(buckets(s3), { name }, "us-east-1");
    await s3.send(new PutObjectCommand({ Bucket: name, Key: "report.csv", Body: "a,b\n" }));
    const err = await bucketError(deleteBucket(buckets(s3), name));
    assert.equal(err.disposition, "retryable");
    assert.equal(err.code, "BucketNotEmpty");
    assert.match(err.message, /S3 deletes only empty buckets/);
    assert.equal((await readBucket(buckets(s3), { name })).found, true);
  });
});

describe("accounts", () => {
  test("a bucket created in 222222222222 is listed there only; to the default account it is held elsewhere", async () => {
    const name = uniqueName("other-account");
    await createToSpec(
      s3Other,
      { name, tagging: { tagSet: [{ key: "owner", value: "central-it" }] } },
      "us-east-1",
    );
    assert.ok((await listedNames(s3Other)).includes(name));
    assert.ok(!(await listedNames(s3)).includes(name), "the default account must not list it");
    assert.equal((await mustRead(s3Other, name)).tagging?.tagSet?.[0]?.value, "central-it");

    // HeadBucket is denied and the default account does not list it: nothing of this account's
    // is there, and the name is unusable (bucket names are global).
    const read = await readBucket(buckets(s3), { name });
    assert.equal(read.found, false);
    assert.ok(!read.found);
    assert.match(
      read.heldElsewhere ?? "",
      new RegExp(`bucket name "${name}" is owned by another AWS account`),
    );
  });

  test("creating a name another account owns is terminal and says the name is taken", async () => {
    const name = uniqueName("taken");
    await createBucket(buckets(s3Other), { name }, "us-east-1");
    const err = await bucketError(createBucket(buckets(s3), { name }, "us-east-1"));
    assert.equal(err.disposition, "terminal");
    assert.equal(err.code, "BucketAlreadyExists");
    assert.equal(err.field, "spec.name");
    assert.match(err.message, /spec\.name: bucket name ".*" is taken by another AWS account/);
    assert.ok(!(await listedNames(s3)).includes(name));
  });

  test("an invalid bucket name is terminal and names spec.name", async () => {
    // moto checks only the length; the schema rejects every other bad name at admission.
    const err = await bucketError(createBucket(buckets(s3), { name: "ab" }, "us-east-1"));
    assert.equal(err.disposition, "terminal");
    assert.equal(err.code, "InvalidBucketName");
    assert.match(err.message, /^spec\.name: CreateBucket on bucket "ab" failed with InvalidBucketName/);
  });
});
