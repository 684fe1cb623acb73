// ACK's `op_type` label of ack_outbound_api_requests_total for an AWS operation. ACK's generated
// code passes it by hand at each call (rm.metrics.RecordAPICall("READ_ONE", "DescribeTable", err));
// crossrole counts every call in one SDK middleware, so the type is derived from the operation's
// name with the same vocabulary ACK's code generator and hooks use:
//   CREATE, DELETE          Create…, Delete… (ACK's s3 hooks: DeleteBucketPolicy is DELETE too)
//   GET_ATTRIBUTES          Get…Attributes (SQS GetQueueAttributes, SNS GetTopicAttributes)
//   SET_ATTRIBUTES          Set…Attributes
//   READ_MANY               the list reads ACK's resource managers use as ReadMany: each served
//                           kind's `ack.readMany` in src/services/catalog.ts, passed in
//   READ_ONE                any other read: Describe…, Get…, Head…, List…; and STS, which ACK
//                           does not count (AssumeRole reads credentials, it changes no resource)
//   UPDATE                  every other write: Put…, Update…, Modify…, Tag…/Untag…, …Tags…
export type AckOpType =
  | "CREATE"
  | "DELETE"
  | "READ_ONE"
  | "READ_MANY"
  | "UPDATE"
  | "GET_ATTRIBUTES"
  | "SET_ATTRIBUTES";

/**
 * `operation` is the SDK's operation name without "Command" ("CreateBucket"); `readMany`, the
 * operations ACK's resource managers read many with ("DescribeDBInstances").
 */
export function ackOpType(service: string, operation: string, readMany: ReadonlySet<string>): AckOpType {
  if (service === "sts") return "READ_ONE";
  if (/^Get\w*Attributes$/.test(operation)) return "GET_ATTRIBUTES";
  if (/^Set\w*Attributes$/.test(operation)) return "SET_ATTRIBUTES";
  if (readMany.has(operation)) return "READ_MANY";
  if (/^(Describe|Get|Head|List)[A-Z]/.test(operation)) return "READ_ONE";
  if (/^Create[A-Z]/.test(operation)) return "CREATE";
  if (/^Delete[A-Z]/.test(operation)) return "DELETE";
  return "UPDATE";
}

/** Whether an operation of this type changes something in AWS (what the audit log records). */
export function isWrite(type: AckOpType): boolean {
  return type !== "READ_ONE" && type !== "READ_MANY" && type !== "GET_ATTRIBUTES";
}
