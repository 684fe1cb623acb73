// Alice's story end to end, with the real controller process: the same namespace's buckets
// land in two accounts, her queue (encrypted with her own KMS key), her app's role and its logs policy in her team's account and her database in
// central IT's, and the same identity reference from another namespace is denied. The database is placed in
// central IT's VPC through a DB subnet group in the same account (dbSubnetGroupRef), behind a
// security group there (vpcSecurityGroupRefs: the ID EC2 gave the group).
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { DescribeSecurityGroupsCommand, EC2Client } from "@aws-sdk/client-ec2";
import { GetRolePolicyCommand, IAMClient, ListAttachedRolePoliciesCommand } from "@aws-sdk/client-iam";
import { GetKeyRotationStatusCommand, KMSClient } from "@aws-sdk/client-kms";
import { DescribeDBInstancesCommand, RDSClient } from "@aws-sdk/client-rds";
import { GetBucketEncryptionCommand, S3Client } from "@aws-sdk/client-s3";
import { GetQueueAttributesCommand, GetQueueUrlCommand, SQSClient } from "@aws-sdk/client-sqs";
import { accountsHoldingResource, credentialsFor } from "../../src/local-stack/accounts.ts";
import { defaultSubnets, defaultVpc } from "../../src/local-stack/default-subnets.ts";
import { repoRoot } from "../../src/local-stack/versions.ts";
import {
  bucketsIn,
  condition,
  controllerAccount,
  type E2E,
  startE2E,
  waitForCondition,
  waitForResourceCondition,
} from "./fixture.ts";

let e2e: E2E;
before(async () => {
  e2e = await startE2E();
  await e2e.apply(join(repoRoot, "examples/alice"));
  await e2e.startController();
});
after(() => e2e?.stop());

test("shop-assets lands in Alice's team account 111111111111 through the CARM account map, encrypted with her own KMS key through kmsMasterKeyRef", async () => {
  const b = await waitForCondition(e2e.kube, "shop", "shop-assets", "ACK.ResourceSynced", "True");
  assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, "111111111111");
  assert.equal(b.status?.ackResourceMetadata?.region, "eu-west-1");
  assert.deepEqual(b.status?.ackResourceMetadata?.identity, {
    source: "accountCARM",
    roleARN: "arn:aws:iam::111111111111:role/shop-team",
    sessionName: "crossrole-111111111111",
  });
  assert.ok((await bucketsIn(e2e.stack.awsEndpoint!, "111111111111")).includes("shop-assets"));
  // Encrypted with her own KMS key, named by reference: its ARN, from the Key's status.keyID.
  const k = await waitForResourceCondition(e2e.kube, "Key", "shop", "shop-data", "Ready", "True");
  const keyID = String((k.status as Record<string, unknown> | undefined)?.["keyID"] ?? "");
  const endpoint = e2e.stack.awsEndpoint ?? "";
  const s3 = new S3Client({
    region: "eu-west-1",
    endpoint,
    forcePathStyle: true,
    credentials: await credentialsFor(endpoint, "111111111111"),
  });
  const encryption = await s3.send(new GetBucketEncryptionCommand({ Bucket: "shop-assets" }));
  const rule = encryption.ServerSideEncryptionConfiguration?.Rules?.[0];
  assert.equal(rule?.ApplyServerSideEncryptionByDefault?.SSEAlgorithm, "aws:kms");
  assert.equal(
    rule?.ApplyServerSideEncryptionByDefault?.KMSMasterKeyID,
    `arn:aws:kms:eu-west-1:111111111111:key/${keyID}`,
  );
  assert.equal(
    JSON.stringify(b.spec).includes("arn:aws:kms"),
    false,
    "the filled ARN is AWS's, never written into the spec",
  );
});

test("shop-billing-exports lands in central IT's account 222222222222 through spec.identityRef", async () => {
  const b = await waitForCondition(e2e.kube, "shop", "shop-billing-exports", "Ready", "True");
  assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, "222222222222");
  assert.equal(b.status?.ackResourceMetadata?.arn, "arn:aws:s3:::shop-billing-exports");
  assert.deepEqual(await bucketsIn(e2e.stack.awsEndpoint!, "222222222222"), ["shop-billing-exports"]);
  assert.ok(!(await bucketsIn(e2e.stack.awsEndpoint!, "111111111111")).includes("shop-billing-exports"));
});

