import assert from "node:assert/strict";
import { test } from "node:test";
import { ackReadManyOperations as readMany } from "../services/catalog.ts";
import { ackOpType, isWrite } from "./ack-op-type.ts";

test("ACK's op_type for the operations crossrole calls (READ_MANY: the catalog's ack.readMany)", () => {
  const cases: [string, string, string][] = [
    ["s3", "CreateBucket", "CREATE"],
    ["s3", "HeadBucket", "READ_ONE"],
    ["s3", "GetBucketTagging", "READ_ONE"],
    ["s3", "ListBuckets", "READ_MANY"],
    ["s3", "PutBucketTagging", "UPDATE"],
    ["s3", "DeleteBucketPolicy", "DELETE"],
    ["s3", "DeleteBucket", "DELETE"],
    ["sqs", "GetQueueUrl", "READ_ONE"],
    ["sqs", "GetQueueAttributes", "GET_ATTRIBUTES"],
    ["sqs", "SetQueueAttributes", "SET_ATTRIBUTES"],
    ["sqs", "ListQueueTags", "READ_ONE"],
    ["sqs", "TagQueue", "UPDATE"],
    ["sqs", "UntagQueue", "UPDATE"],
    ["sns", "GetTopicAttributes", "GET_ATTRIBUTES"],
    ["sns", "SetTopicAttributes", "SET_ATTRIBUTES"],
    ["dynamodb", "DescribeTable", "READ_ONE"],
    ["dynamodb", "UpdateTimeToLive", "UPDATE"],
    ["rds", "DescribeDBInstances", "READ_MANY"],
    ["rds", "DescribeDBSubnetGroups", "READ_MANY"],
    ["rds", "ModifyDBInstance", "UPDATE"],
    ["rds", "AddTagsToResource", "UPDATE"],
    ["rds", "RemoveTagsFromResource", "UPDATE"],
    ["sts", "AssumeRole", "READ_ONE"],
    ["sts", "GetCallerIdentity", "READ_ONE"],
  ];
  for (const [service, op, type] of cases)
    assert.equal(ackOpType(service, op, readMany), type, `${service}:${op}`);
});

test("writes are what changes AWS: creates, updates, deletes, attribute and tag changes", () => {
  assert.deepEqual(
    ["CreateQueue", "TagQueue", "SetQueueAttributes", "DeleteQueue", "GetQueueAttributes", "GetQueueUrl"].map(
      (op) => isWrite(ackOpType("sqs", op, readMany)),
    ),
    [true, true, true, true, false, false],
  );
  assert.equal(isWrite(ackOpType("sts", "AssumeRole", readMany)), false);
});
