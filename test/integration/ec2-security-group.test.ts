// The SecurityGroup kind — a declaration served by the generic runtime — against the AWS emulator,
// calls checked on the wire through the recording proxy. A group is named by the ID EC2 assigns:
// the create answers it with the tags on; its rules are read from the group (and ACK's status.rules
// from DescribeSecurityGroupRules), compared grant by grant as EC2 keeps them, and written by the
// kind: EC2's default egress rule revoked when the spec has none, new grants authorized, a changed
// description updated in place, a pair naming no group sent as the group itself.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { CreateVpcCommand, DescribeSecurityGroupsCommand, type EC2Client } from "@aws-sdk/client-ec2";
import { ec2ClientFactory } from "../../src/services/ec2/client.ts";
import { securityGroupService as service } from "../../src/services/ec2/security-group.ts";
import { noSecrets } from "../../src/services/service-module.ts";
import { type AssignedKindHarness, assignedKindHarness } from "../support/assigned-kind.ts";
import { type AccountClient, type WireCalls, writesOnly } from "../support/two-accounts.ts";

const region = "us-east-1";
let counter = 0;
type Client = AccountClient<EC2Client>;
let h: AssignedKindHarness<EC2Client>;
let calls: WireCalls;
let mine: Client;
let other: Client;
let vpcId = "";

before(async () => {
  // EC2's client as the pool builds it (client.ts): a create sent at most once per call.
  h = await assignedKindHarness({
    label: "ec2-sg",
    region,
    kind: "SecurityGroup",
    namespace: "net",
    factory: ec2ClientFactory,
    service,
  });
  ({ calls, mine, other } = h.accounts);
  vpcId = (await mine.sdk.send(new CreateVpcCommand({ CidrBlock: "10.9.0.0/16" }))).Vpc?.VpcId ?? "";
});

after(() => h?.accounts.close());

const assigned = () => h.assigned();
const ownerOf = (uid: string) => h.ownerOf(uid);
const made = (desired: Record<string, unknown>, uid = `uid-sg-${process.pid}-${counter}`) =>
  h.made(desired, uid);
const observed = (client: Client, s: Record<string, unknown>) => h.observed(client, s);
const converge = (s: Record<string, unknown>) => h.converge(s);

function spec(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const r = service.parseSpec({
    name: `db-${++counter}`,
    description: "the database's group",
    vpcID: vpcId,
    ...extra,
  });
  assert.ok(r.ok, r.ok ? "" : r.message);
  return r.value;
}

const postgres = (cidr: string, description?: string) => ({
  ipProtocol: "tcp",
  fromPort: 5432,
  toPort: 5432,
  ipRanges: [{ cidrIP: cidr, ...(description === undefined ? {} : { description }) }],
});

