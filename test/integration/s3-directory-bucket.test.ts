// A directory bucket (S3 Express One Zone, name ending --x-s3) through the s3 module: which
// calls it makes and with what input, and how it reads S3's answers. moto 5.2.5 has no directory
// buckets (its CreateBucket of one answers NoSuchBucket, its ListDirectoryBuckets lists the
// general purpose buckets, and it routes S3 Control only by an account host name), so the
// recording proxy answers those calls as S3 documents them, and the test checks the wire: the
// create's configuration (no LocationConstraint), that none of the 17 configurations S3 Express
// lacks is ever read or written, and that tags go through S3 Control on the s3express ARN.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, test } from "node:test";
import { S3Client } from "@aws-sdk/client-s3";
import { S3ControlClient } from "@aws-sdk/client-s3-control";
import type { AwsCredentialIdentity } from "@smithy/types";
import { ownershipTagKeys } from "../../src/api/ownership-tags.ts";
import { type Emulator, startEmulator } from "../../src/local-stack/stack.ts";
import { type BucketFields, bucketSpecSchema } from "../../src/services/s3/schema.ts";
import { type AwsProxy, type RecordedRequest, startAwsProxy } from "../support/aws-proxy.ts";
import {
  type BucketClient,
  claimBucket,
  createBucket,
  isBucketError,
  readBucket,
  readCreatedBucket,
  updateBucket,
} from "../support/bucket-shims.ts";

const credentials: AwsCredentialIdentity = { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "x" };
const region = "us-west-2";
const account = "123456789012";
const zone = "usw2-az1";

let dir: string;
let emulator: Emulator;
let proxy: AwsProxy;
let s3: S3Client;
let control: S3ControlClient;
let client: BucketClient;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "crossrole-s3-directory-"));
  emulator = await startEmulator({ dir, recording: false });
  proxy = await startAwsProxy(emulator.endpoint);
  // As the controller builds it (client.ts): path style behind the endpoint, no zonal sessions.
  s3 = new S3Client({
    region,
    endpoint: proxy.endpoint,
    forcePathStyle: true,
    disableS3ExpressSessionAuth: true,
    credentials,
  });
  control = new S3ControlClient({ region, endpoint: proxy.endpoint, credentials });
  client = { s3, more: async () => ({ sdk: control, account }) };
});

after(async () => {
  s3?.destroy();
  control?.destroy();
  await proxy?.close();
  await emulator?.stop();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  proxy.clearFaults();
  proxy.clearRecording();
});

let counter = 0;
const uniqueName = () => `crossrole-${process.pid}-${++counter}--${zone}--x-s3`;

const directorySpec = (name: string, fields: Record<string, unknown> = {}): BucketFields =>
  bucketSpecSchema.parse({
    name,
    createBucketConfiguration: {
      bucket: { type: "Directory", dataRedundancy: "SingleAvailabilityZone" },
      location: { name: zone, type: "AvailabilityZone" },
    },
    ...fields,
  }) as BucketFields;

const xml = (body: string) => ({ answer: { status: 200, body } });
const s3Error = (status: number, code: string) => ({
  answer: { status, body: `<Error><Code>${code}</Code><Message>${code}</Message></Error>` },
});
const query = (r: Pick<RecordedRequest, "path">) => new URLSearchParams(r.path.split("?")[1] ?? "");
const onBucket = (r: Pick<RecordedRequest, "path">, name: string) => r.path.startsWith(`/${name}/`);
/** The S3 Control path naming the bucket's s3express ARN, decoded. */
const arnPath = (name: string) => `/v20180820/tags/arn:aws:s3express:${region}:${account}:bucket/${name}`;
const decodedPath = (r: RecordedRequest | undefined) => decodeURIComponent(r?.path ?? "");

