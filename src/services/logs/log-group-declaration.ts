// The LogGroup kind as a declaration (CONTRIBUTING.md, "How a kind is made"): CreateLogGroup's
// input with ACK's names, the retention policy and the subscription filters ACK's
// cloudwatchlogs-controller manages by their own calls, and ACK's status from DescribeLogGroups.
import type { KindDeclaration } from "../../codegen/declaration.ts";

export const logGroupDeclaration = {
  service: "logs",
  kind: "LogGroup",
  identifier: "logGroupName",
  immutable: ["logGroupName"],
  // ACK's terminal code (its generator.yaml), and CloudWatch Logs' refusals of a value.
  terminalCodes: ["InvalidParameter", "LimitExceeded", "Validation"],
  spec: [
    // ACK leaves out the log group class (fixed at creation, and not in its CRD).
    { members: "CreateLogGroupRequest", only: ["logGroupName", "kmsKeyId", "tags"] },
    { field: "retentionDays", from: "PutRetentionPolicy.retentionInDays" },
    {
      field: "subscriptionFilters",
      listOf: "PutSubscriptionFilterRequest",
      // The log group is the resource's own; ACK leaves out the transformed-logs switch too.
      ignore: ["logGroupName", "applyOnTransformedLogs"],
      doc: "The log group's subscription filters, each by its name: each sends the log events that match its pattern to its destination (a Kinesis stream, a Firehose stream, a Lambda function or a cross-account destination).",
    },
  ],
  renames: { logGroupName: "name" },
  references: [{ field: "kmsKeyId", service: "kms", kind: "Key", fills: "arn" }],
  notes: {
    logGroupName: "Immutable: CloudWatch Logs cannot rename a log group.",
    kmsKeyId:
      "Removed from the spec, the log group's key is disassociated (new log data is no longer encrypted with it).",
    retentionDays:
      "Removed from the spec, the retention policy is deleted: the log group's events never expire.",
    subscriptionFilters:
      "Each filter is set by its name; a filter removed from the spec is deleted. A filter's distribution left out is ByLogStream (CloudWatch Logs' default).",
    tags: "Removed from the spec, the log group's tags are removed (crossrole's ownership tags stay).",
  },
  create: "CreateLogGroup",
  groups: [
    {
      set: "AssociateKmsKey",
      remove: "DisassociateKmsKey",
      read: "DescribeLogGroups",
      fields: { kmsKeyId: {} },
    },
    {
      set: "PutRetentionPolicy",
      remove: "DeleteRetentionPolicy",
      read: "DescribeLogGroups",
      fields: { retentionDays: {} },
    },
    {
      set: "PutSubscriptionFilter",
      remove: "DeleteSubscriptionFilter",
      read: "DescribeSubscriptionFilters",
      items: {
        id: "filterName",
        list: "subscriptionFilters",
        page: { input: "nextToken", output: "nextToken" },
        defaults: { distribution: "ByLogStream" },
      },
      fields: { subscriptionFilters: { form: "set" } },
    },
    {
      set: "TagResource",
      remove: "UntagResource",
      read: "ListTagsForResource",
      fields: { tags: { form: "tags" } },
    },
  ],
  status: {
    from: "LogGroup",
    only: ["creationTime", "dataProtectionStatus", "metricFilterCount", "retentionInDays", "storedBytes"],
  },
  runtime: {
    service: "CloudWatch Logs",
    noun: "log group",
    // DescribeLogGroups takes a name prefix (its list of identifiers takes names or ARNs, and the
    // emulator ignores it): every log group whose name starts so is listed, page by page, until
    // the one of the resource's name shows; only that one is kept.
    read: {
      call: "DescribeLogGroups",
      output: "logGroups",
      by: "logGroupNamePrefix",
      page: { input: "nextToken", output: "nextToken" },
      groupsAtOnce: true,
    },
    appliedAtOnce: true,
    delete: "DeleteLogGroup",
    // `arn` ends in ":*" (the log group's streams); the tag calls take the log group's own.
    arn: "logGroupArn",
    arnResource: "log-group:",
    notFound: ["ResourceNotFound"],
    alreadyExists: ["ResourceAlreadyExists"],
    tags: { resource: "resourceArn", keys: "tagKeys", list: "tags" },
    errorFields: { LimitExceeded: "subscriptionFilters" },
    hints: {
      LimitExceeded:
        " (a log group holds at most two subscription filters; remove one from spec.subscriptionFilters)",
    },
  },
} as const satisfies KindDeclaration;
