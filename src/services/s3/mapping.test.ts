// What the Bucket's module sends for each sub-resource and how each Get answer reads in spec form:
// the module (the generic runtime serving bucket.ts) on an in-process S3 that records each
// call and answers what the test says (test/support/fake-sdk.ts). Named as the mapping functions
// these tests were first written against.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type {
  PutBucketEncryptionCommandInput,
  PutBucketOwnershipControlsCommandInput,
  PutPublicAccessBlockCommandInput,
} from "@aws-sdk/client-s3";
import { type Fields, fakeSdk, type SentCall } from "../../../test/support/fake-sdk.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import type { DeclaredClient, DeclaredObserved } from "../declared-kind/source.ts";
import { noSecrets } from "../service-module.ts";
import { tagMapOf } from "../tag-list.ts";
import { bucketService, bucketSource } from "./bucket.ts";
import type { Tagging } from "./schema.ts";

/** The calls `run` sends through the module on an in-process S3 in `region`, answering `answers`. */
async function sentBy<T>(
  run: (module: typeof bucketService, client: DeclaredClient<never>) => Promise<T>,
  answers: Readonly<Record<string, Fields>> = {},
  region = "us-east-1",
): Promise<{ sent: SentCall[]; result: T }> {
  const fake = fakeSdk((call) => answers[call.operation] ?? {});
  const module = declaredKindModule({ ...bucketSource, sdk: fake.sdk } as never) as typeof bucketService;
  const result = await run(module, { ...(fake.client as DeclaredClient<never>), region });
  return { sent: fake.sent, result };
}

const observedOf = (fields: Fields): DeclaredObserved => ({
  fields: { name: "b1", ...fields },
  tags: {},
  status: {},
  arn: "arn:aws:s3:::b1",
});

/** CreateBucket's input for a bucket tagged `tags` (the user's and the ownership tags). */
async function createBucketInput(name: string, region: string, tags: Record<string, string> = {}) {
  const { sent } = await sentBy((m, c) => m.create(c, { name }, region, tags, {}, noSecrets), {}, region);
  return sent.find((call) => call.operation === "CreateBucket")?.input;
}

/** The input of `operation` as an update sends it for `field` set to `value` where S3 has `before`. */
async function putInput<T>(
  operation: string,
  name: string,
  field: string,
  value: unknown,
  before: Fields = {},
): Promise<T> {
  const { sent } = await sentBy((m, c) =>
    m.update(c, { name, [field]: value }, observedOf(before), {}, {}, noSecrets),
  );
  return sent.find((call) => call.operation === operation)?.input as T;
}

/**
 * The tags PutBucketTagging writes for the spec's `tagging` and the ownership tags (to a bucket
 * holding another tag, so that there is a change to write).
 */
async function bucketTags(tagging: Tagging, owner: Record<string, string>) {
  const before = { ...observedOf({ tagging: { tagSet: [{ key: "old", value: "1" }] } }), tags: { old: "1" } };
  const { sent } = await sentBy((m, c) => m.update(c, { name: "b1", tagging }, before, owner, {}, noSecrets));
  const [put] = sent;
  assert.ok(put, "a tag change is written");
  const set = (put.input["Tagging"] as { TagSet: { Key: string; Value: string }[] }).TagSet;
  return Object.fromEntries(set.map((t) => [t.Key, t.Value]));
}

/** The user's part of the tags S3 reports, as adoption writes it (none: undefined). */
function userTagging(tagging: Tagging): Tagging | undefined {
  const observed = { ...observedOf({ tagging }), tags: tagMapOf(tagging.tagSet) };
  const user = (bucketService.specFromObserved(observed, { name: "b1" }) as Fields)["tagging"] as
    | Tagging
    | undefined;
  // No user tags is `{}` in the spec (ACK's adopted Bucket): none.
  return user?.tagSet === undefined ? undefined : user;
}

const arnOf = (name: string, region = "us-east-1") => bucketService.arn({ name }, region, "");

const putBucketTaggingInput = (name: string, tags: Record<string, string>) =>
  putInput<Fields>("PutBucketTagging", name, "tagging", {
    tagSet: Object.entries(tags).map(([key, value]) => ({ key, value })),
  });
// A bucket never versioned reads as Suspended: put from Enabled.
const putBucketVersioningInput = (name: string, versioning: { status: string }) =>
  putInput<Fields>("PutBucketVersioning", name, "versioning", versioning, {
    versioning: { status: "Enabled" },
  });
const putBucketEncryptionInput = (name: string, encryption: unknown) =>
  putInput<PutBucketEncryptionCommandInput>("PutBucketEncryption", name, "encryption", encryption);
