import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ackFieldName, wordsOf } from "./ack-names.ts";

// Pairs read from ACK's CRDs of the served kinds (AWS member → ACK field name).
const ackPairs: readonly (readonly [string, string])[] = [
  ["QueueName", "queueName"],
  ["KmsMasterKeyId", "kmsMasterKeyID"],
  ["KMSMasterKeyID", "kmsMasterKeyID"],
  ["SqsManagedSseEnabled", "sqsManagedSSEEnabled"],
  ["VpcSecurityGroupIds", "vpcSecurityGroupIDs"],
  ["DBInstanceClass", "dbInstanceClass"],
  ["DBName", "dbName"],
  ["CACertificateIdentifier", "caCertificateIdentifier"],
  ["CAIdentifier", "cAIdentifier"],
  ["FQDN", "fQDN"],
  ["URI", "uRI"],
  ["ACL", "acl"],
  ["CORSRules", "corsRules"],
  ["SSEKMS", "sseKMS"],
  ["SSEAlgorithm", "sseAlgorithm"],
  ["BlockPublicAcls", "blockPublicACLs"],
  ["ReplicaKmsKeyID", "replicaKMSKeyID"],
  ["QueueUrl", "queueURL"],
  ["EnableCustomerOwnedIp", "enableCustomerOwnedIP"],
  ["PreSignedUrl", "preSignedURL"],
  ["IAMDatabaseAuthenticationEnabled", "iamDatabaseAuthenticationEnabled"],
  ["DbiResourceId", "dbiResourceID"],
  ["HTTPSuccessFeedbackRoleArn", "httpSuccessFeedbackRoleARN"],
  ["SQSFailureFeedbackRoleArn", "sqsFailureFeedbackRoleARN"],
  ["MFADelete", "mfaDelete"],
];

describe("ackFieldName", () => {
  for (const [aws, ack] of ackPairs) {
    it(`${aws} → ${ack}`, () => assert.equal(ackFieldName(aws), ack));
  }
});

describe("wordsOf", () => {
  it("splits capitals runs into initialisms and keeps digits with their word", () => {
    assert.deepEqual(wordsOf("DBInstanceClass"), ["DB", "Instance", "Class"]);
    assert.deepEqual(wordsOf("SSEKMS"), ["SSE", "KMS"]);
    assert.deepEqual(wordsOf("Ec2SecurityGroup"), ["Ec2", "Security", "Group"]);
  });
});
