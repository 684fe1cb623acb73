// The one catalog of served kinds: for each kind of src/api/kinds.ts (the compiler checks that
// every one is here, and nothing else), its service module, its CRD source and its declaration.
// Nothing else names the kinds: the served list, the module loaders, the CRDs and the generated
// modules are all read from here.
//
// Everything a kind brings is loaded on demand: `crossrole run` imports a kind's module — and with
// it that service's AWS SDK client and its generated schemas, the largest part of the process's
// code — only once a resource of the kind exists (src/controller/start.ts). A cluster with only
// Buckets never loads the RDS, DynamoDB, SNS or SQS code. The CRD sources (with the generated
// field documentation) are loaded only by generation and installation.
import { z } from "zod";
import type { CrdSource } from "../api/crd.ts";
import { identityRefSchema } from "../api/identity-ref.ts";
import type { KindName } from "../api/kinds.ts";
import type { KindDeclaration } from "../codegen/declaration.ts";
import type { DeclaredKindSource } from "./declared-kind/source.ts";
import { tableDeclaration } from "./dynamodb/table-declaration.ts";
import { securityGroupDeclaration } from "./ec2/security-group-declaration.ts";
import { subnetDeclaration } from "./ec2/subnet-declaration.ts";
import { vpcDeclaration } from "./ec2/vpc-declaration.ts";
import { repositoryDeclaration } from "./ecr/repository-declaration.ts";
import { policyDeclaration } from "./iam/policy-declaration.ts";
import { roleDeclaration } from "./iam/role-declaration.ts";
import { aliasDeclaration } from "./kms/alias-declaration.ts";
import { keyDeclaration } from "./kms/key-declaration.ts";
import { functionDeclaration } from "./lambda/function-declaration.ts";
import { logGroupDeclaration } from "./logs/log-group-declaration.ts";
import { dbClusterDeclaration } from "./rds/db-cluster-declaration.ts";
import { dbClusterParameterGroupDeclaration } from "./rds/db-cluster-parameter-group-declaration.ts";
import { dbInstanceDeclaration } from "./rds/db-instance-declaration.ts";
import { dbParameterGroupDeclaration } from "./rds/db-parameter-group-declaration.ts";
import { dbSubnetGroupDeclaration } from "./rds/db-subnet-group-declaration.ts";
import { bucketDeclaration } from "./s3/bucket-declaration.ts";
import { secretDeclaration } from "./secretsmanager/secret-declaration.ts";
import type { ServiceModule } from "./service-module.ts";
import { topicDeclaration } from "./sns/topic-declaration.ts";
import { queueDeclaration } from "./sqs/queue-declaration.ts";

// biome-ignore lint/suspicious/noExplicitAny: modules differ in their spec/observed/client types
export type AnyServiceModule = ServiceModule<any, any, any>;

export interface ServedKind {
  /** The service module the reconciler drives. */
  readonly module: () => Promise<AnyServiceModule>;
  /** The CRD source, its field descriptions from the generated schemas (AWS's documentation). */
  readonly crd: () => Promise<CrdSource>;
  /** What the kind's generated module is made from (src/codegen). */
  readonly declaration: KindDeclaration;
  /** Where the generated module goes, and its exports' prefix (`queue` → queueFieldSchemas). */
  readonly generated: { readonly path: string; readonly prefix: string };
  /** For a kind the generic runtime serves: what it serves it from (tests rebuild the module). */
  // biome-ignore lint/suspicious/noExplicitAny: the SDK client type differs by service
  readonly declared?: () => Promise<DeclaredKindSource<any>>;
  /**
   * The ACK controller release whose CRD this kind matches path by path (DESIGN §2.1: the parity
   * fixtures of scripts/ack-crd-paths.ts, the manifests of scripts/check-ack-manifests.ts), and
   * the operation ACK's resource manager reads it with when that is a ReadMany
   * (ack_outbound_api_requests_total's op_type, src/credentials/ack-op-type.ts).
   */
  readonly ack: { readonly release: string; readonly readMany?: string };
  /**
   * The local stack's inspector (src/local-stack/accounts.ts): whether the account whose
   * credentials `config` carries holds an object of this kind named `name` in `config.region`.
   */
  readonly locate: (config: InspectorConfig, name: string) => Promise<boolean>;
}

