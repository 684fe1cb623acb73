// The Bucket kind as a declaration (CONTRIBUTING.md, "How a kind is made"): CreateBucket's input, plus each bucket
// sub-resource ACK's s3-controller manages as one spec field whose value is the sub-resource's
// whole configuration (`lifecycle` is PutBucketLifecycleConfiguration's LifecycleConfiguration).
import type { KindDeclaration } from "../../codegen/declaration.ts";

const grants = ["GrantFullControl", "GrantRead", "GrantReadACP", "GrantWrite", "GrantWriteACP"];

/** A configuration S3 holds whole: compared by its canonical form (configuration-groups.ts). */
const configuration = { custom: "as S3 would behave: IDs S3 made up and S3's defaults are none" };

/** The configurations S3 keeps one per ID: listed 100 a page, put and deleted by ID. */
const perId = ["Analytics", "IntelligentTiering", "Inventory", "Metrics"] as const;

/** Where S3 has no call for it: unsupported in a region, read as none (ACK reads them so). */
const unsupported = ["MethodNotAllowed", "UnsupportedArgument"];

/**
 * S3's IAM actions where they are not the call's name: a Delete is its Put's action, a per-ID
 * list's calls are `s3:Get/Put<X>Configuration`, and these.
 */
const iamActions = {
  HeadBucket: "s3:ListBucket",
  ListBuckets: "s3:ListAllMyBuckets",
  DeleteBucketTagging: "s3:PutBucketTagging",
  GetBucketEncryption: "s3:GetEncryptionConfiguration",
  PutBucketEncryption: "s3:PutEncryptionConfiguration",
  GetPublicAccessBlock: "s3:GetBucketPublicAccessBlock",
  PutPublicAccessBlock: "s3:PutBucketPublicAccessBlock",
  DeletePublicAccessBlock: "s3:PutBucketPublicAccessBlock",
  DeleteBucketOwnershipControls: "s3:PutBucketOwnershipControls",
  GetObjectLockConfiguration: "s3:GetBucketObjectLockConfiguration",
  PutObjectLockConfiguration: "s3:PutBucketObjectLockConfiguration",
  GetBucketAccelerateConfiguration: "s3:GetAccelerateConfiguration",
  PutBucketAccelerateConfiguration: "s3:PutAccelerateConfiguration",
  GetBucketCors: "s3:GetBucketCORS",
  PutBucketCors: "s3:PutBucketCORS",
  DeleteBucketCors: "s3:PutBucketCORS",
  GetBucketLifecycleConfiguration: "s3:GetLifecycleConfiguration",
  PutBucketLifecycleConfiguration: "s3:PutLifecycleConfiguration",
  DeleteBucketLifecycle: "s3:PutLifecycleConfiguration",
  GetBucketNotificationConfiguration: "s3:GetBucketNotification",
  PutBucketNotificationConfiguration: "s3:PutBucketNotification",
  GetBucketReplication: "s3:GetReplicationConfiguration",
  PutBucketReplication: "s3:PutReplicationConfiguration",
  DeleteBucketReplication: "s3:PutReplicationConfiguration",
  ...Object.fromEntries(
    perId.flatMap((x) => [
      [`ListBucket${x}Configurations`, `s3:Get${x}Configuration`],
      [`PutBucket${x}Configuration`, `s3:Put${x}Configuration`],
      [`DeleteBucket${x}Configuration`, `s3:Put${x}Configuration`],
    ]),
  ),
};

const locationHint = " (the S3 client's region and the bucket's LocationConstraint disagree)";

