// AWS objects made outside crossrole, as another tool (or a person) would: with the account's own
// credentials and no ownership tags. Tests use them for adoption, read-only and takeover cases.
import { credentialsFor } from "../../src/local-stack/accounts.ts";
import { region } from "../../src/local-stack/controller-process.ts";
import { defaultSubnets } from "../../src/local-stack/default-subnets.ts";
import { ensureExecutionRole, executionRoleArn } from "../../src/local-stack/execution-role.ts";
import { lambdaPackage } from "./lambda-package.ts";

/** Creates an untagged `kind` named `name` in `account` (any served kind). */
export async function createOutOfBand(
  endpoint: string,
  kind: string,
  name: string,
  account: string,
): Promise<void> {
  const config = { region, endpoint, credentials: await credentialsFor(endpoint, account) };
  switch (kind) {
    case "Bucket": {
      const { S3Client, CreateBucketCommand } = await import("@aws-sdk/client-s3");
      await new S3Client({ ...config, forcePathStyle: true }).send(new CreateBucketCommand({ Bucket: name }));
      return;
    }
    case "Queue": {
      const { SQSClient, CreateQueueCommand } = await import("@aws-sdk/client-sqs");
      await new SQSClient(config).send(
        new CreateQueueCommand({ QueueName: name, Attributes: { VisibilityTimeout: "42" } }),
      );
      return;
    }
    case "Topic": {
      const { SNSClient, CreateTopicCommand } = await import("@aws-sdk/client-sns");
      await new SNSClient(config).send(
        new CreateTopicCommand({ Name: name, Attributes: { DisplayName: "made-out-of-band" } }),
      );
      return;
    }
    case "Table": {
      const { DynamoDBClient, CreateTableCommand } = await import("@aws-sdk/client-dynamodb");
      await new DynamoDBClient(config).send(
        new CreateTableCommand({
          TableName: name,
          AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
          KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
          BillingMode: "PAY_PER_REQUEST",
        }),
      );
      return;
    }
    case "DBInstance": {
      const { RDSClient, CreateDBInstanceCommand } = await import("@aws-sdk/client-rds");
      await new RDSClient(config).send(
        new CreateDBInstanceCommand({
          DBInstanceIdentifier: name,
          DBInstanceClass: "db.t3.micro",
          Engine: "postgres",
          AllocatedStorage: 20,
          MasterUsername: "outofband",
          MasterUserPassword: "out-of-band-pw-1",
        }),
      );
      return;
    }
    case "DBSubnetGroup": {
      const { RDSClient, CreateDBSubnetGroupCommand } = await import("@aws-sdk/client-rds");
      await new RDSClient(config).send(
        new CreateDBSubnetGroupCommand({
          DBSubnetGroupName: name,
          DBSubnetGroupDescription: "made out of band",
          SubnetIds: (await defaultSubnets(endpoint, config.credentials.accessKeyId, region)).slice(0, 2),
        }),
      );
      return;
    }
    case "Repository": {
      const { ECRClient, CreateRepositoryCommand } = await import("@aws-sdk/client-ecr");
      await new ECRClient(config).send(
        new CreateRepositoryCommand({ repositoryName: name, imageTagMutability: "IMMUTABLE" }),
      );
      return;
    }
    case "LogGroup": {
      const { CloudWatchLogsClient, CreateLogGroupCommand, PutRetentionPolicyCommand } = await import(
        "@aws-sdk/client-cloudwatch-logs"
      );
      const client = new CloudWatchLogsClient(config);
      await client.send(new CreateLogGroupCommand({ logGroupName: name }));
      await client.send(new PutRetentionPolicyCommand({ logGroupName: name, retentionInDays: 14 }));
      return;
    }
    case "Role": {
      const { IAMClient, CreateRoleCommand } = await import("@aws-sdk/client-iam");
      await new IAMClient(config).send(
        new CreateRoleCommand({
          RoleName: name,
          Description: "made out of band",
          AssumeRolePolicyDocument: JSON.stringify({
            Version: "2012-10-17",
            Statement: [
              { Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "sts:AssumeRole" },
            ],
          }),
        }),
      );
      return;
    }
    case "Policy": {
      const { IAMClient, CreatePolicyCommand, CreatePolicyVersionCommand } = await import(
        "@aws-sdk/client-iam"
      );
      const iam = new IAMClient(config);
      const document = (action: string) =>
        JSON.stringify({
          Version: "2012-10-17",
          Statement: [{ Effect: "Allow", Action: action, Resource: "*" }],
        });
      const made = await iam.send(
        new CreatePolicyCommand({
          PolicyName: name,
          Description: "made out of band",
          PolicyDocument: document("s3:GetObject"),
        }),
      );
      // A second version, the default: adoption must read the default one, not the first.
      await iam.send(
        new CreatePolicyVersionCommand({
          PolicyArn: made.Policy?.Arn,
          PolicyDocument: document("s3:ListBucket"),
          SetAsDefault: true,
        }),
      );
      return;
    }
    case "Secret": {
      const { SecretsManagerClient, CreateSecretCommand } = await import("@aws-sdk/client-secrets-manager");
      await new SecretsManagerClient(config).send(
        new CreateSecretCommand({ Name: name, Description: "made out of band", SecretString: "out-of-band" }),
      );
      return;
    }
    case "DBCluster": {
      const { RDSClient, CreateDBClusterCommand } = await import("@aws-sdk/client-rds");
      await new RDSClient(config).send(
        new CreateDBClusterCommand({
          DBClusterIdentifier: name,
          Engine: "aurora-postgresql",
          MasterUsername: "outofband",
          MasterUserPassword: "out-of-band-pw-1",
        }),
      );
      return;
    }
    case "DBClusterParameterGroup": {
      const { RDSClient, CreateDBClusterParameterGroupCommand } = await import("@aws-sdk/client-rds");
      await new RDSClient(config).send(
        new CreateDBClusterParameterGroupCommand({
          DBClusterParameterGroupName: name,
          DBParameterGroupFamily: "aurora-postgresql16",
          Description: "made out of band",
        }),
      );
      return;
    }
    case "DBParameterGroup": {
      const { RDSClient, CreateDBParameterGroupCommand } = await import("@aws-sdk/client-rds");
      await new RDSClient(config).send(
        new CreateDBParameterGroupCommand({
          DBParameterGroupName: name,
          DBParameterGroupFamily: "postgres16",
          Description: "made out of band",
        }),
      );
      return;
    }
    case "Function": {
      const { LambdaClient, CreateFunctionCommand } = await import("@aws-sdk/client-lambda");
      await ensureExecutionRole(endpoint, config.credentials.accessKeyId);
      await new LambdaClient(config).send(
        new CreateFunctionCommand({
          FunctionName: name,
          Role: executionRoleArn(account),
          Runtime: "python3.12",
          Handler: "index.handler",
          Description: "made out of band",
          Code: { ZipFile: Buffer.from(lambdaPackage(), "base64") },
        }),
      );
      return;
    }
    case "Alias": {
      // An alias names a key of its account: one made out of band too.
      const { KMSClient, CreateKeyCommand, CreateAliasCommand } = await import("@aws-sdk/client-kms");
      const kms = new KMSClient(config);
      const key = await kms.send(new CreateKeyCommand({ Description: "made out of band" }));
      await kms.send(
        new CreateAliasCommand({
          AliasName: name.startsWith("alias/") ? name : `alias/${name}`,
          TargetKeyId: key.KeyMetadata?.KeyId,
        }),
      );
      return;
    }
    default:
      throw new Error(`createOutOfBand: no maker for kind ${kind}`);
  }
}
