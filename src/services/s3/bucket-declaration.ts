// The Bucket kind as a declaration (DESIGN §7): CreateBucket's input, plus each bucket
// sub-resource ACK's s3-controller manages as one spec field whose value is the sub-resource's
// whole configuration (`lifecycle` is PutBucketLifecycleConfiguration's LifecycleConfiguration).
import type { KindDeclaration } from "../../codegen/declaration.ts";

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
  references: [{ field: "Replication.Role", service: "iam", kind: "Role" }],
  notes: {
    Bucket: "Immutable: S3 cannot rename a bucket.",
    CreateBucketConfiguration:
      "Immutable: used by CreateBucket only. The bucket is created in the resource's region; a locationConstraint naming another region is refused.",
    BucketNamespace: "Immutable: used by CreateBucket only.",
    ObjectLockEnabledForBucket:
      "Sent with CreateBucket; set later, Object Lock is turned on (the bucket must be versioned). It cannot be removed: S3 never turns Object Lock off.",
    ObjectOwnership:
      "Sent with CreateBucket and kept as the bucket's ownership controls while ownershipControls is not set.",
    ACL: "Applied with PutBucketAcl. Removed from the spec (with no grants), the bucket's ACL is reset to private.",
    ...Object.fromEntries(
      ["GrantFullControl", "GrantRead", "GrantReadACP", "GrantWrite", "GrantWriteACP"].map((g) => [
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
