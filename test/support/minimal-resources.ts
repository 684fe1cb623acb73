// The smallest valid object of each served kind, with what its namespace needs first (a
// DBInstance's master-password Secret): shared by the cross-kind e2e tests and bench:e2e, so a
// new kind is added in one place. ACK's field names.
import { lookupKind } from "../../src/api/kinds.ts";
import { executionRoleArn } from "../../src/local-stack/execution-role.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { servedKindNames } from "../../src/services/served.ts";
import { lambdaPackage } from "./lambda-package.ts";

export interface KindMaker {
  /**
   * ACK's spec with `awsName` as the AWS name. `account`: the account the object lands in, for a
   * kind whose spec names something there (a subnet group's subnets, as the placeholders that
   * src/local-stack/example-placeholders.ts fills when the object is applied).
   */
  spec(awsName: string, account: string | undefined): Record<string, unknown>;
  /** Objects each namespace needs before resources of this kind. */
  namespaceObjects?(namespace: string): KubeObject[];
  /**
   * AWS names the object by an ID it assigns (a KMS key): `awsName` is only its description, so
   * the tests of name ownership (`minimalKinds`) leave it out; test/e2e/assigned-id.test.ts is its own.
   */
  readonly assignedId?: true;
}

export const minimalPasswordSecret = "crossrole-test-db-password";

/**
 * A /28 of the default VPC (172.31.0.0/16) above its default subnets (172.31.0.0/18 at most), a
 * new one each time: 1024 subnets per process before they repeat.
 */
let subnetBlocks = 0;
const nextSubnetBlock = (): string => {
  const n = subnetBlocks++ % 1024;
  return `172.31.${128 + (n >> 4)}.${(n & 15) * 16}/28`;
};

/** The Kubernetes Secret whose key a minimal Secret's value comes from. */
const passwordSecret = (namespace: string): KubeObject =>
  ({
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: minimalPasswordSecret, namespace },
    stringData: { password: "test-password-1" },
  }) as KubeObject;

