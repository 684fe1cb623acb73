// The Bucket kind as a declaration (CONTRIBUTING.md, "How a kind is made"): CreateBucket's input, plus each bucket
// sub-resource ACK's s3-controller manages as one spec field whose value is the sub-resource's
// whole configuration (`lifecycle` is PutBucketLifecycleConfiguration's LifecycleConfiguration).
import type { KindDeclaration } from "../../codegen/declaration.ts";

const grants = ["GrantFullControl", "GrantRead", "GrantReadACP", "GrantWrite", "GrantWriteACP"];

/** A configuration S3 holds whole: compared by its canonical form (configuration-groups.ts). */
const configuration = { custom: "as S3 would behave: IDs S3 made up and S3's defaults are none" };

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
      fields: { OwnershipControls: { custom: "objectOwnership stands for it when it is not set" } },
    },
    {
      set: "PutPublicAccessBlock",
      read: "GetPublicAccessBlock",
      remove: "DeletePublicAccessBlock",
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
      fields: {
        ObjectLockConfiguration: { custom: "Object Lock stays on; no rule is no default retention" },
      },
    },
    {
      set: "PutBucketReplication",
      read: "GetBucketReplication",
      remove: "DeleteBucketReplication",
      fields: { Replication: configuration },
    },
    {
      set: "PutBucketTagging",
      read: "GetBucketTagging",
      remove: "DeleteBucketTagging",
      fields: { Tagging: { form: "tags" } },
    },
    {
      set: "PutBucketPolicy",
      read: "GetBucketPolicy",
      remove: "DeleteBucketPolicy",
      fields: { Policy: { form: "document" } },
    },
    { set: "PutBucketAbac", read: "GetBucketAbac", fields: { Abac: configuration } },
    {
      set: "PutBucketAccelerateConfiguration",
      read: "GetBucketAccelerateConfiguration",
      fields: { Accelerate: configuration },
    },
    {
      set: "PutBucketCors",
      read: "GetBucketCors",
      remove: "DeleteBucketCors",
      fields: { CORS: configuration },
    },
    {
      set: "PutBucketLifecycleConfiguration",
      read: "GetBucketLifecycleConfiguration",
      remove: "DeleteBucketLifecycle",
      fields: { Lifecycle: configuration },
    },
    { set: "PutBucketLogging", read: "GetBucketLogging", fields: { Logging: configuration } },
    {
      set: "PutBucketNotificationConfiguration",
      read: "GetBucketNotificationConfiguration",
      fields: { Notification: configuration },
    },
    {
      set: "PutBucketRequestPayment",
      read: "GetBucketRequestPayment",
      fields: { RequestPayment: configuration },
    },
    {
      set: "PutBucketWebsite",
      read: "GetBucketWebsite",
      remove: "DeleteBucketWebsite",
      fields: { Website: configuration },
    },
    ...(["Analytics", "IntelligentTiering", "Inventory", "Metrics"] as const).map((kind) => ({
      set: `PutBucket${kind}Configuration`,
      read: `ListBucket${kind}Configurations`,
      remove: `DeleteBucket${kind}Configuration`,
      fields: { [kind]: { custom: "one configuration per ID, in any order" } },
    })),
  ],
  notCompared: {
    ...Object.fromEntries(grants.map((g) => [g, "compared with acl: one PutBucketAcl sets both"])),
    ObjectLockEnabledForBucket: "compared with objectLockConfiguration",
    ObjectOwnership: "compared as ownershipControls, which it stands for while that is not set",
  },
  references: [{ field: "Replication.Role", service: "iam", kind: "Role" }],
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