/** An SDK client's configuration as the local stack's inspectors build it. */
export interface InspectorConfig {
  readonly region: string;
  readonly endpoint: string;
  readonly credentials: {
    readonly accessKeyId: string;
    readonly secretAccessKey: string;
    readonly sessionToken?: string;
  };
}

/** `call`'s answer as found (true), or false when AWS answers with one of `codes`. */
function found(call: () => Promise<unknown>, ...codes: string[]): Promise<boolean> {
  return foundWhere(call, () => true, ...codes);
}

/**
 * Whether `call`'s answer `holds` the object (one listed by its name, one not being deleted);
 * false when AWS answers with one of `codes`.
 */
async function foundWhere<T>(
  call: () => Promise<T>,
  holds: (answer: T) => boolean,
  ...codes: string[]
): Promise<boolean> {
  try {
    return holds(await call());
  } catch (err) {
    const e = err as { name?: string; Code?: string };
    if (codes.includes(e.name ?? "") || codes.includes(e.Code ?? "")) return false;
    throw err;
  }
}

/** The CRD source with its fields described by the generated schemas, path by path. */
const documented = (source: CrdSource, fields: z.ZodRawShape): CrdSource => ({
  ...source,
  specDocumentation: z.object({ identityRef: identityRefSchema, ...fields }),
});