describe("SecurityGroup through the generic runtime", () => {
  test("create: one CreateSecurityGroup with name, description, VPC and the tags in its tag specification", async () => {
    const desired = spec({ tags: [{ key: "team", value: "data" }] });
    const sent = await calls.during(() => made(desired));
    assert.deepEqual(sent, ["CreateSecurityGroup"]);
    const input = calls.input("CreateSecurityGroup");
    assert.equal(input["GroupName"], desired["name"]);
    assert.equal(input["GroupDescription"] ?? input["Description"], "the database's group");
    assert.equal(input["VpcId"], vpcId);
    assert.equal(input["TagSpecification.1.ResourceType"], "security-group");
  });

  test("read: the group and ACK's status.rules, two calls; EC2's default egress rule is drift from a spec without egress rules", async () => {
    const { named, id } = await made(spec());
    const read = await calls.during(() => observed(mine, named));
    assert.deepEqual(read, ["DescribeSecurityGroups", "DescribeSecurityGroupRules"]);
    const o = await observed(mine, named);
    assert.deepEqual(
      (o.fields["egressRules"] as { ipProtocol: string }[]).map((r) => r.ipProtocol),
      ["-1"],
      "EC2's default: all traffic out",
    );
    const status = service.statusFrom?.(o) ?? {};
    assert.equal(status["id"], id, "ACK's id");
    assert.ok(
      (status["rules"] as { isEgress: boolean }[]).some((r) => r.isEgress),
      "status.rules lists it",
    );
    assert.ok(service.parseStatus(status).ok, "status fits the CRD's status schema");
    assert.equal(o.arn, `arn:aws:ec2:${region}:${mine.account}:security-group/${id}`);
    assert.deepEqual(service.diff(named, o), ["spec.egressRules"]);

    const { sent } = await converge(named);
    assert.deepEqual(sent, ["RevokeSecurityGroupEgress"]);
    assert.equal(calls.input("RevokeSecurityGroupEgress")["IpPermissions.1.IpProtocol"], "-1");
  });

  test("rules: authorized as given, EC2's merged and renamed answer is no drift; a description updated in place; a grant dropped is revoked", async () => {
    const { named, id } = await made(spec());
    const rules = {
      ...named,
      ingressRules: [
        postgres("10.0.0.9/16", "app"),
        { ipProtocol: "6", fromPort: 5432, toPort: 5432, userIDGroupPairs: [{ description: "itself" }] },
      ],
      egressRules: [{ ipProtocol: "-1", ipRanges: [{ cidrIP: "0.0.0.0/0" }] }],
    };
    const { sent, after } = await converge(rules);
    assert.deepEqual(sent, ["AuthorizeSecurityGroupIngress"], "the default egress rule is the spec's: kept");
    const input = calls.input("AuthorizeSecurityGroupIngress");
    assert.equal(input["GroupId"], id);
    assert.equal(input["IpPermissions.1.IpRanges.1.CidrIp"], "10.0.0.0/16", "the network, as EC2 keeps it");
    assert.equal(
      input["IpPermissions.1.Groups.1.GroupId"],
      id,
      "a pair naming no group is the group itself; the two tcp/5432 rules (one written 6) sent as one permission",
    );
    assert.equal(input["IpPermissions.2.IpProtocol"], undefined);
    assert.equal((after.fields["ingressRules"] as unknown[]).length >= 1, true);

    const described = { ...rules, ingressRules: [postgres("10.0.0.0/16", "the app"), rules.ingressRules[1]] };
    const { sent: sent2 } = await converge(described);
    assert.deepEqual(sent2, ["UpdateSecurityGroupRuleDescriptionsIngress"], "no revoke: the grant stays");

    const fewer = { ...described, ingressRules: [postgres("10.0.0.0/16", "the app")] };
    const { sent: sent3 } = await converge(fewer);
    assert.deepEqual(sent3, ["RevokeSecurityGroupIngress"]);
    const group = (await mine.sdk.send(new DescribeSecurityGroupsCommand({ GroupIds: [id] })))
      .SecurityGroups?.[0];
    assert.deepEqual(
      group?.IpPermissions?.map((p) => `${p.IpProtocol}/${p.FromPort}/${p.IpRanges?.[0]?.CidrIp}`),
      ["tcp/5432/10.0.0.0/16"],
    );
  });

  test("findTagged and another account: the tag filter in the client's own account only", async () => {
    const { id, uid, named } = await made(spec());
    assert.deepEqual(await assigned().findTagged(mine, "services.k8s.aws/owner-uid", uid, {}), [id]);
    assert.deepEqual(await assigned().findTagged(other, "services.k8s.aws/owner-uid", uid, {}), []);
    assert.deepEqual(await service.read(other, named, {}), { found: false });
  });

  test("a name another group has in the VPC: refused, naming spec.name; nothing made", async () => {
    const desired = spec();
    await made(desired);
    await assert.rejects(
      service.create(mine, { ...desired }, region, ownerOf("twin"), {}, noSecrets),
      (err: Error) => {
        assert.match(err.message, /InvalidGroup\.Duplicate/);
        assert.match(err.message, /choose another spec\.name/);
        return true;
      },
    );
  });

  test("delete: its rules revoked first (EC2's default egress rule here), then DeleteSecurityGroup by the ID; gone is none", async () => {
    const { named, id } = await made(spec());
    const sent = await calls.during(() => service.delete(mine, named, {}, {}));
    assert.deepEqual(writesOnly(sent), ["RevokeSecurityGroupEgress", "DeleteSecurityGroup"]);
    assert.deepEqual(calls.input("DeleteSecurityGroup"), { GroupId: id });
    assert.deepEqual(await service.read(mine, named, {}), { found: false });
  });
});
