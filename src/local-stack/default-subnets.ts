// The default VPC of an account in the emulator and its subnets, for the kinds that need a
// network (a DB subnet group, a DB instance placed in one, a subnet or security group in the
// default VPC). moto creates them per account, named at random. One query call each
// (emulator-query.ts).
import { emulatorQuery } from "./emulator-query.ts";

async function ec2Query(
  endpoint: string,
  accessKeyId: string,
  region: string,
  params: Record<string, string>,
) {
  const answer = await emulatorQuery(
    endpoint,
    { accessKeyId, region, service: "ec2" },
    { ...params, Version: "2016-11-15" },
  );
  return answer.text;
}

export async function defaultSubnets(
  endpoint: string,
  accessKeyId: string,
  region: string,
): Promise<string[]> {
  const text = await ec2Query(endpoint, accessKeyId, region, { Action: "DescribeSubnets" });
  return [...text.matchAll(/<subnetId>(subnet-[0-9a-f]+)<\/subnetId>/g)].map((m) => m[1] ?? "");
}

/** The account's default VPC in `region` (moto makes one per account and region), if any. */
export async function defaultVpc(
  endpoint: string,
  accessKeyId: string,
  region: string,
): Promise<string | undefined> {
  const text = await ec2Query(endpoint, accessKeyId, region, {
    Action: "DescribeVpcs",
    "Filter.1.Name": "is-default",
    "Filter.1.Value.1": "true",
  });
  return /<vpcId>(vpc-[0-9a-f]+)<\/vpcId>/.exec(text)?.[1];
}
