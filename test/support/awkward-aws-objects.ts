// AWS objects with the values AWS (here the emulator) hands back that a spec or status must
// still record, made out of band in one account per served kind: AWS's defaults, KMS keys of
// another account and aliases, FIFO variants, policies AWS writes itself, suspended versioning,
// and a few values crossrole's schema must refuse (a limit beyond the schema's). Used by
// test/integration/observed-writeback.test.ts, which writes what the controller would write back
// for each and checks the apiserver agrees with the controller's own check. A new kind adds its
// cases here (the test fails for a served kind without any).
import {
  CloudWatchLogsClient,
  CreateLogGroupCommand,
  PutRetentionPolicyCommand,
  PutSubscriptionFilterCommand,
} from "@aws-sdk/client-cloudwatch-logs";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  AssociateVpcCidrBlockCommand,
  AuthorizeSecurityGroupIngressCommand,
  CreateSecurityGroupCommand,
  CreateSubnetCommand,
  CreateVpcCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
  EC2Client,
  ModifySubnetAttributeCommand,
  ModifyVpcAttributeCommand,
} from "@aws-sdk/client-ec2";
import {
  CreateRepositoryCommand,
  ECRClient,
  PutLifecyclePolicyCommand,
  SetRepositoryPolicyCommand,
} from "@aws-sdk/client-ecr";
import {
  AttachRolePolicyCommand,
  CreatePolicyCommand,
  CreatePolicyVersionCommand,
  CreateRoleCommand,
  IAMClient,
  PutRolePolicyCommand,
} from "@aws-sdk/client-iam";
import {
  CreateAliasCommand,
  CreateKeyCommand,
  EnableKeyRotationCommand,
  KMSClient,
} from "@aws-sdk/client-kms";
import {
  CreateFunctionCommand,
  type CreateFunctionRequest,
  LambdaClient,
  PutFunctionConcurrencyCommand,
  PutFunctionEventInvokeConfigCommand,
} from "@aws-sdk/client-lambda";
import {
  CreateDBClusterCommand,
  CreateDBClusterParameterGroupCommand,
  CreateDBInstanceCommand,
  CreateDBParameterGroupCommand,
  CreateDBSubnetGroupCommand,
  ModifyDBClusterParameterGroupCommand,
  ModifyDBParameterGroupCommand,
  RDSClient,
} from "@aws-sdk/client-rds";
import {
  CreateBucketCommand,
  PutBucketEncryptionCommand,
  PutBucketOwnershipControlsCommand,
  PutBucketVersioningCommand,
  PutPublicAccessBlockCommand,
} from "@aws-sdk/client-s3";
import {
  CreateSecretCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from "@aws-sdk/client-secrets-manager";
import { CreateTopicCommand, SNSClient } from "@aws-sdk/client-sns";
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { clientAs, credentialsFor, s3As } from "../../src/local-stack/accounts.ts";
import { region } from "../../src/local-stack/controller-process.ts";
import { defaultSubnets } from "../../src/local-stack/default-subnets.ts";
import { ensureExecutionRole, executionRoleArn } from "../../src/local-stack/execution-role.ts";
import { lambdaPackage } from "./lambda-package.ts";

/** A KMS key in an account other than the object's (SSE with a central team's key). */
export const otherAccountsKey = "arn:aws:kms:us-east-1:222222222222:key/1234abcd-12ab-34cd-56ef-1234567890ab";

export interface AwkwardCase {
  readonly title: string;
  /** The AWS name to use: `base` with the kind's own suffix (a FIFO queue's ".fifo"). */
  readonly name?: (base: string) => string;
  /**
   * Makes the object, as the account itself, at `endpoint`; the ID AWS assigned it, for a kind
   * named so (a KMS key).
   */
  make(endpoint: string, account: string, name: string): Promise<unknown>;
  /** The resource's spec beside the kind's minimal one (what its manifest says). */
  readonly spec?: Readonly<Record<string, unknown>>;
  /**
   * What AWS may answer that the emulator cannot be made to: applied to what the module read.
   * Such cases test that the controller's check and the apiserver agree, not the mapping.
   */
  readonly answer?: (observed: Record<string, unknown>) => Record<string, unknown>;
  /** False where crossrole's schema must refuse the value: both the check and the apiserver. */
  readonly recordable?: boolean;
}

const queueCases: AwkwardCase[] = [
  {
    title: "SQS's defaults",
    make: async (endpoint, account, name) => {
      await (await clientAs(SQSClient, endpoint, account)).send(new CreateQueueCommand({ QueueName: name }));
    },
  },
  {
    title: "a KMS key of another account (the emulator also answers SqsManagedSseEnabled true)",
    spec: { kmsMasterKeyID: otherAccountsKey },
    make: async (endpoint, account, name) => {
      await (await clientAs(SQSClient, endpoint, account)).send(
        new CreateQueueCommand({ QueueName: name, Attributes: { KmsMasterKeyId: otherAccountsKey } }),
      );
    },
  },
  {
    title: "a KMS alias",
    spec: { kmsMasterKeyID: "alias/aws/sqs" },
    make: async (endpoint, account, name) => {
      await (await clientAs(SQSClient, endpoint, account)).send(
        new CreateQueueCommand({ QueueName: name, Attributes: { KmsMasterKeyId: "alias/aws/sqs" } }),
      );
    },
  },
  {
    title: "FIFO with content-based deduplication, a dead-letter queue and a policy",
    name: (base) => `${base}.fifo`,
    spec: { fifoQueue: "true" },
    make: async (endpoint, account, name) => {
      const sqs = await clientAs(SQSClient, endpoint, account);
      const dlq = await sqs.send(
        new CreateQueueCommand({
          QueueName: `${name.replace(/\.fifo$/, "")}-dlq.fifo`,
          Attributes: { FifoQueue: "true" },
        }),
      );
      const dlqArn = (
        await sqs.send(
          new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ["QueueArn"] }),
        )
      ).Attributes?.["QueueArn"];
      await sqs.send(
        new CreateQueueCommand({
          QueueName: name,
          Attributes: {
            FifoQueue: "true",
            ContentBasedDeduplication: "true",
            RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: "5" }),
            Policy: JSON.stringify({
              Version: "2012-10-17",
              Statement: [
                {
                  Effect: "Allow",
                  Principal: { AWS: "arn:aws:iam::222222222222:root" },
                  Action: "sqs:SendMessage",
                  Resource: "*",
                },
              ],
            }),
          },
        }),
      );
    },
  },
  {
    title: "a VisibilityTimeout beyond the schema's 43200 s (a limit AWS could raise)",
    recordable: false,
    make: async (endpoint, account, name) => {
      await (await clientAs(SQSClient, endpoint, account)).send(
        new CreateQueueCommand({ QueueName: name, Attributes: { VisibilityTimeout: "50000" } }),
      );
    },
  },
  {
    title: "SSE-SQS reported on beside a KMS key, as the emulator does (no longer read so)",
    recordable: false,
    spec: { kmsMasterKeyID: otherAccountsKey },
    // The generic runtime's observation holds the spec fields under `fields`.
    answer: (observed) => ({
      ...observed,
      fields: { ...(observed["fields"] as Record<string, unknown>), sqsManagedSSEEnabled: "true" },
    }),
    make: async (endpoint, account, name) => {
      await (await clientAs(SQSClient, endpoint, account)).send(
        new CreateQueueCommand({ QueueName: name, Attributes: { KmsMasterKeyId: otherAccountsKey } }),
      );
    },
  },
];