export const bucketDeclaration = {
  service: "s3",
  kind: "Bucket",
  identifier: "Bucket",
  immutable: ["Bucket", "CreateBucketConfiguration", "BucketNamespace"],
  lateInitialized: ["OwnershipControls", "PublicAccessBlock", "Encryption", "Versioning"],
  terminalCodes: [
    "InvalidBucketName",
    "BucketAlreadyExists",
    "InvalidLocationConstraint",
    "IllegalLocationConstraintException",
    "IncompatibleLocationConstraint",
    "PermanentRedirect",
    "MalformedXML",
    "MalformedPolicy",
    "InvalidTag",
    "InvalidArgument",
    "InvalidRequest",
    "InvalidEncryptionAlgorithmError",
    "InvalidBucketState",
  ],
  spec: [
    { members: "CreateBucketRequest" },
    { field: "Abac", from: "PutBucketAbac.AbacStatus" },
    { field: "Accelerate", from: "PutBucketAccelerateConfiguration.AccelerateConfiguration" },
    {
      field: "Analytics",
      listOf: "AnalyticsConfiguration",
      doc: "The bucket's analytics configurations (storage class analysis), one per ID.",
    },
    { field: "CORS", from: "PutBucketCors.CORSConfiguration" },
    { field: "Encryption", from: "PutBucketEncryption.ServerSideEncryptionConfiguration" },
    {
      field: "IntelligentTiering",
      listOf: "IntelligentTieringConfiguration",
      doc: "The bucket's S3 Intelligent-Tiering configurations, one per ID.",
    },
    {
      field: "Inventory",
      listOf: "InventoryConfiguration",
      doc: "The bucket's inventory configurations, one per ID.",
    },
    { field: "Lifecycle", from: "PutBucketLifecycleConfiguration.LifecycleConfiguration" },
    { field: "Logging", from: "PutBucketLogging.BucketLoggingStatus" },
    {
      field: "Metrics",
      listOf: "MetricsConfiguration",
      doc: "The bucket's CloudWatch request metrics configurations, one per ID.",
    },
    { field: "Notification", from: "PutBucketNotificationConfiguration.NotificationConfiguration" },
    { field: "ObjectLockConfiguration", from: "PutObjectLockConfiguration.ObjectLockConfiguration" },
    { field: "OwnershipControls", from: "PutBucketOwnershipControls.OwnershipControls" },
    { field: "Policy", from: "PutBucketPolicy.Policy" },
    { field: "PublicAccessBlock", from: "PutPublicAccessBlock.PublicAccessBlockConfiguration" },
    { field: "Replication", from: "PutBucketReplication.ReplicationConfiguration" },
    { field: "RequestPayment", from: "PutBucketRequestPayment.RequestPaymentConfiguration" },
    { field: "Tagging", from: "PutBucketTagging.Tagging" },
    { field: "Versioning", from: "PutBucketVersioning.VersioningConfiguration" },
    { field: "Website", from: "PutBucketWebsite.WebsiteConfiguration" },
  ],
  renames: {
    Bucket: "name",
    BucketNamespace: "namespace",
    // ACK's Go field tag for the grantee's XML type attribute.
    "Logging.LoggingEnabled.TargetGrants.Grantee.Type": "type_",
  },
  create: "CreateBucket",
  // Each sub-resource is its own Put (and Get, and Delete where S3 has one), in the order they
  // are applied: ownership controls before the ACL (S3 refuses ACLs while BucketOwnerEnforced),
  // the public access block before the policy and the ACL, versioning before replication and
  // object lock, which need it. The configurations compare by configuration-groups.ts's
  // canonical forms: an ID S3 made up is no difference, and S3's default is none.
  groups: [
    {
      set: "PutBucketOwnershipControls",
      read: "GetBucketOwnershipControls",
      remove: "DeleteBucketOwnershipControls",
      notFound: ["OwnershipControlsNotFoundError"],
      fields: { OwnershipControls: { custom: "objectOwnership stands for it when it is not set" } },
    },
    {
      set: "PutPublicAccessBlock",
      read: "GetPublicAccessBlock",
      remove: "DeletePublicAccessBlock",
      notFound: ["NoSuchPublicAccessBlockConfiguration"],
      fields: { PublicAccessBlock: { custom: "a flag left out is not blocked" } },
    },
    {
      set: "PutBucketAcl",
      read: "GetBucketAcl",
      fields: { ACL: { custom: "the canned ACL and the grant fields, as the grants S3 reports" } },
    },
    {
      set: "PutBucketEncryption",
      read: "GetBucketEncryption",
      notFound: ["ServerSideEncryptionConfigurationNotFoundError"],
      fields: { Encryption: { custom: "bucketKeyEnabled left out is false; a KMS key left out is S3's" } },
    },
    {
      set: "PutBucketVersioning",
      read: "GetBucketVersioning",
      fields: { Versioning: { custom: "never versioned is Suspended" } },
    },
    {
      set: "PutObjectLockConfiguration",
      read: "GetObjectLockConfiguration",
      notFound: ["ObjectLockConfigurationNotFoundError"],
      fields: {
        ObjectLockConfiguration: { custom: "Object Lock stays on; no rule is no default retention" },
      },
    },
    {
      set: "PutBucketReplication",
      read: "GetBucketReplication",
      remove: "DeleteBucketReplication",
      notFound: ["ReplicationConfigurationNotFoundError"],
      // S3 refuses to suspend versioning while replication is on: a removal goes first.
      removeFirst: true,
      fields: { Replication: configuration },
    },
    {
      set: "PutBucketTagging",
      read: "GetBucketTagging",
      remove: "DeleteBucketTagging",
      notFound: ["NoSuchTagSet"],
      fields: { Tagging: { form: "tags" } },
    },
    {
      set: "PutBucketPolicy",
      read: "GetBucketPolicy",
      remove: "DeleteBucketPolicy",
      notFound: ["NoSuchBucketPolicy"],
      fields: { Policy: { form: "document" } },
    },
    {
      set: "PutBucketAbac",
      read: "GetBucketAbac",
      notFound: unsupported,
      noneAs: { AbacStatus: { Status: "Disabled" } },
      fields: { Abac: configuration },
    },
    {
      set: "PutBucketAccelerateConfiguration",
      read: "GetBucketAccelerateConfiguration",
      notFound: unsupported,
      noneAs: { AccelerateConfiguration: { Status: "Suspended" } },
      fields: { Accelerate: configuration },
    },
    {
      set: "PutBucketCors",
      read: "GetBucketCors",
      remove: "DeleteBucketCors",
      notFound: ["NoSuchCORSConfiguration"],
      fields: { CORS: configuration },
    },
    {
      set: "PutBucketLifecycleConfiguration",
      read: "GetBucketLifecycleConfiguration",
      remove: "DeleteBucketLifecycle",
      notFound: ["NoSuchLifecycleConfiguration"],
      fields: { Lifecycle: configuration },
    },
    {
      set: "PutBucketLogging",
      read: "GetBucketLogging",
      // An empty logging status turns logging off: S3 has no call to remove it.
      noneAs: { BucketLoggingStatus: {} },
      fields: { Logging: configuration },
    },
    {
      set: "PutBucketNotificationConfiguration",
      read: "GetBucketNotificationConfiguration",
      noneAs: { NotificationConfiguration: {} },
      fields: { Notification: configuration },
    },
    {
      set: "PutBucketRequestPayment",
      read: "GetBucketRequestPayment",
      noneAs: { RequestPaymentConfiguration: { Payer: "BucketOwner" } },
      fields: { RequestPayment: configuration },
    },
    {
      set: "PutBucketWebsite",
      read: "GetBucketWebsite",
      remove: "DeleteBucketWebsite",
      notFound: ["NoSuchWebsiteConfiguration"],
      fields: { Website: configuration },
    },
    ...perId.map((kind) => ({
      set: `PutBucket${kind}Configuration`,
      read: `ListBucket${kind}Configurations`,
      remove: `DeleteBucket${kind}Configuration`,
      items: {
        id: "Id",
        member: `${kind}Configuration`,
        list: `${kind}ConfigurationList`,
        page: { input: "ContinuationToken", output: "NextContinuationToken", more: "IsTruncated" },
      },
      fields: { [kind]: { custom: "one configuration per ID, in any order" } },
    })),
  ],
  notCompared: {
    ...Object.fromEntries(grants.map((g) => [g, "compared with acl: one PutBucketAcl sets both"])),
    ObjectLockEnabledForBucket: "compared with objectLockConfiguration",
    ObjectOwnership: "compared as ownershipControls, which it stands for while that is not set",
  },
  references: [
    { field: "Replication.Role", service: "iam", kind: "Role", fills: "arn" },
    // Not in ACK's CRD (its S3 controller has no reference to a key): a bucket encrypted with a
    // served Key names it as the other kinds do, by its ARN (S3 takes an ID or an ARN).
    {
      field: "Encryption.Rules.ApplyServerSideEncryptionByDefault.KMSMasterKeyID",
      service: "kms",
      kind: "Key",
      fills: "arn",
    },
  ],
  runtime: {
    // Principals in accounts the namespace is not granted are warned of or refused (the bucket policy).
    principals: ["Policy"],
    service: "S3",
    noun: "bucket",
    // HeadBucket answers one bucket's region: the answer is the bucket (bucket.ts finds its region).
    read: { call: "HeadBucket", groupsAtOnce: true },
    arnScope: "global",
    arnResource: "",
    delete: "DeleteBucket",
    notFound: ["NoSuchBucket", "NotFound"],
    alreadyExists: ["BucketAlreadyOwnedByYou"],
    tags: {
      resource: "Bucket",
      by: "identifier",
      replace: true,
      list: "TagSet",
      // S3 tags a general purpose bucket at creation (s3:TagResource): ownership is never missing.
      inCreate: "CreateBucketConfiguration.Tags",
    },
    // What S3 decides on a new bucket: its tags (in us-east-1 a 200 may be for a bucket another
    // writer made a moment before) and the defaults it gives (real S3's SSE-S3, BucketOwnerEnforced,
    // public access blocks). A new bucket is never versioned and has no policy or configuration.
    afterCreate: {
      read: ["PutBucketTagging", "PutBucketEncryption", "PutPublicAccessBlock", "PutBucketOwnershipControls"],
    },
    appliedAtOnce: true,
    // Directory buckets (S3 Express One Zone, directory-bucket.ts): found by ListDirectoryBuckets,
    // as ACK does (HeadBucket would go to the zone with a CreateSession, a permission ACK's users
    // never granted); four configurations; tags kept by S3 Control on the s3express ARN.
    variants: {
      directory: {
        suffix: "--x-s3",
        groups: ["PutBucketEncryption", "PutBucketLifecycleConfiguration", "PutBucketPolicy"],
        read: {
          call: "ListDirectoryBuckets",
          output: "Buckets",
          answerId: "Name",
          region: "BucketRegion",
          page: { input: "ContinuationToken", output: "ContinuationToken" },
        },
        arn: { service: "s3express", resource: "bucket/" },
        iamService: "s3express",
        tags: {
          service: "s3control",
          read: "ListTagsForResource",
          set: "TagResource",
          remove: "UntagResource",
          resource: "ResourceArn",
          account: "AccountId",
          list: "Tags",
          keys: "TagKeys",
        },
        afterCreate: { read: ["PutBucketEncryption"] },
      },
    },
    // The ACL waits for the first update: in us-east-1 a CreateBucket answered 200 may be for a
    // bucket that is not ours, whose tags the reconciler checks before writing to it.
    notInCreate: ["ACL", ...grants],
    createField: "Bucket",
    // S3's own hints say what to fix.
    refusedValue: [],
    // HEAD answers have no body: S3 means these by their status.
    codeAliases: {
      HTTP301: "PermanentRedirect",
      HTTP403: "AccessDenied",
      HTTP404: "NotFound",
      IllegalLocationConstraint: "IllegalLocationConstraintException",
    },
    iamActions,
    hints: {
      InvalidBucketName: ' (spec.name "{name}" is not a valid S3 bucket name; choose another name)',
      BucketAlreadyExists:
        ' (spec.name "{name}" is taken by another AWS account: bucket names are global across all accounts; choose another name)',
      PermanentRedirect: " (the bucket lives in another region than the one reconciled)",
      IllegalLocationConstraintException: locationHint,
      InvalidLocationConstraint: locationHint,
      IncompatibleLocationConstraint: locationHint,
      BucketNotEmpty:
        " (S3 deletes only empty buckets: empty it, or set the deletion policy to retain; retrying)",
      AccessDenied:
        " (the identity lacks {action} on this bucket, or the bucket is owned by another account; retrying)",
      NoSuchBucket: " (S3 may not show a new bucket everywhere yet; retrying)",
    },
  },
  notes: {
    Bucket: "Immutable: S3 cannot rename a bucket.",
    // AWS documents neither (an empty paragraph in the model).
    "Logging.LoggingEnabled.TargetGrants.Grantee.DisplayName":
      "The grantee's display name, as S3 reports it; S3 sets it, it is not used to grant.",
    "Logging.LoggingEnabled.TargetGrants.Grantee.EmailAddress":
      "The grantee's email address (type AmazonCustomerByEmail; only in the Regions that still accept it).",
    CreateBucketConfiguration:
      "Immutable: used by CreateBucket only. The bucket is created in the resource's region; a locationConstraint naming another region is refused.",
    BucketNamespace: "Immutable: used by CreateBucket only.",
    ObjectLockEnabledForBucket:
      "Sent with CreateBucket; set later, Object Lock is turned on (the bucket must be versioned). It cannot be removed: S3 never turns Object Lock off.",
    ObjectOwnership:
      "Sent with CreateBucket and kept as the bucket's ownership controls while ownershipControls is not set.",
    ACL: "Applied with PutBucketAcl. Removed from the spec (with no grants), the bucket's ACL is reset to private.",
    ...Object.fromEntries(
      grants.map((g) => [
        g,
        "Applied with PutBucketAcl, together with the other grant fields. Removed from the spec (with no acl), the bucket's ACL is reset to private.",
      ]),
    ),
    Abac: "Removed from the spec, ABAC is disabled (S3's default).",
    Accelerate: "Removed from the spec, transfer acceleration is suspended (S3 cannot remove it).",
    RequestPayment: "Removed from the spec, the bucket owner pays again (S3's default).",
    Logging: "Removed from the spec, logging is turned off.",
    Notification: "Removed from the spec, every notification is removed.",
    ObjectLockConfiguration:
      "Removed from the spec, the default retention is removed; Object Lock itself stays on (S3 cannot turn it off).",
    Versioning: "Left out, S3's value is kept and copied into the spec: it can be suspended, not removed.",
    Encryption: "Left out, S3's value is kept and copied into the spec: S3 always encrypts.",
    PublicAccessBlock: "Left out, S3's value is kept and copied into the spec; all four false removes it.",
    OwnershipControls: "Left out, S3's value is kept and copied into the spec; no rules removes them.",
    Policy: 'Removed from the spec (or ""), the bucket policy is removed.',
    Tagging: "Removed from the spec, the bucket's tags are removed (crossrole's ownership tags stay).",
  },
} as const satisfies KindDeclaration;