test("the same identityRef from namespace sandbox is denied and nothing is created anywhere", async () => {
  const b = await waitForCondition(
    e2e.kube,
    "sandbox",
    "sandbox-billing-exports",
    "ACK.Recoverable",
    "True",
    "IdentityNotPermitted",
  );
  const message = condition(b, "ACK.Recoverable")?.message ?? "";
  assert.match(message, /AWSRoleIdentity central-it/);
  assert.match(message, /namespace sandbox/);
  assert.equal(condition(b, "ACK.ResourceSynced")?.status, "False");
  assert.equal(b.status?.ackResourceMetadata, undefined);
  for (const account of ["111111111111", "222222222222", controllerAccount]) {
    assert.ok(
      !(await bucketsIn(e2e.stack.awsEndpoint!, account)).includes("sandbox-billing-exports"),
      account,
    );
  }
});

test("Alice's order queue lands in her team's account 111111111111 through the CARM account map, encrypted with her own KMS key through kmsMasterKeyRef", async () => {
  const q = await waitForResourceCondition(e2e.kube, "Queue", "shop", "shop-orders", "Ready", "True");
  assert.equal(q.status?.ackResourceMetadata?.ownerAccountID, "111111111111");
  assert.equal(q.status?.ackResourceMetadata?.identity?.["source"], "accountCARM");
  assert.deepEqual(await holders("Queue", "shop-orders"), ["111111111111"]);
  // Her key, in the same account, named by the ID KMS gave it.
  const k = await waitForResourceCondition(e2e.kube, "Key", "shop", "shop-data", "Ready", "True");
  const keyID = String((k.status as Record<string, unknown> | undefined)?.["keyID"] ?? "");
  assert.equal(k.status?.ackResourceMetadata?.ownerAccountID, "111111111111");
  assert.equal(k.status?.ackResourceMetadata?.arn, `arn:aws:kms:eu-west-1:111111111111:key/${keyID}`);
  const endpoint = e2e.stack.awsEndpoint ?? "";
  const credentials = await credentialsFor(endpoint, "111111111111");
  const kms = new KMSClient({ region: "eu-west-1", endpoint, credentials });
  const rotation = await kms.send(new GetKeyRotationStatusCommand({ KeyId: keyID }));
  assert.equal(rotation.KeyRotationEnabled, true);
  const sqs = new SQSClient({ region: "eu-west-1", endpoint, credentials });
  const url = (await sqs.send(new GetQueueUrlCommand({ QueueName: "shop-orders" }))).QueueUrl;
  const attributes = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] }),
  );
  assert.equal(attributes.Attributes?.["KmsMasterKeyId"], keyID, "the queue is encrypted with her key");
});

test("Alice's app role lands in her team's account 111111111111 through the CARM account map, with its path, inline policy and her logs policy attached by policyRefs", async () => {
  const r = await waitForResourceCondition(e2e.kube, "Role", "shop", "shop-app", "Ready", "True");
  assert.equal(r.status?.ackResourceMetadata?.ownerAccountID, "111111111111");
  assert.equal(r.status?.ackResourceMetadata?.arn, "arn:aws:iam::111111111111:role/shop/shop-app");
  assert.deepEqual(await holders("Role", "shop-app"), ["111111111111"]);
  const iam = new IAMClient({
    region: "us-east-1",
    endpoint: e2e.stack.awsEndpoint,
    credentials: await credentialsFor(e2e.stack.awsEndpoint ?? "", "111111111111"),
  });
  const inline = await iam.send(
    new GetRolePolicyCommand({ RoleName: "shop-app", PolicyName: "assets-and-orders" }),
  );
  assert.match(decodeURIComponent(inline.PolicyDocument ?? ""), /shop-orders/);
  // Her managed policy, in the same account, attached by the ARN composed from its spec.
  const p = await waitForResourceCondition(e2e.kube, "Policy", "shop", "shop-app-logs", "Ready", "True");
  const policyArn = "arn:aws:iam::111111111111:policy/shop/shop-app-logs";
  assert.equal(p.status?.ackResourceMetadata?.arn, policyArn);
  const attached = await iam.send(new ListAttachedRolePoliciesCommand({ RoleName: "shop-app" }));
  assert.deepEqual(
    attached.AttachedPolicies?.map((a) => a.PolicyArn),
    [policyArn],
  );
});

test("Alice's database lands in central IT's account 222222222222 through spec.identityRef", async () => {
  const db = await waitForResourceCondition(e2e.kube, "DBInstance", "shop", "shop-db", "Ready", "True");
  assert.equal(db.status?.ackResourceMetadata?.ownerAccountID, "222222222222");
  assert.equal(db.status?.ackResourceMetadata?.arn, "arn:aws:rds:eu-west-1:222222222222:db:shop-db");
  assert.deepEqual(db.status?.ackResourceMetadata?.identity, {
    source: "identityRef",
    roleARN: "arn:aws:iam::222222222222:role/central-it",
    sessionName: "crossrole-central-it",
  });
  assert.deepEqual(await holders("DBInstance", "shop-db"), ["222222222222"]);
  assert.doesNotMatch(JSON.stringify(db), /demo-only-change-me/, "the password is never copied");
});