const topicCases: AwkwardCase[] = [
  {
    title: "SNS's defaults (its own access policy, effective delivery policy)",
    make: async (endpoint, account, name) => {
      await (await clientAs(SNSClient, endpoint, account)).send(new CreateTopicCommand({ Name: name }));
    },
  },
  {
    title: "a KMS key of another account",
    spec: { kmsMasterKeyID: otherAccountsKey },
    make: async (endpoint, account, name) => {
      await (await clientAs(SNSClient, endpoint, account)).send(
        new CreateTopicCommand({ Name: name, Attributes: { KmsMasterKeyId: otherAccountsKey } }),
      );
    },
  },
  {
    title: "FIFO with content-based deduplication and an HTTP delivery policy",
    name: (base) => `${base}.fifo`,
    spec: { fifoTopic: "true" },
    make: async (endpoint, account, name) => {
      await (await clientAs(SNSClient, endpoint, account)).send(
        new CreateTopicCommand({
          Name: name,
          Attributes: {
            FifoTopic: "true",
            ContentBasedDeduplication: "true",
            DeliveryPolicy: JSON.stringify({
              http: { defaultHealthyRetryPolicy: { numRetries: 5, minDelayTarget: 1, maxDelayTarget: 60 } },
            }),
          },
        }),
      );
    },
  },
];

