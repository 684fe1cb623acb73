// Bucket examples in identities.ts's table form: valid ones, and one invalid one per
// class of mistake. The kind's schema.test.ts (src/services/<service>/) runs them through zod and
// test/integration/s3-bucket-crd.test.ts through a real kube-apiserver with the generated CRD;
// both must reject each invalid one at `field`, which shows the zod and CEL halves agree.
// (A bucket policy that is not JSON is the one check only zod makes: CEL cannot parse JSON.)
import type { InvalidExample, ValidExample } from "./identities.ts";

type Obj = Record<string, unknown>;

export const bucketExampleNamespace = "shop";

function bucket(name: string, spec: Obj): Obj {
  return {
    apiVersion: "s3.services.k8s.aws/v1alpha1",
    kind: "Bucket",
    metadata: { name, namespace: bucketExampleNamespace },
    spec,
  };
}

const kms = (sseAlgorithm: string, kmsMasterKeyID?: string): Obj => ({
  rules: [
    { applyServerSideEncryptionByDefault: { sseAlgorithm, ...(kmsMasterKeyID ? { kmsMasterKeyID } : {}) } },
  ],
});

const directory = (name: string, zone: string, extra: Obj = {}): Obj => ({
  name,
  createBucketConfiguration: {
    bucket: { type: "Directory", dataRedundancy: "SingleAvailabilityZone" },
    location: { name: zone, type: "AvailabilityZone" },
  },
  ...extra,
});

export const bucketValidExamples: readonly ValidExample[] = [
  { title: "Bucket with only a name", object: bucket("minimal", { name: "shop-minimal" }) },
  {
    title: "Bucket with every managed field, ACK's field names, and an identityRef",
    object: bucket("full", {
      name: "shop-billing-exports",
      tagging: {
        tagSet: [
          { key: "team", value: "shop" },
          { key: "cost-center", value: "" },
        ],
      },
      versioning: { status: "Enabled" },
      encryption: {
        rules: [
          {
            applyServerSideEncryptionByDefault: {
              sseAlgorithm: "aws:kms",
              kmsMasterKeyID: "arn:aws:kms:eu-west-1:222222222222:key/1234abcd-12ab-34cd-56ef-1234567890ab",
            },
            bucketKeyEnabled: true,
          },
        ],
      },
      policy: '{"Version":"2012-10-17","Statement":[]}',
      publicAccessBlock: {
        blockPublicACLs: true,
        blockPublicPolicy: true,
        ignorePublicACLs: true,
        restrictPublicBuckets: true,
      },
      ownershipControls: { rules: [{ objectOwnership: "BucketOwnerEnforced" }] },
      identityRef: { kind: "AWSRoleIdentity", name: "central-it" },
    }),
  },
  {
    title: "Bucket with empty sub-resources (they are deleted in S3)",
    object: bucket("empty", {
      name: "shop-empty",
      tagging: { tagSet: [] },
      policy: "",
      publicAccessBlock: {},
      ownershipControls: { rules: [] },
    }),
  },
  { title: "Bucket name with digits, dots and dashes", object: bucket("dotted", { name: "1shop.assets-2" }) },
  {
    title: "Directory bucket as ACK's e2e manifest makes it (directory_bucket.yaml)",
    object: bucket("directory", directory("s3-bucket-abc123--usw2-az1--x-s3", "usw2-az1")),
  },
  {
    title: "Directory bucket with the four configurations it keeps",
    object: bucket(
      "directory-full",
      directory("shop-fast--use1-az4--x-s3", "use1-az4", {
        encryption: kms("AES256"),
        lifecycle: {
          rules: [
            {
              id: "abort",
              status: "Enabled",
              filter: { prefix: "tmp/" },
              abortIncompleteMultipartUpload: { daysAfterInitiation: 5 },
            },
          ],
        },
        policy: '{"Version":"2012-10-17","Statement":[]}',
        tagging: { tagSet: [{ key: "team", value: "shop" }] },
      }),
    ),
  },
];

