import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
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

// ACK's CRDs of the next kinds (iam, ec2, kms, secretsmanager, ecr, lambda, cloudwatchlogs, sns,
// rds, elasticache, route53 controllers), each CRD field paired with its AWS member: the
// fixture says which releases, how they were paired, and which pairs are left out and why.
const fixture: { pairs: Record<string, [string, string][]> } = JSON.parse(
  readFileSync(join(import.meta.dirname, "../../test/fixtures/ack-names/ack-crd-pairs.json"), "utf8"),
);

describe("ackFieldName on ACK's CRDs of the next kinds", () => {
  for (const [kind, pairs] of Object.entries(fixture.pairs)) {
    it(`${kind}: ${pairs.length} fields`, () => {
      const wrong = pairs.filter(([aws, ack]) => ackFieldName(aws) !== ack);
      assert.deepEqual(
        wrong.map(([aws, ack]) => `${aws} → ${ackFieldName(aws)}, ACK has ${ack}`),
        [],
      );
    });
  }
  it("holds a few hundred pairs", () => {
    assert.ok(Object.values(fixture.pairs).flat().length >= 500);
  });
});

// ACK's rule (aws-controllers-k8s/pkg names/names.go) for words none of those CRDs has: what
// its initialism list and its "but not in" cases make of them.
const rulePairs: readonly (readonly [string, string])[] = [
  ["IdempotencyToken", "idempotencyToken"],
  ["MaxIdleConnectionsPercent", "maxIdleConnectionsPercent"],
  ["SecretString", "secretString"],
  ["LastDecreaseDateTime", "lastDecreaseDateTime"],
  ["ImageEcr", "imageECR"],
  ["EnaSupport", "enaSupport"],
  ["NativeAuditFieldsIncluded", "nativeAuditFieldsIncluded"],
  ["MultipartUpload", "multipartUpload"],
  ["IpamPoolArn", "ipamPoolARN"],
  ["IPv6Address", "ipv6Address"],
  ["HTTPSPort", "httpsPort"],
  ["HTTPSupport", "httpSupport"],
  ["IoPerformance", "ioPerformance"],
  ["ProvisionedIops", "provisionedIOPS"],
  ["OidcIssuer", "oidcIssuer"],
  ["ClientOid", "clientOID"],
  ["RamdiskId", "ramDiskID"],
  ["KernelRamdisk", "kernelRAMDisk"],
  ["AwsvpcConfiguration", "awsVPCConfiguration"],
  ["AWSVPCConfiguration", "awsVPCConfiguration"],
  ["ThroughputInMibps", "throughputInMiBps"],
  ["VpceId", "vpceID"],
  ["SaslScram512Auth", "saslSCRAM512Auth"],
  ["SecondaryGids", "secondaryGIDs"],
  ["humanTaskUiArn", "humanTaskUIARN"],
  ["ImageAmis", "imageAMIs"],
  ["MD5OfBody", "md5OfBody"],
  ["IPSetType", "ipSetType"],
  // A plural run of capitals that is no initialism keeps its capitals, as `FQDN` does.
  ["FQDNs", "fQDNs"],
];

describe("ackFieldName by ACK's rule", () => {
  for (const [aws, ack] of rulePairs) {
    it(`${aws} → ${ack}`, () => assert.equal(ackFieldName(aws), ack));
  }
});

describe("wordsOf", () => {
  it("splits capitals runs into initialisms and keeps digits with their word", () => {
    assert.deepEqual(wordsOf("DBInstanceClass"), ["DB", "Instance", "Class"]);
    assert.deepEqual(wordsOf("SSEKMS"), ["SSE", "KMS"]);
    assert.deepEqual(wordsOf("Ec2SecurityGroup"), ["Ec2", "Security", "Group"]);
  });
  it("reads IPv6 and a plural run of capitals as one word, and Ramdisk as two", () => {
    assert.deepEqual(wordsOf("PrimaryIPv6"), ["Primary", "IPv6"]);
    assert.deepEqual(wordsOf("VPCs"), ["VPCs"]);
    assert.deepEqual(wordsOf("RamdiskId"), ["Ram", "Disk", "Id"]);
  });
});