export const servedKindCatalog = {
  Bucket: {
    module: async () => (await import("./s3/bucket.ts")).bucketService,
    crd: async () =>
      documented(
        (await import("./s3/schema.ts")).bucketCrdSource,
        (await import("./s3/generated/bucket-fields.ts")).bucketFieldSchemas,
      ),
    declaration: bucketDeclaration,
    generated: { path: "src/services/s3/generated/bucket-fields.ts", prefix: "bucket" },
    declared: async () => (await import("./s3/bucket.ts")).bucketSource,
    ack: { release: "v1.10.0", readMany: "ListBuckets" },
    locate: async (config, name) => {
      const { S3Client, ListBucketsCommand } = await import("@aws-sdk/client-s3");
      const out = await new S3Client({ ...config, forcePathStyle: true }).send(new ListBucketsCommand({}));
      return (out.Buckets ?? []).some((b) => b.Name === name);
    },
  },
  Queue: {
    module: async () => (await import("./sqs/queue.ts")).queueService,
    crd: async () =>
      documented(
        (await import("./sqs/schema.ts")).queueCrdSource,
        (await import("./sqs/generated/queue-fields.ts")).queueFieldSchemas,
      ),
    declaration: queueDeclaration,
    generated: { path: "src/services/sqs/generated/queue-fields.ts", prefix: "queue" },
    declared: async () => (await import("./sqs/queue.ts")).queueSource,
    ack: { release: "v1.6.1" },
    locate: async (config, name) => {
      const { SQSClient, GetQueueUrlCommand } = await import("@aws-sdk/client-sqs");
      return found(
        () => new SQSClient(config).send(new GetQueueUrlCommand({ QueueName: name })),
        "QueueDoesNotExist",
        "AWS.SimpleQueueService.NonExistentQueue",
      );
    },
  },
  Topic: {
    module: async () => (await import("./sns/topic.ts")).topicService,
    crd: async () =>
      documented(
        (await import("./sns/schema.ts")).topicCrdSource,
        (await import("./sns/generated/topic-fields.ts")).topicFieldSchemas,
      ),
    declaration: topicDeclaration,
    generated: { path: "src/services/sns/generated/topic-fields.ts", prefix: "topic" },
    declared: async () => (await import("./sns/topic.ts")).topicSource,
    ack: { release: "v1.6.0" },
    locate: async (config, name) => {
      const { SNSClient, ListTopicsCommand } = await import("@aws-sdk/client-sns");
      const topics = await new SNSClient(config).send(new ListTopicsCommand({}));
      return (topics.Topics ?? []).some((t) => t.TopicArn?.endsWith(`:${name}`));
    },
  },
  Table: {
    module: async () => (await import("./dynamodb/table.ts")).tableService,
    crd: async () =>
      documented(
        (await import("./dynamodb/schema.ts")).tableCrdSource,
        (await import("./dynamodb/generated/table-fields.ts")).tableFieldSchemas,
      ),
    declaration: tableDeclaration,
    generated: { path: "src/services/dynamodb/generated/table-fields.ts", prefix: "table" },
    declared: async () => (await import("./dynamodb/table.ts")).tableSource,
    ack: { release: "v1.9.2" },
    locate: async (config, name) => {
      const { DynamoDBClient, DescribeTableCommand } = await import("@aws-sdk/client-dynamodb");
      return found(
        () => new DynamoDBClient(config).send(new DescribeTableCommand({ TableName: name })),
        "ResourceNotFoundException",
      );
    },
  },
  DBInstance: {
    module: async () => (await import("./rds/db-instance.ts")).dbInstanceService,
    crd: async () =>
      documented(
        (await import("./rds/schema.ts")).dbInstanceCrdSource,
        (await import("./rds/generated/db-instance-fields.ts")).dbInstanceFieldSchemas,
      ),
    declaration: dbInstanceDeclaration,
    generated: { path: "src/services/rds/generated/db-instance-fields.ts", prefix: "dbInstance" },
    declared: async () => (await import("./rds/db-instance.ts")).dbInstanceSource,
    ack: { release: "v1.11.1", readMany: "DescribeDBInstances" },
    locate: async (config, name) => {
      const { RDSClient, DescribeDBInstancesCommand } = await import("@aws-sdk/client-rds");
      return found(
        () => new RDSClient(config).send(new DescribeDBInstancesCommand({ DBInstanceIdentifier: name })),
        "DBInstanceNotFoundFault",
        "DBInstanceNotFound",
      );
    },
  },
  // Served by the generic runtime (src/services/declared-kind/): a declaration and its hooks.
  DBSubnetGroup: {
    module: async () => (await import("./rds/db-subnet-group.ts")).dbSubnetGroupService,
    crd: async () => (await import("./rds/db-subnet-group.ts")).dbSubnetGroupCrdSource,
    declaration: dbSubnetGroupDeclaration,
    generated: { path: "src/services/rds/generated/db-subnet-group-fields.ts", prefix: "dbSubnetGroup" },
    declared: async () => (await import("./rds/db-subnet-group.ts")).dbSubnetGroupSource,
    ack: { release: "v1.11.1", readMany: "DescribeDBSubnetGroups" },
    locate: async (config, name) => {
      const { RDSClient, DescribeDBSubnetGroupsCommand } = await import("@aws-sdk/client-rds");
      return found(
        () => new RDSClient(config).send(new DescribeDBSubnetGroupsCommand({ DBSubnetGroupName: name })),
        "DBSubnetGroupNotFoundFault",
      );
    },
  },
  Repository: {
    module: async () => (await import("./ecr/repository.ts")).repositoryService,
    crd: async () => (await import("./ecr/repository.ts")).repositoryCrdSource,
    declaration: repositoryDeclaration,
    generated: { path: "src/services/ecr/generated/repository-fields.ts", prefix: "repository" },
    declared: async () => (await import("./ecr/repository.ts")).repositorySource,
    ack: { release: "v1.8.1", readMany: "DescribeRepositories" },
    locate: async (config, name) => {
      const { ECRClient, DescribeRepositoriesCommand } = await import("@aws-sdk/client-ecr");
      return found(
        () => new ECRClient(config).send(new DescribeRepositoriesCommand({ repositoryNames: [name] })),
        "RepositoryNotFoundException",
      );
    },
  },
  LogGroup: {
    module: async () => (await import("./logs/log-group.ts")).logGroupService,
    crd: async () => (await import("./logs/log-group.ts")).logGroupCrdSource,
    declaration: logGroupDeclaration,
    generated: { path: "src/services/logs/generated/log-group-fields.ts", prefix: "logGroup" },
    declared: async () => (await import("./logs/log-group.ts")).logGroupSource,
    ack: { release: "v1.4.1", readMany: "DescribeLogGroups" },
    locate: async (config, name) => {
      const { CloudWatchLogsClient, DescribeLogGroupsCommand } = await import(
        "@aws-sdk/client-cloudwatch-logs"
      );
      const answer = await new CloudWatchLogsClient(config).send(
        new DescribeLogGroupsCommand({ logGroupNamePrefix: name }),
      );
      return (answer.logGroups ?? []).some((g) => g.logGroupName === name);
    },
  },
  Role: {
    module: async () => (await import("./iam/role.ts")).roleService,
    crd: async () => (await import("./iam/role.ts")).roleCrdSource,
    declaration: roleDeclaration,
    generated: { path: "src/services/iam/generated/role-fields.ts", prefix: "role" },
    declared: async () => (await import("./iam/role.ts")).roleSource,
    ack: { release: "v1.8.1" },
    locate: async (config, name) => {
      const { IAMClient, GetRoleCommand } = await import("@aws-sdk/client-iam");
      return found(
        () => new IAMClient(config).send(new GetRoleCommand({ RoleName: name })),
        "NoSuchEntityException",
      );
    },
  },
  Policy: {
    module: async () => (await import("./iam/policy.ts")).policyService,
    crd: async () => (await import("./iam/policy.ts")).policyCrdSource,
    declaration: policyDeclaration,
    generated: { path: "src/services/iam/generated/policy-fields.ts", prefix: "policy" },
    declared: async () => (await import("./iam/policy.ts")).policySource,
    ack: { release: "v1.8.1" },
    locate: async (config, name) => {
      const { IAMClient, paginateListPolicies } = await import("@aws-sdk/client-iam");
      for await (const page of paginateListPolicies({ client: new IAMClient(config) }, { Scope: "Local" }))
        if ((page.Policies ?? []).some((p) => p.PolicyName === name)) return true;
      return false;
    },
  },
  Secret: {
    module: async () => (await import("./secretsmanager/secret.ts")).secretService,
    crd: async () => (await import("./secretsmanager/secret.ts")).secretCrdSource,
    declaration: secretDeclaration,
    generated: { path: "src/services/secretsmanager/generated/secret-fields.ts", prefix: "secret" },
    declared: async () => (await import("./secretsmanager/secret.ts")).secretSource,
    ack: { release: "v1.4.1" },
    locate: async (config, name) => {
      const { SecretsManagerClient, DescribeSecretCommand } = await import("@aws-sdk/client-secrets-manager");
      return foundWhere(
        () => new SecretsManagerClient(config).send(new DescribeSecretCommand({ SecretId: name })),
        (secret) => secret.DeletedDate === undefined,
        "ResourceNotFoundException",
      );
    },
  },
  Key: {
    module: async () => (await import("./kms/key.ts")).keyService,
    crd: async () => (await import("./kms/key.ts")).keyCrdSource,
    declaration: keyDeclaration,
    generated: { path: "src/services/kms/generated/key-fields.ts", prefix: "key" },
    declared: async () => (await import("./kms/key.ts")).keySource,
    ack: { release: "v1.4.1" },
    // Keys are named by their ID: `name` is one.
    locate: async (config, name) => {
      const { KMSClient, DescribeKeyCommand } = await import("@aws-sdk/client-kms");
      return foundWhere(
        () => new KMSClient(config).send(new DescribeKeyCommand({ KeyId: name })),
        (key) => key.KeyMetadata?.DeletionDate === undefined,
        "NotFoundException",
      );
    },
  },
  Alias: {
    module: async () => (await import("./kms/alias.ts")).aliasService,
    crd: async () => (await import("./kms/alias.ts")).aliasCrdSource,
    declaration: aliasDeclaration,
    generated: { path: "src/services/kms/generated/alias-fields.ts", prefix: "alias" },
    declared: async () => (await import("./kms/alias.ts")).aliasSource,
    ack: { release: "v1.4.1", readMany: "ListAliases" },
    locate: async (config, name) => {
      const { KMSClient, paginateListAliases } = await import("@aws-sdk/client-kms");
      for await (const page of paginateListAliases({ client: new KMSClient(config) }, {})) {
        // ACK adds `alias/` to a name without it (kms/alias.ts).
        const wanted = name.startsWith("alias/") ? name : `alias/${name}`;
        if (page.Aliases?.some((a) => a.AliasName === wanted)) return true;
      }
      return false;
    },
  },
  VPC: {
    module: async () => (await import("./ec2/vpc.ts")).vpcService,
    crd: async () => (await import("./ec2/vpc.ts")).vpcCrdSource,
    declaration: vpcDeclaration,
    generated: { path: "src/services/ec2/generated/vpc-fields.ts", prefix: "vpc" },
    declared: async () => (await import("./ec2/vpc.ts")).vpcSource,
    ack: { release: "v1.20.0" },
    // VPCs are named by their ID: `name` is one.
    locate: async (config, name) => {
      const { EC2Client, DescribeVpcsCommand } = await import("@aws-sdk/client-ec2");
      // Asked by ID, EC2 answers that one or InvalidVpcID.NotFound.
      return found(
        () => new EC2Client(config).send(new DescribeVpcsCommand({ VpcIds: [name] })),
        "InvalidVpcID.NotFound",
      );
    },
  },
  Subnet: {
    module: async () => (await import("./ec2/subnet.ts")).subnetService,
    crd: async () => (await import("./ec2/subnet.ts")).subnetCrdSource,
    declaration: subnetDeclaration,
    generated: { path: "src/services/ec2/generated/subnet-fields.ts", prefix: "subnet" },
    declared: async () => (await import("./ec2/subnet.ts")).subnetSource,
    ack: { release: "v1.20.0" },
    // Subnets are named by their ID: `name` is one.
    locate: async (config, name) => {
      const { EC2Client, DescribeSubnetsCommand } = await import("@aws-sdk/client-ec2");
      // Asked by ID, EC2 answers that one or InvalidSubnetID.NotFound.
      return found(
        () => new EC2Client(config).send(new DescribeSubnetsCommand({ SubnetIds: [name] })),
        "InvalidSubnetID.NotFound",
      );
    },
  },
  SecurityGroup: {
    module: async () => (await import("./ec2/security-group.ts")).securityGroupService,
    crd: async () => (await import("./ec2/security-group.ts")).securityGroupCrdSource,
    declaration: securityGroupDeclaration,
    generated: { path: "src/services/ec2/generated/security-group-fields.ts", prefix: "securityGroup" },
    declared: async () => (await import("./ec2/security-group.ts")).securityGroupSource,
    ack: { release: "v1.20.0" },
    // Security groups are named by their ID: `name` is one.
    locate: async (config, name) => {
      const { EC2Client, DescribeSecurityGroupsCommand } = await import("@aws-sdk/client-ec2");
      // Asked by ID, EC2 answers that one or InvalidGroup.NotFound.
      return found(
        () => new EC2Client(config).send(new DescribeSecurityGroupsCommand({ GroupIds: [name] })),
        "InvalidGroup.NotFound",
      );
    },
  },
  Function: {
    module: async () => (await import("./lambda/function.ts")).functionService,
    crd: async () => (await import("./lambda/function.ts")).functionCrdSource,
    declaration: functionDeclaration,
    generated: { path: "src/services/lambda/generated/function-fields.ts", prefix: "function" },
    declared: async () => (await import("./lambda/function.ts")).functionSource,
    ack: { release: "v1.14.1" },
    locate: async (config, name) => {
      const { LambdaClient, GetFunctionCommand } = await import("@aws-sdk/client-lambda");
      return found(
        () => new LambdaClient(config).send(new GetFunctionCommand({ FunctionName: name })),
        "ResourceNotFoundException",
      );
    },
  },
  DBParameterGroup: {
    module: async () => (await import("./rds/db-parameter-group.ts")).dbParameterGroupService,
    crd: async () => (await import("./rds/db-parameter-group.ts")).dbParameterGroupCrdSource,
    declaration: dbParameterGroupDeclaration,
    generated: {
      path: "src/services/rds/generated/db-parameter-group-fields.ts",
      prefix: "dbParameterGroup",
    },
    declared: async () => (await import("./rds/db-parameter-group.ts")).dbParameterGroupSource,
    ack: { release: "v1.11.1", readMany: "DescribeDBParameterGroups" },
    locate: async (config, name) => {
      const { RDSClient, DescribeDBParameterGroupsCommand } = await import("@aws-sdk/client-rds");
      // Asked by name, RDS answers that one or DBParameterGroupNotFound; moto answers an empty list.
      return foundWhere(
        () =>
          new RDSClient(config).send(new DescribeDBParameterGroupsCommand({ DBParameterGroupName: name })),
        (answer) =>
          (answer.DBParameterGroups ?? []).some(
            (g) => g.DBParameterGroupName?.toLowerCase() === name.toLowerCase(),
          ),
        "DBParameterGroupNotFoundFault",
      );
    },
  },
  DBCluster: {
    module: async () => (await import("./rds/db-cluster.ts")).dbClusterService,
    crd: async () => (await import("./rds/db-cluster.ts")).dbClusterCrdSource,
    declaration: dbClusterDeclaration,
    generated: { path: "src/services/rds/generated/db-cluster-fields.ts", prefix: "dbCluster" },
    declared: async () => (await import("./rds/db-cluster.ts")).dbClusterSource,
    ack: { release: "v1.11.1", readMany: "DescribeDBClusters" },
    locate: async (config, name) => {
      const { RDSClient, DescribeDBClustersCommand } = await import("@aws-sdk/client-rds");
      return found(
        () => new RDSClient(config).send(new DescribeDBClustersCommand({ DBClusterIdentifier: name })),
        "DBClusterNotFoundFault",
      );
    },
  },
  DBClusterParameterGroup: {
    module: async () => (await import("./rds/db-cluster-parameter-group.ts")).dbClusterParameterGroupService,
    crd: async () => (await import("./rds/db-cluster-parameter-group.ts")).dbClusterParameterGroupCrdSource,
    declaration: dbClusterParameterGroupDeclaration,
    generated: {
      path: "src/services/rds/generated/db-cluster-parameter-group-fields.ts",
      prefix: "dbClusterParameterGroup",
    },
    declared: async () => (await import("./rds/db-cluster-parameter-group.ts")).dbClusterParameterGroupSource,
    ack: { release: "v1.11.1", readMany: "DescribeDBClusterParameterGroups" },
    locate: async (config, name) => {
      const { RDSClient, DescribeDBClusterParameterGroupsCommand } = await import("@aws-sdk/client-rds");
      // Asked by name, RDS answers that one or DBParameterGroupNotFound; moto may answer an empty list.
      return foundWhere(
        () =>
          new RDSClient(config).send(
            new DescribeDBClusterParameterGroupsCommand({ DBClusterParameterGroupName: name }),
          ),
        (answer) =>
          (answer.DBClusterParameterGroups ?? []).some(
            (g) => g.DBClusterParameterGroupName?.toLowerCase() === name.toLowerCase(),
          ),
        "DBParameterGroupNotFoundFault",
      );
    },
  },
} as const satisfies { readonly [K in KindName]: ServedKind };

/** The served kinds, in the catalog's order. */
export const servedKinds = Object.keys(servedKindCatalog) as KindName[];

/** The operations ACK's metrics count as READ_MANY: each served kind's `ack.readMany`. */
export const ackReadManyOperations: ReadonlySet<string> = new Set(
  Object.values(servedKindCatalog).flatMap((k: ServedKind) =>
    k.ack.readMany === undefined ? [] : [k.ack.readMany],
  ),
);

/** The AWS services whose models the kinds are generated from (scripts/install-models.sh). */
export const modelServices: readonly string[] = [
  ...new Set(
    Object.values(servedKindCatalog).flatMap((k: ServedKind) => [
      k.declaration.service,
      // A variant's tags may be another service's (a directory bucket's: S3 Control's).
      ...Object.values(k.declaration.runtime?.variants ?? {}).map((v) => v.tags.service),
    ]),
  ),
];