const bucketCases: AwkwardCase[] = [
  {
    title: "S3's defaults",
    make: async (endpoint, account, name) => {
      await (await s3As(endpoint, account)).send(new CreateBucketCommand({ Bucket: name }));
    },
  },
  {
    title: "SSE-S3 by default, as AWS answers for every bucket since 2023 (the emulator reports none)",
    answer: (observed) => ({
      ...observed,
      encryption: {
        rules: [{ applyServerSideEncryptionByDefault: { sseAlgorithm: "AES256" }, bucketKeyEnabled: false }],
      },
    }),
    make: async (endpoint, account, name) => {
      await (await s3As(endpoint, account)).send(new CreateBucketCommand({ Bucket: name }));
    },
  },
  {
    title: "SSE-KMS with another account's key and a bucket key",
    make: async (endpoint, account, name) => {
      const s3 = await s3As(endpoint, account);
      await s3.send(new CreateBucketCommand({ Bucket: name }));
      await s3.send(
        new PutBucketEncryptionCommand({
          Bucket: name,
          ServerSideEncryptionConfiguration: {
            Rules: [
              {
                ApplyServerSideEncryptionByDefault: {
                  SSEAlgorithm: "aws:kms",
                  KMSMasterKeyID: otherAccountsKey,
                },
                BucketKeyEnabled: true,
              },
            ],
          },
        }),
      );
    },
  },
  {
    title: "versioning suspended, owner-enforced ownership, every public access block on",
    make: async (endpoint, account, name) => {
      const s3 = await s3As(endpoint, account);
      await s3.send(new CreateBucketCommand({ Bucket: name }));
      await s3.send(
        new PutBucketVersioningCommand({ Bucket: name, VersioningConfiguration: { Status: "Enabled" } }),
      );
      await s3.send(
        new PutBucketVersioningCommand({ Bucket: name, VersioningConfiguration: { Status: "Suspended" } }),
      );
      await s3.send(
        new PutBucketOwnershipControlsCommand({
          Bucket: name,
          OwnershipControls: { Rules: [{ ObjectOwnership: "BucketOwnerEnforced" }] },
        }),
      );
      await s3.send(
        new PutPublicAccessBlockCommand({
          Bucket: name,
          PublicAccessBlockConfiguration: {
            BlockPublicAcls: true,
            IgnorePublicAcls: true,
            BlockPublicPolicy: true,
            RestrictPublicBuckets: true,
          },
        }),
      );
    },
  },
];

const key = [{ AttributeName: "id", KeyType: "HASH" as const }];
const keyAttribute = [{ AttributeName: "id", AttributeType: "S" as const }];

