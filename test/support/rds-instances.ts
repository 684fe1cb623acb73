// A DB instance as RDS reports it in one account (the emulator's), or undefined when there is
// none there: what the reference and subnet-group tests check placement with.
import { type DBInstance, DescribeDBInstancesCommand, RDSClient } from "@aws-sdk/client-rds";
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