const putPublicAccessBlockInput = (name: string, block: unknown) =>
  putInput<PutPublicAccessBlockCommandInput>("PutPublicAccessBlock", name, "publicAccessBlock", block);
const putBucketOwnershipControlsInput = (name: string, controls: unknown) =>
  putInput<PutBucketOwnershipControlsCommandInput>(
    "PutBucketOwnershipControls",
    name,
    "ownershipControls",
    controls,
  );

/** `field` as a read gives it when S3 answers `operation` with `answer`. */
async function fromAws(operation: string, answer: Fields, field: string): Promise<unknown> {
  const { result } = await sentBy((m, c) => m.read(c, { name: "b1" }, {}), {
    HeadBucket: { BucketRegion: "us-east-1" },
    [operation]: answer,
  });
  return result.found ? result.observed.fields[field] : undefined;
}
const taggingFromAws = (out: Fields) => fromAws("GetBucketTagging", out, "tagging");
const versioningFromAws = (out: Fields) => fromAws("GetBucketVersioning", out, "versioning");
const policyFromAws = (out: Fields) => fromAws("GetBucketPolicy", out, "policy");
const encryptionFromAws = (out: Fields) => fromAws("GetBucketEncryption", out, "encryption");
const publicAccessBlockFromAws = (out: Fields) => fromAws("GetPublicAccessBlock", out, "publicAccessBlock");
const ownershipControlsFromAws = (out: Fields) =>
  fromAws("GetBucketOwnershipControls", out, "ownershipControls");

describe("createBucketInput", () => {
  test("names no LocationConstraint in us-east-1 (S3 rejects it there)", async () => {
    assert.deepEqual(await createBucketInput("b1", "us-east-1"), { Bucket: "b1" });
  });
  test("names the region as LocationConstraint everywhere else", async () => {
    assert.deepEqual(await createBucketInput("b1", "eu-west-1"), {
      Bucket: "b1",
      CreateBucketConfiguration: { LocationConstraint: "eu-west-1" },
    });
  });
  test("carries the tags in the create call itself, in every region", async () => {
    assert.deepEqual(await createBucketInput("b1", "us-east-1", { "services.k8s.aws/owner-uid": "u1" }), {
      Bucket: "b1",
      CreateBucketConfiguration: { Tags: [{ Key: "services.k8s.aws/owner-uid", Value: "u1" }] },
    });
    assert.deepEqual(await createBucketInput("b1", "eu-west-1", { team: "shop" }), {
      Bucket: "b1",
      CreateBucketConfiguration: { LocationConstraint: "eu-west-1", Tags: [{ Key: "team", Value: "shop" }] },
    });
  });
});

describe("bucket tags and ownership tags", () => {
  const owner = { "services.k8s.aws/owner-uid": "u1", "services.k8s.aws/owner": "Bucket/shop/a" };
  test("the set written is the user's tags plus the ownership tags", async () => {
    assert.deepEqual(await bucketTags({ tagSet: [{ key: "team", value: "shop" }] }, owner), {
      team: "shop",
      ...owner,
    });
  });
  test("ownership tags win over a user tag of the same key (admission refuses those; defence in depth)", async () => {
    assert.deepEqual(
      await bucketTags({ tagSet: [{ key: "services.k8s.aws/owner-uid", value: "forged" }] }, owner),
      owner,
    );
  });
  test("the user's part of what S3 reports leaves the ownership tags out", () => {
    assert.deepEqual(
      userTagging({
        tagSet: [
          { key: "team", value: "shop" },
          { key: "services.k8s.aws/owner-uid", value: "u1" },
          { key: "services.k8s.aws/namespace", value: "shop" },
        ],
      }),
      { tagSet: [{ key: "team", value: "shop" }] },
    );
    assert.equal(userTagging({ tagSet: [{ key: "services.k8s.aws/owner", value: "x" }] }), undefined);
  });
});

describe("arnOf", () => {
  test("is arn:aws:s3:::<name>, without region or account", () => {
    assert.equal(arnOf("shop-assets"), "arn:aws:s3:::shop-assets");
    assert.equal(arnOf("shop-assets", "eu-west-1"), "arn:aws:s3:::shop-assets");
  });
  test("uses the region's partition", () => {
    assert.equal(arnOf("b1", "cn-north-1"), "arn:aws-cn:s3:::b1");
    assert.equal(arnOf("b1", "us-gov-west-1"), "arn:aws-us-gov:s3:::b1");
  });
});