const tableCases: AwkwardCase[] = [
  {
    title: "on demand, DynamoDB's defaults",
    make: async (endpoint, account, name) => {
      await (await clientAs(DynamoDBClient, endpoint, account)).send(
        new CreateTableCommand({
          TableName: name,
          KeySchema: key,
          AttributeDefinitions: keyAttribute,
          BillingMode: "PAY_PER_REQUEST",
        }),
      );
    },
  },
  {
    title: "SSE with another account's KMS key",
    make: async (endpoint, account, name) => {
      await (await clientAs(DynamoDBClient, endpoint, account)).send(
        new CreateTableCommand({
          TableName: name,
          KeySchema: key,
          AttributeDefinitions: keyAttribute,
          BillingMode: "PAY_PER_REQUEST",
          SSESpecification: { Enabled: true, SSEType: "KMS", KMSMasterKeyId: otherAccountsKey },
        }),
      );
    },
  },
  {
    title: "provisioned, with a stream, an index and deletion protection",
    spec: {
      billingMode: "PROVISIONED",
      provisionedThroughput: { readCapacityUnits: 5, writeCapacityUnits: 5 },
      attributeDefinitions: [
        { attributeName: "id", attributeType: "S" },
        { attributeName: "sk", attributeType: "N" },
      ],
    },
    make: async (endpoint, account, name) => {
      await (await clientAs(DynamoDBClient, endpoint, account)).send(
        new CreateTableCommand({
          TableName: name,
          KeySchema: key,
          AttributeDefinitions: [...keyAttribute, { AttributeName: "sk", AttributeType: "N" }],
          BillingMode: "PROVISIONED",
          ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
          StreamSpecification: { StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" },
          DeletionProtectionEnabled: true,
          GlobalSecondaryIndexes: [
            {
              IndexName: "by-sk",
              KeySchema: [{ AttributeName: "sk", KeyType: "HASH" }],
              Projection: { ProjectionType: "KEYS_ONLY" },
              ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
            },
          ],
        }),
      );
    },
  },
];

const dbInstanceCases: AwkwardCase[] = [
  {
    title: "postgres with RDS's defaults",
    make: async (endpoint, account, name) => {
      await (await clientAs(RDSClient, endpoint, account)).send(
        new CreateDBInstanceCommand({
          DBInstanceIdentifier: name,
          DBInstanceClass: "db.t3.micro",
          Engine: "postgres",
          AllocatedStorage: 20,
          MasterUsername: "crossrole",
          MasterUserPassword: "test-password-1",
        }),
      );
    },
  },
  {
    title: "mysql, gp3, encrypted with another account's key, multi-AZ, deletion protection",
    spec: { engine: "mysql" },
    make: async (endpoint, account, name) => {
      await (await clientAs(RDSClient, endpoint, account)).send(
        new CreateDBInstanceCommand({
          DBInstanceIdentifier: name,
          DBInstanceClass: "db.t3.micro",
          Engine: "mysql",
          AllocatedStorage: 20,
          StorageType: "gp3",
          StorageEncrypted: true,
          KmsKeyId: otherAccountsKey,
          MultiAZ: true,
          DeletionProtection: true,
          BackupRetentionPeriod: 0,
          MasterUsername: "crossrole",
          MasterUserPassword: "test-password-1",
          DBName: "shop",
        }),
      );
    },
  },
];

/** The cases by kind name; region: every case is made there. */
/** The subnets the out-of-band group was made over: its spec names them (see spec below). */
let subnetGroupSubnets: string[] = [];

const dbSubnetGroupCases: AwkwardCase[] = [
  {
    title: "over two of the account's default subnets, with a tag and a description of its own",
    make: async (endpoint, account, name) => {
      const { accessKeyId } = await credentialsFor(endpoint, account);
      subnetGroupSubnets = (await defaultSubnets(endpoint, accessKeyId, region)).slice(0, 2);
      await (await clientAs(RDSClient, endpoint, account)).send(
        new CreateDBSubnetGroupCommand({
          DBSubnetGroupName: name,
          DBSubnetGroupDescription: "made by another tool",
          SubnetIds: subnetGroupSubnets,
          Tags: [{ Key: "cost-center", Value: "42" }],
        }),
      );
    },
    // Read after make(): the subnets it was made over.
    get spec() {
      return { subnetIDs: subnetGroupSubnets };
    },
  },
];

const repositoryCases: AwkwardCase[] = [
  {
    title: "ECR's defaults: AES256, scanning off, mutable tags",
    make: async (endpoint, account, name) => {
      await (await clientAs(ECRClient, endpoint, account)).send(
        new CreateRepositoryCommand({ repositoryName: name }),
      );
    },
  },
  {
    title: "a KMS key of another account, immutable tags with exclusions, scanning on, both policies",
    spec: {
      encryptionConfiguration: { encryptionType: "KMS", kmsKey: otherAccountsKey },
      imageTagMutability: "IMMUTABLE_WITH_EXCLUSION",
    },
    make: async (endpoint, account, name) => {
      const ecr = await clientAs(ECRClient, endpoint, account);
      await ecr.send(
        new CreateRepositoryCommand({
          repositoryName: name,
          encryptionConfiguration: { encryptionType: "KMS", kmsKey: otherAccountsKey },
          imageTagMutability: "IMMUTABLE_WITH_EXCLUSION",
          imageTagMutabilityExclusionFilters: [{ filterType: "WILDCARD", filter: "latest*" }],
          imageScanningConfiguration: { scanOnPush: true },
        }),
      );
      await ecr.send(
        new PutLifecyclePolicyCommand({
          repositoryName: name,
          lifecyclePolicyText: JSON.stringify({
            rules: [
              {
                rulePriority: 1,
                selection: { tagStatus: "any", countType: "imageCountMoreThan", countNumber: 100 },
                action: { type: "expire" },
              },
            ],
          }),
        }),
      );
      await ecr.send(
        new SetRepositoryPolicyCommand({
          repositoryName: name,
          policyText: JSON.stringify({
            Version: "2012-10-17",
            Statement: [
              { Effect: "Allow", Principal: { AWS: "arn:aws:iam::222222222222:root" }, Action: "ecr:*" },
            ],
          }),
        }),
      );
    },
  },
];

const logGroupCases: AwkwardCase[] = [
  {
    title: "CloudWatch Logs' defaults: no retention, no key, no filters",
    make: async (endpoint, account, name) => {
      await (await clientAs(CloudWatchLogsClient, endpoint, account)).send(
        new CreateLogGroupCommand({ logGroupName: name }),
      );
    },
  },
  {
    title: "a KMS key of another account, a retention, a subscription filter with AWS's distribution",
    spec: { kmsKeyID: otherAccountsKey, retentionDays: 3653 },
    make: async (endpoint, account, name) => {
      const logs = await clientAs(CloudWatchLogsClient, endpoint, account);
      await logs.send(new CreateLogGroupCommand({ logGroupName: `${name}-destination` }));
      await logs.send(new CreateLogGroupCommand({ logGroupName: name, kmsKeyId: otherAccountsKey }));
      await logs.send(new PutRetentionPolicyCommand({ logGroupName: name, retentionInDays: 3653 }));
      await logs.send(
        new PutSubscriptionFilterCommand({
          logGroupName: name,
          filterName: "all",
          filterPattern: "",
          destinationArn: `arn:aws:logs:${region}:${account}:log-group:${name}-destination`,
        }),
      );
    },
  },
];

const trustEc2 = JSON.stringify({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "sts:AssumeRole" }],
});

