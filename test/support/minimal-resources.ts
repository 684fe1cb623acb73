// The smallest valid object of each served kind, with what its namespace needs first (a
// DBInstance's master-password Secret): shared by the cross-kind e2e tests and bench:e2e, so a
// new kind is added in one place. ACK's field names.
import { lookupKind } from "../../src/api/kinds.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { servedKindNames } from "../../src/services/served.ts";

export interface KindMaker {
  /** ACK's spec with `awsName` as the AWS name. */
  spec(awsName: string): Record<string, unknown>;
  /** Objects each namespace needs before resources of this kind. */
  namespaceObjects?(namespace: string): KubeObject[];
  /**
   * Why the spec is not enough on its own: something must exist in AWS first, in the account the
   * object lands in (a subnet group's subnets). Such a kind is left out of `selfContainedKinds`.
   */
  readonly needsInAws?: string;
}

export const minimalPasswordSecret = "crossrole-test-db-password";

export const kindMakers: Readonly<Record<string, KindMaker>> = {
  Bucket: { spec: (name) => ({ name }) },
  Topic: { spec: (name) => ({ name }) },
  Queue: { spec: (name) => ({ queueName: name }) },
  Table: {
    spec: (name) => ({
      tableName: name,
      attributeDefinitions: [{ attributeName: "id", attributeType: "S" }],
      keySchema: [{ attributeName: "id", keyType: "HASH" }],
      billingMode: "PAY_PER_REQUEST",
    }),
  },
  DBSubnetGroup: {
    // subnetIDs: the caller's, looked up in the account the group lands in.
    spec: (name) => ({ name, description: "crossrole test subnets" }),
    needsInAws:
      "its subnets must exist in the account it lands in, and moto names each account's default subnets at random",
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
    namespaceObjects: (namespace) => [
      {
        apiVersion: "v1",
        kind: "Secret",
        metadata: { name: minimalPasswordSecret, namespace },
        stringData: { password: "test-password-1" },
      } as KubeObject,
    ],
  },
};

/**
 * The served kinds a cross-kind test can make from Kubernetes objects alone. Not DBSubnetGroup:
 * its subnets must exist in the account it lands in, and moto names each account's default
 * subnets at random; test/e2e/dbsubnetgroup.test.ts and test/integration/rds-dbsubnetgroup.test.ts
 * cover it, looking its subnets up first.
 */
export const selfContainedKinds: readonly string[] = servedKindNames.filter(
  (k) => kindMakers[k] !== undefined && kindMakers[k].needsInAws === undefined,
);

/** A minimal `kindName` object `name` in `namespace` whose AWS name is `awsName`, plus `extraSpec`. */
export function minimalResource(
  kindName: string,
  namespace: string,
  name: string,
  awsName: string,
  extraSpec: Record<string, unknown> = {},
): KubeObject {
  const kind = lookupKind(kindName);
  const maker = kindMakers[kindName];
  if (!kind || !maker) throw new Error(`no minimal ${kindName}: add it to test/support/minimal-resources.ts`);
  return {
    apiVersion: `${kind.group}/${kind.version}`,
    kind: kind.kind,
    metadata: { name, namespace },
    spec: { ...maker.spec(awsName), ...extraSpec },
  } as KubeObject;
}

/** What `namespace` needs before it holds resources of `kinds`. */
export function namespaceObjectsFor(kinds: readonly string[], namespace: string): KubeObject[] {
  return kinds.flatMap((k) => kindMakers[k]?.namespaceObjects?.(namespace) ?? []);
}