describe("spec → requests", () => {
  test("tags become Key/Value pairs", async () => {
    assert.deepEqual(await putBucketTaggingInput("b1", { team: "shop" }), {
      Bucket: "b1",
      Tagging: { TagSet: [{ Key: "team", Value: "shop" }] },
    });
  });

  test("versioning status", async () => {
    assert.deepEqual(await putBucketVersioningInput("b1", { status: "Suspended" }), {
      Bucket: "b1",
      VersioningConfiguration: { Status: "Suspended" },
    });
  });

  test("encryption sends only the fields the spec sets", async () => {
    assert.deepEqual(
      await putBucketEncryptionInput("b1", {
        rules: [{ applyServerSideEncryptionByDefault: { sseAlgorithm: "AES256" } }],
      }),
      {
        Bucket: "b1",
        ServerSideEncryptionConfiguration: {
          Rules: [{ ApplyServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }],
        },
      },
    );
    assert.deepEqual(
      (
        await putBucketEncryptionInput("b1", {
          rules: [
            {
              applyServerSideEncryptionByDefault: { sseAlgorithm: "aws:kms", kmsMasterKeyID: "alias/k" },
              bucketKeyEnabled: true,
            },
          ],
        })
      ).ServerSideEncryptionConfiguration?.Rules,
      [
        {
          ApplyServerSideEncryptionByDefault: { SSEAlgorithm: "aws:kms", KMSMasterKeyID: "alias/k" },
          BucketKeyEnabled: true,
        },
      ],
    );
  });

  test("public access block sends all four flags, absent ones as false", async () => {
    assert.deepEqual(
      (await putPublicAccessBlockInput("b1", { blockPublicPolicy: true })).PublicAccessBlockConfiguration,
      {
        BlockPublicAcls: false,
        IgnorePublicAcls: false,
        BlockPublicPolicy: true,
        RestrictPublicBuckets: false,
      },
    );
  });

  test("ownership controls", async () => {
    assert.deepEqual(
      (await putBucketOwnershipControlsInput("b1", { rules: [{ objectOwnership: "ObjectWriter" }] }))
        .OwnershipControls,
      { Rules: [{ ObjectOwnership: "ObjectWriter" }] },
    );
  });
});

describe("answers → spec", () => {
  test("no tags, never-versioned, no policy read back as absent", async () => {
    assert.equal(await taggingFromAws({ TagSet: [] }), undefined);
    assert.equal(await taggingFromAws({}), undefined);
    assert.equal(await versioningFromAws({}), undefined);
    assert.equal(await policyFromAws({ Policy: "" }), undefined);
  });

  test("tags, versioning and policy read back in spec form", async () => {
    assert.deepEqual(await taggingFromAws({ TagSet: [{ Key: "a", Value: "" }] }), {
      tagSet: [{ key: "a", value: "" }],
    });
    assert.deepEqual(await versioningFromAws({ Status: "Enabled" }), { status: "Enabled" });
    assert.equal(await policyFromAws({ Policy: "{}" }), "{}");
  });

  test("S3's default encryption (SSE-S3, bucket key off) reads back with bucketKeyEnabled false", async () => {
    assert.deepEqual(
      await encryptionFromAws({
        ServerSideEncryptionConfiguration: {
          Rules: [
            { ApplyServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" }, BucketKeyEnabled: false },
          ],
        },
      }),
      {
        rules: [{ applyServerSideEncryptionByDefault: { sseAlgorithm: "AES256" }, bucketKeyEnabled: false }],
      },
    );
  });

  test("an encryption rule with an algorithm crossrole does not know is left out", async () => {
    assert.equal(
      await encryptionFromAws({
        ServerSideEncryptionConfiguration: {
          Rules: [{ ApplyServerSideEncryptionByDefault: { SSEAlgorithm: "SSE-C" as never } }],
        },
      }),
      undefined,
    );
  });

  test("public access block flags S3 leaves out read back as false", async () => {
    assert.deepEqual(
      await publicAccessBlockFromAws({ PublicAccessBlockConfiguration: { BlockPublicAcls: true } }),
      {
        blockPublicACLs: true,
        blockPublicPolicy: false,
        ignorePublicACLs: false,
        restrictPublicBuckets: false,
      },
    );
    assert.equal(await publicAccessBlockFromAws({}), undefined);
  });

  test("ownership controls", async () => {
    assert.deepEqual(
      await ownershipControlsFromAws({
        OwnershipControls: { Rules: [{ ObjectOwnership: "BucketOwnerEnforced" }] },
      }),
      {
        rules: [{ objectOwnership: "BucketOwnerEnforced" }],
      },
    );
    assert.equal(await ownershipControlsFromAws({ OwnershipControls: { Rules: [] } }), undefined);
  });
});