const roleCases: AwkwardCase[] = [
  {
    title: "IAM's defaults: path /, an hour's sessions, no policies",
    spec: { assumeRolePolicyDocument: trustEc2 },
    make: async (endpoint, account, name) => {
      await (await clientAs(IAMClient, endpoint, account)).send(
        new CreateRoleCommand({ RoleName: name, AssumeRolePolicyDocument: trustEc2 }),
      );
    },
  },
  {
    title: "a path, twelve-hour sessions, a managed policy, an inline policy, a boundary",
    spec: { assumeRolePolicyDocument: trustEc2, path: "/team/", maxSessionDuration: 43200 },
    make: async (endpoint, account, name) => {
      const iam = await clientAs(IAMClient, endpoint, account);
      const readOnly = JSON.stringify({
        Version: "2012-10-17",
        Statement: [{ Effect: "Allow", Action: "s3:GetObject", Resource: "*" }],
      });
      const made = await iam.send(
        new CreatePolicyCommand({ PolicyName: `${name}-read`, PolicyDocument: readOnly }),
      );
      const policy = made.Policy?.Arn ?? "";
      await iam.send(
        new CreateRoleCommand({
          RoleName: name,
          Path: "/team/",
          MaxSessionDuration: 43200,
          AssumeRolePolicyDocument: trustEc2,
          PermissionsBoundary: policy,
        }),
      );
      await iam.send(new AttachRolePolicyCommand({ RoleName: name, PolicyArn: policy }));
      await iam.send(
        new PutRolePolicyCommand({ RoleName: name, PolicyName: "read", PolicyDocument: readOnly }),
      );
    },
  },
];

const policyCases: AwkwardCase[] = [
  {
    title: "a path, a description, three versions with the second the default",
    // The ARN every call takes holds the path: the spec of a policy under one names it.
    spec: { path: "/team/" },
    make: async (endpoint, account, name) => {
      const iam = await clientAs(IAMClient, endpoint, account);
      const document = (action: string) =>
        JSON.stringify({
          Version: "2012-10-17",
          Statement: [{ Effect: "Allow", Action: action, Resource: "*" }],
        });
      const made = await iam.send(
        new CreatePolicyCommand({
          PolicyName: name,
          Path: "/team/",
          Description: "awkward",
          PolicyDocument: document("s3:GetObject"),
        }),
      );
      const arn = made.Policy?.Arn ?? "";
      await iam.send(
        new CreatePolicyVersionCommand({
          PolicyArn: arn,
          PolicyDocument: document("s3:ListBucket"),
          SetAsDefault: true,
        }),
      );
      await iam.send(
        new CreatePolicyVersionCommand({ PolicyArn: arn, PolicyDocument: document("s3:PutObject") }),
      );
    },
  },
];

const secretCases: AwkwardCase[] = [
  {
    title: "a description, a binary value, a tag, a second version staged AWSCURRENT",
    spec: {},
    make: async (endpoint, account, name) => {
      const sm = await clientAs(SecretsManagerClient, endpoint, account);
      await sm.send(
        new CreateSecretCommand({
          Name: name,
          Description: "awkward",
          SecretBinary: new Uint8Array([1, 2, 3]),
          Tags: [{ Key: "team", Value: "shop" }],
        }),
      );
      await sm.send(new PutSecretValueCommand({ SecretId: name, SecretString: "second" }));
    },
  },
];

/** An alias made as the account itself, pointing at a new key of its own; the key's ID. */
async function makeAlias(endpoint: string, account: string, aliasName: string): Promise<string> {
  const kms = await clientAs(KMSClient, endpoint, account);
  const key = (await kms.send(new CreateKeyCommand({ Description: aliasName }))).KeyMetadata?.KeyId ?? "";
  await kms.send(new CreateAliasCommand({ AliasName: aliasName, TargetKeyId: key }));
  return key;
}

