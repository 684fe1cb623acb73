// How crossrole builds an EC2 client (the pool keys and reuses it): the SDK's defaults, but a create
// of an object EC2 names itself is never sent twice by the SDK's own retries (single-attempt.ts):
// a second CreateVpc after a lost answer would be a second VPC that nothing points at.
import { EC2Client } from "@aws-sdk/client-ec2";
import type { ClientFactory } from "../../credentials/client-pool.ts";
import { sendOnce } from "../../credentials/single-attempt.ts";

export const ec2ClientFactory: ClientFactory<EC2Client> = {
  name: "ec2",
  create: (config) => sendOnce(new EC2Client(config), ["CreateVpc", "CreateSubnet", "CreateSecurityGroup"]),
};