/** S3 as it answers for an existing directory bucket with `tags`, AES256 and nothing else set. */
function answerAsS3Express(name: string, tags: Record<string, string>): void {
  proxy.addFault({
    name: "ListDirectoryBuckets",
    match: (r) => query(r).get("x-id") === "ListDirectoryBuckets",
    respond: xml(
      `<ListAllMyDirectoryBucketsResult><Buckets><Bucket><CreationDate>2026-11-28T10:00:00.000Z</CreationDate><Name>${name}</Name><BucketRegion>${region}</BucketRegion></Bucket></Buckets></ListAllMyDirectoryBucketsResult>`,
    ),
  });
  proxy.addFault({
    name: "GetBucketEncryption",
    match: (r) => r.method === "GET" && onBucket(r, name) && query(r).has("encryption"),
    respond: xml(
      "<ServerSideEncryptionConfiguration><Rule><ApplyServerSideEncryptionByDefault><SSEAlgorithm>AES256</SSEAlgorithm></ApplyServerSideEncryptionByDefault><BucketKeyEnabled>true</BucketKeyEnabled></Rule></ServerSideEncryptionConfiguration>",
    ),
  });
  proxy.addFault({
    name: "GetBucketLifecycleConfiguration",
    match: (r) => r.method === "GET" && onBucket(r, name) && query(r).has("lifecycle"),
    respond: s3Error(404, "NoSuchLifecycleConfiguration"),
  });
  proxy.addFault({
    name: "GetBucketPolicy",
    match: (r) => r.method === "GET" && onBucket(r, name) && query(r).has("policy"),
    respond: s3Error(404, "NoSuchBucketPolicy"),
  });
  const tagXml = Object.entries(tags)
    .map(([k, v]) => `<Tag><Key>${k}</Key><Value>${v}</Value></Tag>`)
    .join("");
  proxy.addFault({
    name: "ListTagsForResource",
    match: (r) => r.method === "GET" && r.path.startsWith("/v20180820/tags/"),
    respond: xml(`<ListTagsForResourceResult><Tags>${tagXml}</Tags></ListTagsForResourceResult>`),
  });
  proxy.addFault({
    name: "TagResource",
    match: (r) => r.method === "POST" && r.path.startsWith("/v20180820/tags/"),
    respond: { answer: { status: 204 } },
  });
  proxy.addFault({
    name: "UntagResource",
    match: (r) => r.method === "DELETE" && r.path.startsWith("/v20180820/tags/"),
    respond: { answer: { status: 204 } },
  });
}

/** The sub-resources the bucket's requests asked for (`?encryption`, ...), sorted. */
const subresourcesAsked = (name: string) =>
  [...new Set(proxy.requests.filter((r) => onBucket(r, name)).flatMap((r) => [...query(r).keys()]))]
    .filter((k) => k !== "x-id")
    .sort();