const aliasCases: AwkwardCase[] = [
  {
    title: "an alias named with slashes, underscores and dashes (the spec without alias/), its key by ID",
    name: (base) => `team_a/${base}-x`,
    make: async (endpoint, account, name) => {
      await makeAlias(endpoint, account, `alias/${name}`);
    },
    spec: { targetKeyRef: undefined, targetKeyID: "given-later" },
  },
  {
    title: "the spec naming it with its alias/ prefix, its key by ARN",
    name: (base) => `alias/${base}`,
    make: async (endpoint, account, name) => {
      await makeAlias(endpoint, account, name);
    },
    spec: {
      targetKeyRef: undefined,
      targetKeyID: "arn:aws:kms:us-east-1:111111111111:key/1234abcd-12ab-34cd-56ef-1234567890ab",
    },
  },
];

const keyCases: AwkwardCase[] = [
  {
    title:
      "an asymmetric signing key (no rotation: KMS answers UnsupportedOperation), a policy, tags, rotation elsewhere",
    spec: {},
    make: async (endpoint, account, name) => {
      const kms = await clientAs(KMSClient, endpoint, account);
      const made = await kms.send(
        new CreateKeyCommand({
          Description: name,
          KeySpec: "ECC_NIST_P256",
          KeyUsage: "SIGN_VERIFY",
          Tags: [{ TagKey: "team", TagValue: "shop" }],
        }),
      );
      return made.KeyMetadata?.KeyId ?? "";
    },
  },
  {
    title: "a symmetric key with rotation on",
    spec: {},
    make: async (endpoint, account, name) => {
      const kms = await clientAs(KMSClient, endpoint, account);
      const made = await kms.send(new CreateKeyCommand({ Description: name }));
      const id = made.KeyMetadata?.KeyId ?? "";
      await kms.send(new EnableKeyRotationCommand({ KeyId: id }));
      return id;
    },
  },
];

const vpcCases: AwkwardCase[] = [
  {
    title: "a dedicated VPC with a second CIDR block, DNS hostnames on, and tags",
    spec: {
      cidrBlocks: ["10.20.0.0/16", "10.21.0.0/16"],
      instanceTenancy: "dedicated",
      enableDNSHostnames: true,
    },
    make: async (endpoint, account, name) => {
      const ec2 = await clientAs(EC2Client, endpoint, account);
      const made = await ec2.send(
        new CreateVpcCommand({
          CidrBlock: "10.20.0.0/16",
          InstanceTenancy: "dedicated",
          TagSpecifications: [{ ResourceType: "vpc", Tags: [{ Key: "Name", Value: name }] }],
        }),
      );
      const id = made.Vpc?.VpcId ?? "";
      await ec2.send(new AssociateVpcCidrBlockCommand({ VpcId: id, CidrBlock: "10.21.0.0/16" }));
      await ec2.send(new ModifyVpcAttributeCommand({ VpcId: id, EnableDnsHostnames: { Value: true } }));
      return id;
    },
  },
  {
    title: "the account's default VPC (isDefault, EC2's own 172.31.0.0/16)",
    spec: { cidrBlocks: ["172.31.0.0/16"] },
    make: async (endpoint, account) => {
      const ec2 = await clientAs(EC2Client, endpoint, account);
      const vpcs = await ec2.send(
        new DescribeVpcsCommand({ Filters: [{ Name: "is-default", Values: ["true"] }] }),
      );
      return vpcs.Vpcs?.[0]?.VpcId ?? "";
    },
  },
];

const subnetCases: AwkwardCase[] = [
  {
    title: "a subnet of the default VPC whose instances get public addresses, tagged",
    spec: { mapPublicIPOnLaunch: true },
    make: async (endpoint, account, name) => {
      const ec2 = await clientAs(EC2Client, endpoint, account);
      const vpcs = await ec2.send(
        new DescribeVpcsCommand({ Filters: [{ Name: "is-default", Values: ["true"] }] }),
      );
      const made = await ec2.send(
        new CreateSubnetCommand({
          VpcId: vpcs.Vpcs?.[0]?.VpcId,
          CidrBlock: "172.31.250.0/24",
          TagSpecifications: [{ ResourceType: "subnet", Tags: [{ Key: "Name", Value: name }] }],
        }),
      );
      const id = made.Subnet?.SubnetId ?? "";
      await ec2.send(
        new ModifySubnetAttributeCommand({ SubnetId: id, MapPublicIpOnLaunch: { Value: true } }),
      );
      return id;
    },
  },
  {
    title: "a default subnet (defaultForAZ, EC2's own)",
    spec: {},
    make: async (endpoint, account) => {
      const ec2 = await clientAs(EC2Client, endpoint, account);
      const subnets = await ec2.send(
        new DescribeSubnetsCommand({ Filters: [{ Name: "default-for-az", Values: ["true"] }] }),
      );
      return subnets.Subnets?.[0]?.SubnetId ?? "";
    },
  },
];

