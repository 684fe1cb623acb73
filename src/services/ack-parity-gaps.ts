// The field paths of ACK's CRDs that crossrole's CRDs do not have yet (issue 20 removes them
// kind by kind, each with its mapping, drift and tests). A path covers everything under it.
// ack-parity.test.ts fails when a path of ACK's is missing and not listed here, and when a
// listed path is no longer missing: the list only shrinks, and says exactly what is left.
export const ackParityGaps: Readonly<Record<string, readonly string[]>> = {
  "s3.services.k8s.aws_buckets": [],
  "sqs.services.k8s.aws_queues": [],
  "sns.services.k8s.aws_topics": [],
  "dynamodb.services.k8s.aws_tables": [],
  "rds.services.k8s.aws_dbinstances": [],
  "rds.services.k8s.aws_dbsubnetgroups": [],
};