describe("a directory bucket (S3 Express One Zone)", () => {
  test("not there: ListDirectoryBuckets (moto's answer, empty) says so; no HeadBucket, nothing else", async () => {
    const name = uniqueName();
    assert.deepEqual(await readBucket(client, { name }), { found: false });
    assert.deepEqual(
      proxy.requests.map((r) => `${r.method} ${query(r).get("x-id") ?? r.path}`),
      ["GET ListDirectoryBuckets"],
    );
  });

  test("created with its type, zone and tags, and no LocationConstraint; then only its tags and encryption read", async () => {
    const name = uniqueName();
    proxy.addFault({
      name: "CreateBucket",
      match: (r) => r.method === "PUT" && onBucket(r, name) && query(r).size === 0,
      respond: { answer: { status: 200 } },
    });
    const owner = { [ownershipTagKeys.owner]: "shop/fast" };
    const spec = directorySpec(name, { tagging: { tagSet: [{ key: "team", value: "shop" }] } });
    assert.equal((await createBucket(client, spec, region, owner)).created, true);
    const create = proxy.requests.find((r) => r.fault === "CreateBucket");
    assert.ok(create, "CreateBucket sent");
    const body = create.body.replace(/\s+/g, "");
    assert.match(
      body,
      /<Location><Type>AvailabilityZone<\/Type><Name>usw2-az1<\/Name><\/Location><Bucket><DataRedundancy>SingleAvailabilityZone<\/DataRedundancy><Type>Directory<\/Type><\/Bucket>/,
    );
    assert.doesNotMatch(body, /LocationConstraint/);
    assert.match(body, /<Tag><Key>team<\/Key><Value>shop<\/Value><\/Tag>/);
    assert.match(body, /<Key>services.k8s.aws\/owner<\/Key><Value>shop\/fast<\/Value>/);

    answerAsS3Express(name, { team: "shop", ...owner });
    proxy.clearRecording();
    const created = await readCreatedBucket(client, spec, region);
    assert.ok(created.found);
    assert.deepEqual(created.bucket.tagging?.tagSet?.map((t) => t.key).sort(), [
      ownershipTagKeys.owner,
      "team",
    ]);
    assert.equal(created.bucket.acl, undefined, "a directory bucket has no ACL of its own");
    assert.deepEqual(subresourcesAsked(name), ["encryption"]);
    assert.deepEqual(
      proxy.requests
        .filter((r) => r.path.startsWith("/v20180820/"))
        .map((r) => `${r.method} ${decodedPath(r)}`),
      [`GET ${arnPath(name)}`],
    );
  });

  test("read: the four configurations S3 Express keeps, never one of the 17 it lacks", async () => {
    const name = uniqueName();
    answerAsS3Express(name, { team: "shop" });
    const read = await readBucket(client, { name });
    assert.ok(read.found);
    assert.deepEqual(read.bucket, {
      name,
      region,
      encryption: {
        rules: [{ applyServerSideEncryptionByDefault: { sseAlgorithm: "AES256" }, bucketKeyEnabled: true }],
      },
      tagging: { tagSet: [{ key: "team", value: "shop" }] },
    });
    assert.deepEqual(subresourcesAsked(name), ["encryption", "lifecycle", "policy"]);
    // S3 Control gets the account (x-amz-account-id) and the bucket's s3express ARN.
    const listTags = proxy.requests.find((r) => r.fault === "ListTagsForResource");
    assert.equal(decodedPath(listTags), arnPath(name));
    assert.equal(listTags?.headers["x-amz-account-id"], account);
  });

  test("update: tags through S3 Control (TagResource the changed, UntagResource the removed), policy and lifecycle through S3", async () => {
    const name = uniqueName();
    const owner = { [ownershipTagKeys.owner]: "shop/fast" };
    answerAsS3Express(name, { team: "shop", old: "x", ...owner });
    const observed = await readBucket(client, { name });
    assert.ok(observed.found);
    proxy.addFault({
      name: "PutBucketPolicy",
      match: (r) => r.method === "PUT" && onBucket(r, name) && query(r).has("policy"),
      respond: { answer: { status: 204 } },
    });
    proxy.addFault({
      name: "PutBucketLifecycleConfiguration",
      match: (r) => r.method === "PUT" && onBucket(r, name) && query(r).has("lifecycle"),
      respond: { answer: { status: 200 } },
    });
    proxy.clearRecording();
    const policy = `{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Principal":"*","Action":"s3express:CreateSession","Resource":"arn:aws:s3express:${region}:${account}:bucket/${name}"}]}`;
    const desired = directorySpec(name, {
      tagging: { tagSet: [{ key: "team", value: "fast" }] },
      policy,
      lifecycle: {
        rules: [
          {
            id: "abort",
            status: "Enabled",
            filter: { prefix: "/logs/" },
            abortIncompleteMultipartUpload: { daysAfterInitiation: 5 },
          },
        ],
      },
    });
    const applied = await updateBucket(client, desired, observed.bucket, owner);
    assert.deepEqual(applied.map((d) => d.path).sort(), ["spec.lifecycle", "spec.policy", "spec.tagging"]);
    const sent = proxy.requests.map((r) => r.fault);
    assert.deepEqual([...sent].sort(), [
      "PutBucketLifecycleConfiguration",
      "PutBucketPolicy",
      "TagResource",
      "UntagResource",
    ]);
    const tag = proxy.requests.find((r) => r.fault === "TagResource");
    assert.equal(decodedPath(tag).split("?")[0], arnPath(name));
    assert.match(tag?.body ?? "", /<Tag><Key>team<\/Key><Value>fast<\/Value><\/Tag>/);
    assert.doesNotMatch(tag?.body ?? "", /services.k8s.aws\/owner/, "an unchanged tag is not sent again");
    const untag = proxy.requests.find((r) => r.fault === "UntagResource");
    assert.equal(
      query(untag ?? { path: "" })
        .getAll("tagKeys")
        .join(","),
      "old",
    );
    const put = proxy.requests.find((r) => r.fault === "PutBucketPolicy");
    assert.equal(put?.body, policy);
    assert.equal(put?.headers["x-amz-confirm-remove-self-bucket-access"], undefined);
  });

  test("claim: TagResource adds the ownership tags; crossrole's earlier keys are untagged", async () => {
    const name = uniqueName();
    answerAsS3Express(name, { team: "shop", "crossrole.dev/owner": "shop/fast" });
    const observed = await readBucket(client, { name });
    assert.ok(observed.found);
    proxy.clearRecording();
    await claimBucket(client, observed.bucket, { [ownershipTagKeys.owner]: "shop/fast" });
    assert.deepEqual(
      proxy.requests.map((r) => r.fault),
      ["TagResource", "UntagResource"],
    );
    assert.match(
      proxy.requests[0]?.body ?? "",
      /<Key>services.k8s.aws\/owner<\/Key><Value>shop\/fast<\/Value>/,
    );
    assert.equal(
      query(proxy.requests[1] ?? { path: "" })
        .getAll("tagKeys")
        .join(","),
      "crossrole.dev/owner",
    );
  });

  test("a create without the Directory type and zone (a spec admitted as an update) is refused before any call", async () => {
    const name = uniqueName();
    const err = await createBucket(client, bucketSpecSchema.parse({ name }) as BucketFields, region).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(isBucketError(err), String(err));
    assert.equal(err.disposition, "terminal");
    assert.equal(err.field, "spec.createBucketConfiguration");
    assert.match(err.message, /S3 creates one only with bucket.type Directory and a location/);
    assert.deepEqual(proxy.requests, []);
  });
});
