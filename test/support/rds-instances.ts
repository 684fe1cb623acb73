// A DB instance or DB subnet group as RDS reports it in one account (the emulator's), or
// undefined when there is none there: what the reference and subnet-group tests check placement with.
import {
  type DBInstance,
  type DBSubnetGroup,
  DescribeDBInstancesCommand,
  DescribeDBSubnetGroupsCommand,
  RDSClient,
} from "@aws-sdk/client-rds";
import { clientAs } from "../../src/local-stack/accounts.ts";

export async function dbInstanceIn(
  endpoint: string,
  account: string,
  id: string,
): Promise<DBInstance | undefined> {
  try {
    const out = await (await clientAs(RDSClient, endpoint, account)).send(
      new DescribeDBInstancesCommand({ DBInstanceIdentifier: id }),
    );
    return out.DBInstances?.[0];
  } catch (err) {
    if ((err as { name?: string }).name === "DBInstanceNotFoundFault") return undefined;
    throw err;
  }
}

export async function dbSubnetGroupIn(
  endpoint: string,
  account: string,
  name: string,
): Promise<DBSubnetGroup | undefined> {
  try {
    const out = await (await clientAs(RDSClient, endpoint, account)).send(
      new DescribeDBSubnetGroupsCommand({ DBSubnetGroupName: name }),
    );
    return out.DBSubnetGroups?.[0];
  } catch (err) {
    if ((err as { name?: string }).name === "DBSubnetGroupNotFoundFault") return undefined;
    throw err;
  }
}