export const kindMakers: Readonly<Record<string, KindMaker>> = {
  Bucket: { spec: (name) => ({ name }) },
  Topic: { spec: (name) => ({ name }) },
  Queue: { spec: (name) => ({ queueName: name }) },
  Repository: { spec: (name) => ({ name }) },
  LogGroup: { spec: (name) => ({ name }) },
  Role: {
    spec: (name) => ({
      name,
      assumeRolePolicyDocument: JSON.stringify({
        Version: "2012-10-17",
        Statement: [
          { Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "sts:AssumeRole" },
        ],
      }),
    }),
  },
  Policy: {
    spec: (name) => ({
      name,
      policyDocument: JSON.stringify({
        Version: "2012-10-17",
        Statement: [{ Effect: "Allow", Action: "s3:ListAllMyBuckets", Resource: "*" }],
      }),
    }),
  },
  Table: {
    spec: (name) => ({
      tableName: name,
      attributeDefinitions: [{ attributeName: "id", attributeType: "S" }],
      keySchema: [{ attributeName: "id", keyType: "HASH" }],
      billingMode: "PAY_PER_REQUEST",
    }),
  },
  DBSubnetGroup: {
    spec: (name, account) => {
      if (account === undefined)
        throw new Error("a minimal DBSubnetGroup needs the account it lands in (its subnets are there)");
      return {
        name,
        description: "crossrole test subnets",
        subnetIDs: [`subnet-${account}-a`, `subnet-${account}-b`],
      };
    },
  },
  DBCluster: {
    spec: (name) => ({
      dbClusterIdentifier: name,
      engine: "aurora-postgresql",
      masterUsername: "crossrole",
      masterUserPassword: { name: minimalPasswordSecret, key: "password" },
    }),
    namespaceObjects: (namespace) => [passwordSecret(namespace)],
  },
  DBClusterParameterGroup: {
    spec: (name) => ({
      name,
      family: "aurora-postgresql16",
      description: "crossrole test cluster parameters",
    }),
  },
  DBParameterGroup: {
    spec: (name) => ({ name, family: "postgres16", description: "crossrole test parameters" }),
  },
  DBInstance: {
    spec: (name) => ({
      dbInstanceIdentifier: name,
      dbInstanceClass: "db.t3.micro",
      engine: "postgres",
      allocatedStorage: 20,
      masterUsername: "crossrole",
      masterUserPassword: { name: minimalPasswordSecret, key: "password" },
    }),
    namespaceObjects: (namespace) => [passwordSecret(namespace)],
  },
  Secret: {
    spec: (name) => ({ name, secretString: { name: minimalPasswordSecret, key: "password" } }),
    namespaceObjects: (namespace) => [passwordSecret(namespace)],
  },
  Key: { spec: (name) => ({ description: name }), assignedId: true },
  // An alias names a key of its account: the local stack's (src/local-stack/alias-target-key.ts).
  Alias: {
    spec: (name, account) => {
      if (account === undefined)
        throw new Error("a minimal Alias needs the account it lands in (the key it names is there)");
      return { name, targetKeyID: `key-${account}` };
    },
  },
  Subnet: {
    spec: (name, account) => {
      if (account === undefined)
        throw new Error("a minimal Subnet needs the account it lands in (its default VPC is there)");
      return { vpcID: `vpc-${account}`, cidrBlock: nextSubnetBlock(), tags: [{ key: "Name", value: name }] };
    },
    assignedId: true,
  },
  SecurityGroup: {
    spec: (name, account) => {
      if (account === undefined)
        throw new Error("a minimal SecurityGroup needs the account it lands in (its default VPC is there)");
      return { name, description: "crossrole test group", vpcID: `vpc-${account}` };
    },
    assignedId: true,
  },
  VPC: {
    spec: (name) => ({ cidrBlocks: ["10.0.0.0/16"], tags: [{ key: "Name", value: name }] }),
    assignedId: true,
  },
  Function: {
    spec: (name, account) => {
      if (account === undefined)
        throw new Error("a minimal Function needs the account it lands in (its execution role is there)");
      return {
        name,
        role: executionRoleArn(account),
        runtime: "python3.12",
        handler: "index.handler",
        code: { zipFile: lambdaPackage() },
      };
    },
  },
};

/** Every served kind: a new kind must add its maker above, or the cross-kind tests say so. */
export const everyMinimalKind: readonly string[] = servedKindNames.map((k) => {
  if (kindMakers[k] === undefined) throw new Error(`add ${k} to test/support/minimal-resources.ts`);
  return k;
});

/** Every served kind whose AWS object its spec names (`awsName`): the cross-kind tests of names. */
export const minimalKinds: readonly string[] = everyMinimalKind.filter(
  (k) => kindMakers[k]?.assignedId !== true,
);

/**
 * A minimal `kindName` object `name` in `namespace` whose AWS name is `awsName`, plus
 * `extraSpec`; `account` is where it will land (needed by the kinds whose spec names something
 * there; the e2e fixture's apply fills their placeholders).
 */
export function minimalResource(
  kindName: string,
  namespace: string,
  name: string,
  awsName: string,
  extraSpec: Record<string, unknown> = {},
  account?: string,
): KubeObject {
  const kind = lookupKind(kindName);
  const maker = kindMakers[kindName];
  if (!kind || !maker) throw new Error(`no minimal ${kindName}: add it to test/support/minimal-resources.ts`);
  return {
    apiVersion: `${kind.group}/${kind.version}`,
    kind: kind.kind,
    metadata: { name, namespace },
    spec: { ...maker.spec(awsName, account), ...extraSpec },
  } as KubeObject;
}

/** What `namespace` needs before it holds resources of `kinds`. */
export function namespaceObjectsFor(kinds: readonly string[], namespace: string): KubeObject[] {
  return kinds.flatMap((k) => kindMakers[k]?.namespaceObjects?.(namespace) ?? []);
}