export const bucketInvalidExamples: readonly InvalidExample[] = [
  {
    title: "Bucket without spec.name",
    object: bucket("no-name", { versioning: { status: "Enabled" } }),
    field: "spec.name",
    message: "name is required",
    apiserverMessage: "Required value",
  },
  {
    title: "Bucket name shorter than 3 characters",
    object: bucket("short", { name: "ab" }),
    field: "spec.name",
    message: "name must be 3-63 characters",
    apiserverMessage: "should be at least 3 chars long",
  },
  {
    title: "Bucket name with capitals and an underscore",
    object: bucket("capitals", { name: "Shop_Assets" }),
    field: "spec.name",
    message: "name must use only lowercase letters, digits, '.' and '-'",
    apiserverMessage: "should match",
  },
  {
    title: "Bucket name with two adjacent periods",
    object: bucket("periods", { name: "shop..assets" }),
    field: "spec.name",
    message: "name must not contain two adjacent periods",
  },
  {
    title: "Bucket name formatted as an IP address",
    object: bucket("ip", { name: "192.168.5.4" }),
    field: "spec.name",
    message: "name must not be formatted as an IP address",
  },
  {
    title: "Bucket name with a prefix S3 reserves",
    object: bucket("prefix", { name: "xn--shop" }),
    field: "spec.name",
    message: "name must not start with xn--",
  },
  {
    title: "Bucket name with a suffix S3 reserves",
    object: bucket("suffix", { name: "shop-s3alias" }),
    field: "spec.name",
    message: "name must not end with -s3alias",
  },
  {
    title: "Bucket tags repeating a key",
    object: bucket("dup-tags", {
      name: "shop-dup-tags",
      tagging: {
        tagSet: [
          { key: "team", value: "a" },
          { key: "team", value: "b" },
        ],
      },
    }),
    field: "spec.tagging.tagSet[1]",
    message: "tagging.tagSet must not repeat a key",
    apiserverMessage: "Duplicate value",
  },
  {
    title: "Bucket tag key reserved by AWS",
    object: bucket("aws-tag", {
      name: "shop-aws-tag",
      tagging: { tagSet: [{ key: "aws:team", value: "a" }] },
    }),
    field: "spec.tagging.tagSet[0].key",
    message: 'tagging.tagSet[].key "aws:team" is reserved: keys starting with aws:',
  },
  {
    title: "Bucket tag key that is one of crossrole's ownership tags",
    object: bucket("owner-tag", {
      name: "shop-owner-tag",
      tagging: { tagSet: [{ key: "crossrole.dev/owner-uid", value: "someone-elses-uid" }] },
    }),
    field: "spec.tagging.tagSet[0].key",
    message: 'tagging.tagSet[].key "crossrole.dev/owner-uid" is reserved',
  },
  {
    title: "Bucket tag key that is ACK's namespace tag",
    object: bucket("ack-tag", {
      name: "shop-ack-tag",
      tagging: { tagSet: [{ key: "services.k8s.aws/namespace", value: "other" }] },
    }),
    field: "spec.tagging.tagSet[0].key",
    message:
      'tagging.tagSet[].key "services.k8s.aws/namespace" is reserved: keys starting with services.k8s.aws/',
  },
  {
    title: "Bucket with more tags than S3 leaves beside the ownership tags",
    object: bucket("many-tags", {
      name: "shop-many-tags",
      tagging: { tagSet: Array.from({ length: 47 }, (_, i) => ({ key: `k${i}`, value: "v" })) },
    }),
    field: "spec.tagging.tagSet",
    message: "tagging.tagSet may hold at most 46 tags",
    apiserverMessage: "must have at most 46 items",
  },
  {
    title: "Bucket versioning status Disabled",
    object: bucket("disabled", { name: "shop-disabled", versioning: { status: "Disabled" } }),
    field: "spec.versioning.status",
    message: "versioning.status must be Enabled or Suspended",
    apiserverMessage: "Unsupported value",
  },
  {
    title: "Bucket encryption with a KMS key but AES256",
    object: bucket("aes-kms", { name: "shop-aes-kms", encryption: kms("AES256", "alias/shop") }),
    field: "spec.encryption.rules[0].applyServerSideEncryptionByDefault",
    message: "kmsMasterKeyID needs sseAlgorithm aws:kms or aws:kms:dsse",
  },
  {
    title: "Bucket encryption with two rules",
    object: bucket("two-rules", {
      name: "shop-two-rules",
      encryption: { rules: [...(kms("AES256")["rules"] as Obj[]), ...(kms("aws:kms")["rules"] as Obj[])] },
    }),
    field: "spec.encryption.rules",
    message: "encryption.rules must hold one rule",
    apiserverMessage: "must have at most 1 item",
  },
  {
    title: "Bucket ownership that S3 does not know",
    object: bucket("ownership", {
      name: "shop-ownership",
      ownershipControls: { rules: [{ objectOwnership: "Mine" }] },
    }),
    field: "spec.ownershipControls.rules[0].objectOwnership",
    message: "ownershipControls.rules[].objectOwnership must be one of",
    apiserverMessage: "Unsupported value",
  },
  {
    title: "Directory bucket name without a zone ID",
    object: bucket("directory-no-zone", directory("shop--x-s3", "usw2-az1")),
    field: "spec.name",
    message: "name of a directory bucket is <base-name>--<zone-id>--x-s3",
  },
  {
    title: "Directory bucket name with a period",
    object: bucket("directory-period", directory("shop.fast--usw2-az1--x-s3", "usw2-az1")),
    field: "spec.name",
    message: "no periods",
  },
  {
    title: "Directory bucket type with a general purpose name",
    object: bucket("directory-type-only", directory("shop-fast", "usw2-az1")),
    field: "spec.name",
    message: "createBucketConfiguration.bucket.type Directory needs a directory bucket name",
  },
  {
    title: "Directory bucket with configurations S3 Express does not keep",
    object: bucket(
      "directory-versioned",
      directory("shop-fast--usw2-az1--x-s3", "usw2-az1", {
        versioning: { status: "Enabled" },
        acl: "private",
      }),
    ),
    field: "spec.versioning",
    message: "S3 Express One Zone has no versioning; remove it",
  },
  {
    title: "Directory bucket created without its type and location",
    object: bucket("directory-bare", { name: "shop-fast--usw2-az1--x-s3" }),
    field: "spec.createBucketConfiguration",
    message: "is created with createBucketConfiguration.bucket.type Directory and a location",
    admissionOnly:
      "an existing directory bucket's spec may leave createBucketConfiguration out (ACK's tests do)",
  },
  {
    title: "Directory bucket whose location is another zone than its name's",
    object: bucket("directory-other-zone", directory("shop-fast--usw2-az1--x-s3", "usw2-az2")),
    field: "spec.createBucketConfiguration",
    message: "a location whose name is the zone ID in the bucket's name",
    admissionOnly: "a rule of the create only, like the one above",
  },
];
