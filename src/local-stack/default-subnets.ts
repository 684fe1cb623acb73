// The default VPC's subnets of an account in the emulator, for the kinds that need a network
// (a DB subnet group, a DB instance placed in one). moto creates them per account, named at
// random; there is no EC2 SDK client in the project, and moto reads the service from the
// credential scope of the Authorization header (it checks no signature).
export async function defaultSubnets(
  endpoint: string,
  accessKeyId: string,
  region: string,
): Promise<string[]> {
  const res = await fetch(endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `AWS4-HMAC-SHA256 Credential=${accessKeyId}/20240101/${region}/ec2/aws4_request, SignedHeaders=host, Signature=0`,
    },
    body: "Action=DescribeSubnets&Version=2016-11-15",
  });
  return [...(await res.text()).matchAll(/<subnetId>(subnet-[0-9a-f]+)<\/subnetId>/g)].map((m) => m[1] ?? "");
}