test("Alice's database sits in central IT's VPC through dbSubnetGroupRef, the group in the same account", async () => {
  const group = await waitForResourceCondition(
    e2e.kube,
    "DBSubnetGroup",
    "shop",
    "shop-db-subnets",
    "Ready",
    "True",
  );
  assert.equal(group.status?.ackResourceMetadata?.ownerAccountID, "222222222222");
  assert.deepEqual(await holders("DBSubnetGroup", "shop-db-subnets"), ["222222222222"]);
  await waitForResourceCondition(e2e.kube, "DBInstance", "shop", "shop-db", "Ready", "True");
  // As central IT's account itself sees the instance: in the referenced group, over its subnets.
  const rds = new RDSClient({
    region: "eu-west-1",
    endpoint: e2e.stack.awsEndpoint!,
    credentials: await credentialsFor(e2e.stack.awsEndpoint!, "222222222222"),
  });
  const out = await rds.send(new DescribeDBInstancesCommand({ DBInstanceIdentifier: "shop-db" }));
  const placed = out.DBInstances?.[0]?.DBSubnetGroup;
  assert.equal(placed?.DBSubnetGroupName, "shop-db-subnets");
  const centralItSubnets = await defaultSubnets(
    e2e.stack.awsEndpoint!,
    (await credentialsFor(e2e.stack.awsEndpoint!, "222222222222")).accessKeyId,
    "eu-west-1",
  );
  assert.deepEqual(
    (placed?.Subnets ?? []).map((s) => s.SubnetIdentifier).sort(),
    centralItSubnets.slice(0, 2).sort(),
    "the example's subnet placeholders became central IT's first two subnets",
  );
});

test("Alice's database sits behind a security group in central IT's VPC, named by vpcSecurityGroupRefs", async () => {
  const group = await waitForResourceCondition(e2e.kube, "SecurityGroup", "shop", "shop-db", "Ready", "True");
  assert.equal(group.status?.ackResourceMetadata?.ownerAccountID, "222222222222");
  const id = String((group.status as Record<string, unknown>)["id"]);
  assert.match(id, /^sg-[0-9a-f]+$/);
  assert.deepEqual(await holders("SecurityGroup", id), ["222222222222"], "in central IT's account only");
  await waitForResourceCondition(e2e.kube, "DBInstance", "shop", "shop-db", "Ready", "True");
  // As central IT's account itself sees them: the group in its default VPC, the database behind it.
  const config = {
    region: "eu-west-1",
    endpoint: e2e.stack.awsEndpoint!,
    credentials: await credentialsFor(e2e.stack.awsEndpoint!, "222222222222"),
  };
  const sg = (await new EC2Client(config).send(new DescribeSecurityGroupsCommand({ GroupIds: [id] })))
    .SecurityGroups?.[0];
  const centralItVpc = await defaultVpc(
    e2e.stack.awsEndpoint!,
    (await credentialsFor(e2e.stack.awsEndpoint!, "222222222222")).accessKeyId,
    "eu-west-1",
  );
  assert.equal(sg?.VpcId, centralItVpc, "the example's VPC placeholder became central IT's default VPC");
  assert.deepEqual(
    sg?.IpPermissions?.map((p) => `${p.IpProtocol}/${p.FromPort}/${p.IpRanges?.map((r) => r.CidrIp).join()}`),
    ["tcp/5432/10.0.0.0/16"],
  );
  assert.deepEqual(sg?.IpPermissionsEgress ?? [], [], "nothing out");
  const db = (
    await new RDSClient(config).send(new DescribeDBInstancesCommand({ DBInstanceIdentifier: "shop-db" }))
  ).DBInstances?.[0];
  assert.deepEqual(
    db?.VpcSecurityGroups?.map((g) => g.VpcSecurityGroupId),
    [id],
    "the group's ID, from its status.id, checked by its tags in central IT's account",
  );
});

/** Which of the story's accounts hold `name` of `kind` in shop's region, asked as each account. */
function holders(kind: string, name: string): Promise<string[]> {
  return accountsHoldingResource(e2e.stack.awsEndpoint!, kind, name, "eu-west-1", [
    controllerAccount,
    "111111111111",
    "222222222222",
  ]);
}