const securityGroupCases: AwkwardCase[] = [
  {
    title: "a group of the default VPC with EC2's default egress rule, rules by number and by group, tagged",
    spec: {},
    make: async (endpoint, account, name) => {
      const ec2 = await clientAs(EC2Client, endpoint, account);
      const vpcs = await ec2.send(
        new DescribeVpcsCommand({ Filters: [{ Name: "is-default", Values: ["true"] }] }),
      );
      const made = await ec2.send(
        new CreateSecurityGroupCommand({
          GroupName: name,
          Description: "awkward rules",
          VpcId: vpcs.Vpcs?.[0]?.VpcId,
          TagSpecifications: [{ ResourceType: "security-group", Tags: [{ Key: "team", Value: "net" }] }],
        }),
      );
      const id = made.GroupId ?? "";
      await ec2.send(
        new AuthorizeSecurityGroupIngressCommand({
          GroupId: id,
          IpPermissions: [
            {
              IpProtocol: "6",
              FromPort: 5432,
              ToPort: 5432,
              IpRanges: [{ CidrIp: "10.0.0.0/16", Description: "app" }],
            },
            { IpProtocol: "tcp", FromPort: 22, ToPort: 22, UserIdGroupPairs: [{ GroupId: id }] },
            { IpProtocol: "icmpv6", FromPort: -1, ToPort: -1, Ipv6Ranges: [{ CidrIpv6: "::/0" }] },
          ],
        }),
      );
      return id;
    },
  },
];

/** A function out of band: the local stack's execution role made first (moto checks it exists). */
async function makeFunction(endpoint: string, account: string, input: Omit<CreateFunctionRequest, "Role">) {
  const lambda = await clientAs(LambdaClient, endpoint, account);
  await ensureExecutionRole(endpoint, (await credentialsFor(endpoint, account)).accessKeyId);
  await lambda.send(new CreateFunctionCommand({ ...input, Role: executionRoleArn(account) }));
  return lambda;
}

const functionCases: AwkwardCase[] = [
  {
    title: "Lambda's defaults: 3 s, 128 MB, 512 MB of ephemeral storage, x86_64, PassThrough tracing",
    make: async (endpoint, account, name) => {
      await makeFunction(endpoint, account, {
        FunctionName: name,
        Runtime: "python3.12",
        Handler: "index.handler",
        Code: { ZipFile: Buffer.from(lambdaPackage(), "base64") },
      });
    },
  },
  {
    title:
      "an environment, a VPC, a dead-letter queue, reserved concurrency and an event invoke configuration",
    make: async (endpoint, account, name) => {
      const lambda = await makeFunction(endpoint, account, {
        FunctionName: name,
        Runtime: "python3.12",
        Handler: "index.handler",
        Description: "made out of band",
        Timeout: 900,
        MemorySize: 10240,
        Environment: { Variables: { STAGE: "prod", EMPTY: "" } },
        VpcConfig: { SubnetIds: ["subnet-0123456789abcdef0"], SecurityGroupIds: ["sg-0123456789abcdef0"] },
        DeadLetterConfig: { TargetArn: `arn:aws:sqs:${region}:${account}:dead-letters` },
        Architectures: ["arm64"],
        Code: { ZipFile: Buffer.from(lambdaPackage("def handler(e, c):\n    return 1\n"), "base64") },
      });
      await lambda.send(
        new PutFunctionConcurrencyCommand({ FunctionName: name, ReservedConcurrentExecutions: 0 }),
      );
      await lambda.send(
        new PutFunctionEventInvokeConfigCommand({
          FunctionName: name,
          MaximumRetryAttempts: 0,
          MaximumEventAgeInSeconds: 60,
          DestinationConfig: { OnFailure: { Destination: `arn:aws:sqs:${region}:${account}:failures` } },
        }),
      );
    },
    spec: {
      functionEventInvokeConfig: { maximumRetryAttempts: 0 },
      reservedConcurrentExecutions: 0,
    },
  },
];

