// The Bucket kind as a declaration (DESIGN §7): CreateBucket's input, plus each bucket
// sub-resource ACK's s3-controller manages as one spec field whose value is the sub-resource's
// whole configuration (`lifecycle` is PutBucketLifecycleConfiguration's LifecycleConfiguration).
import type { KindDeclaration } from "../../codegen/declaration.ts";

export const bucketDeclaration = {
  service: "s3",
  kind: "Bucket",
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
} as const satisfies KindDeclaration;
