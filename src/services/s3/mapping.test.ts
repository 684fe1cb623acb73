import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  arnOf,
  bucketTags,
  createBucketInput,
  encryptionFromAws,
  ownershipControlsFromAws,
  policyFromAws,
  publicAccessBlockFromAws,
  putBucketEncryptionInput,
  putBucketOwnershipControlsInput,
  putBucketTaggingInput,
  putBucketVersioningInput,
  putPublicAccessBlockInput,
  taggingFromAws,
  userTagging,
  versioningFromAws,
} from "./mapping.ts";

describe("createBucketInput", () => {
  test("names no LocationConstraint in us-east-1 (S3 rejects it there)", () => {
    assert.deepEqual(createBucketInput("b1", "us-east-1"), { Bucket: "b1" });
  });
  test("names the region as LocationConstraint everywhere else", () => {
    assert.deepEqual(createBucketInput("b1", "eu-west-1"), {
      Bucket: "b1",
      CreateBucketConfiguration: { LocationConstraint: "eu-west-1" },
    });
  });
  test("carries the tags in the create call itself, in every region", () => {
    assert.deepEqual(createBucketInput("b1", "us-east-1", { "services.k8s.aws/owner-uid": "u1" }), {
      Bucket: "b1",
      CreateBucketConfiguration: { Tags: [{ Key: "services.k8s.aws/owner-uid", Value: "u1" }] },
    });
    assert.deepEqual(createBucketInput("b1", "eu-west-1", { team: "shop" }), {
      Bucket: "b1",
      CreateBucketConfiguration: { LocationConstraint: "eu-west-1", Tags: [{ Key: "team", Value: "shop" }] },
    });
  });
});

describe("bucket tags and ownership tags", () => {
  const owner = { "services.k8s.aws/owner-uid": "u1", "services.k8s.aws/owner": "Bucket/shop/a" };
  test("the set written is the user's tags plus the ownership tags", () => {
    assert.deepEqual(bucketTags({ tagSet: [{ key: "team", value: "shop" }] }, owner), {
      team: "shop",
      ...owner,
    });
  });
  test("ownership tags win over a user tag of the same key (admission refuses those; defence in depth)", () => {
    assert.deepEqual(
      bucketTags({ tagSet: [{ key: "services.k8s.aws/owner-uid", value: "forged" }] }, owner),
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
  test("tags become Key/Value pairs", () => {
    assert.deepEqual(putBucketTaggingInput("b1", { team: "shop" }), {
      Bucket: "b1",
      Tagging: { TagSet: [{ Key: "team", Value: "shop" }] },
    });
  });

  test("versioning status", () => {
    assert.deepEqual(putBucketVersioningInput("b1", { status: "Suspended" }), {
      Bucket: "b1",
      VersioningConfiguration: { Status: "Suspended" },
    });
  });

  test("encryption sends only the fields the spec sets", () => {
    assert.deepEqual(
      putBucketEncryptionInput("b1", {
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
      putBucketEncryptionInput("b1", {
        rules: [
          {
            applyServerSideEncryptionByDefault: { sseAlgorithm: "aws:kms", kmsMasterKeyID: "alias/k" },
            bucketKeyEnabled: true,
          },
        ],
      }).ServerSideEncryptionConfiguration?.Rules,
      [
        {
          ApplyServerSideEncryptionByDefault: { SSEAlgorithm: "aws:kms", KMSMasterKeyID: "alias/k" },
          BucketKeyEnabled: true,
        },
      ],
    );
  });

  test("public access block sends all four flags, absent ones as false", () => {
    assert.deepEqual(
      putPublicAccessBlockInput("b1", { blockPublicPolicy: true }).PublicAccessBlockConfiguration,
      {
        BlockPublicAcls: false,
        IgnorePublicAcls: false,
        BlockPublicPolicy: true,
        RestrictPublicBuckets: false,
      },
    );
  });

  test("ownership controls", () => {
    assert.deepEqual(
      putBucketOwnershipControlsInput("b1", { rules: [{ objectOwnership: "ObjectWriter" }] })
        .OwnershipControls,
      { Rules: [{ ObjectOwnership: "ObjectWriter" }] },
    );
  });
});

describe("answers → spec", () => {
  test("no tags, never-versioned, no policy read back as absent", () => {
    assert.equal(taggingFromAws({ TagSet: [] }), undefined);
    assert.equal(taggingFromAws({}), undefined);
    assert.equal(versioningFromAws({}), undefined);
    assert.equal(policyFromAws({ Policy: "" }), undefined);
  });

  test("tags, versioning and policy read back in spec form", () => {
    assert.deepEqual(taggingFromAws({ TagSet: [{ Key: "a", Value: "" }] }), {
      tagSet: [{ key: "a", value: "" }],
    });
    assert.deepEqual(versioningFromAws({ Status: "Enabled" }), { status: "Enabled" });
    assert.equal(policyFromAws({ Policy: "{}" }), "{}");
  });

  test("S3's default encryption (SSE-S3, bucket key off) reads back with bucketKeyEnabled false", () => {
    assert.deepEqual(
      encryptionFromAws({
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

  test("an encryption rule with an algorithm crossrole does not know is left out", () => {
    assert.equal(
      encryptionFromAws({
        ServerSideEncryptionConfiguration: {
          Rules: [{ ApplyServerSideEncryptionByDefault: { SSEAlgorithm: "SSE-C" as never } }],
        },
      }),
      undefined,
    );
  });

  test("public access block flags S3 leaves out read back as false", () => {
    assert.deepEqual(
      publicAccessBlockFromAws({ PublicAccessBlockConfiguration: { BlockPublicAcls: true } }),
      {
        blockPublicACLs: true,
        blockPublicPolicy: false,
        ignorePublicACLs: false,
        restrictPublicBuckets: false,
      },
    );
    assert.equal(publicAccessBlockFromAws({}), undefined);
  });

  test("ownership controls", () => {
    assert.deepEqual(
      ownershipControlsFromAws({
        OwnershipControls: { Rules: [{ ObjectOwnership: "BucketOwnerEnforced" }] },
      }),
      {
        rules: [{ objectOwnership: "BucketOwnerEnforced" }],
      },
    );
    assert.equal(ownershipControlsFromAws({ OwnershipControls: { Rules: [] } }), undefined);
  });
});