const dbClusterCases: AwkwardCase[] = [
  {
    title: "RDS's defaults for an Aurora PostgreSQL cluster",
    make: async (endpoint, account, name) => {
      await (await clientAs(RDSClient, endpoint, account)).send(
        new CreateDBClusterCommand({
          DBClusterIdentifier: name,
          Engine: "aurora-postgresql",
          MasterUsername: "crossrole",
          MasterUserPassword: "awkward-password-1",
        }),
      );
    },
  },
  {
    title:
      "a MySQL cluster: log exports, backtracking, Serverless v2 capacity, a database name, deletion protection",
    make: async (endpoint, account, name) => {
      await (await clientAs(RDSClient, endpoint, account)).send(
        new CreateDBClusterCommand({
          DBClusterIdentifier: name,
          Engine: "aurora-mysql",
          EngineVersion: "8.0.mysql_aurora.3.05.2",
          MasterUsername: "crossrole",
          MasterUserPassword: "awkward-password-1",
          DatabaseName: "shop",
          BacktrackWindow: 3600,
          BackupRetentionPeriod: 35,
          EnableCloudwatchLogsExports: ["audit", "error", "slowquery"],
          ServerlessV2ScalingConfiguration: { MinCapacity: 0.5, MaxCapacity: 16 },
          DeletionProtection: true,
          CopyTagsToSnapshot: true,
        }),
      );
    },
    spec: { engine: "aurora-mysql", deletionProtection: true },
  },
];

const dbClusterParameterGroupCases: AwkwardCase[] = [
  {
    title: "a cluster group that sets nothing, and one that sets a parameter RDS describes whole",
    make: async (endpoint, account, name) => {
      const rds = await clientAs(RDSClient, endpoint, account);
      await rds.send(
        new CreateDBClusterParameterGroupCommand({
          DBClusterParameterGroupName: name,
          DBParameterGroupFamily: "aurora-postgresql16",
          Description: "crossrole test cluster parameters",
        }),
      );
      await rds.send(
        new ModifyDBClusterParameterGroupCommand({
          DBClusterParameterGroupName: name,
          Parameters: [
            {
              ParameterName: "rds.force_ssl",
              ParameterValue: "1",
              ApplyMethod: "pending-reboot",
              ApplyType: "static",
              DataType: "boolean",
              AllowedValues: "0,1",
              IsModifiable: true,
              Source: "user",
            },
          ],
        }),
      );
    },
    spec: { family: "aurora-postgresql16" },
  },
];

const dbParameterGroupCases: AwkwardCase[] = [
  {
    title: "a group that sets nothing",
    make: async (endpoint, account, name) => {
      await (await clientAs(RDSClient, endpoint, account)).send(
        new CreateDBParameterGroupCommand({
          DBParameterGroupName: name,
          DBParameterGroupFamily: "postgres16",
          Description: "crossrole test parameters",
        }),
      );
    },
  },
  {
    title: "parameters with RDS's whole description of each, an empty value among them",
    make: async (endpoint, account, name) => {
      const rds = await clientAs(RDSClient, endpoint, account);
      await rds.send(
        new CreateDBParameterGroupCommand({
          DBParameterGroupName: name,
          DBParameterGroupFamily: "postgres16",
          Description: "crossrole test parameters",
        }),
      );
      await rds.send(
        new ModifyDBParameterGroupCommand({
          DBParameterGroupName: name,
          Parameters: [
            {
              ParameterName: "work_mem",
              ParameterValue: "8192",
              ApplyMethod: "immediate",
              ApplyType: "dynamic",
              DataType: "integer",
              AllowedValues: "64-2147483647",
              IsModifiable: true,
              Source: "user",
              SupportedEngineModes: ["provisioned"],
            },
            { ParameterName: "search_path", ParameterValue: "", ApplyMethod: "pending-reboot" },
          ],
        }),
      );
    },
  },
];

export const awkwardCases: Readonly<Record<string, readonly AwkwardCase[]>> = {
  DBParameterGroup: dbParameterGroupCases,
  DBCluster: dbClusterCases,
  DBClusterParameterGroup: dbClusterParameterGroupCases,
  Function: functionCases,
  SecurityGroup: securityGroupCases,
  Subnet: subnetCases,
  Key: keyCases,
  Alias: aliasCases,
  VPC: vpcCases,
  LogGroup: logGroupCases,
  Secret: secretCases,
  Policy: policyCases,
  Role: roleCases,
  Repository: repositoryCases,
  Queue: queueCases,
  Topic: topicCases,
  Bucket: bucketCases,
  Table: tableCases,
  DBInstance: dbInstanceCases,
  DBSubnetGroup: dbSubnetGroupCases,
};

export { region };
