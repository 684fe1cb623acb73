// The VPC kind — a declaration served by the generic runtime (src/services/declared-kind/) — against
// the AWS emulator, calls checked on the wire through the recording proxy. A VPC is named by the ID
// EC2 assigns (runtime.assigned): the create answers it with the tags already on (CreateVpc's
// TagSpecifications), every other call names the VPC by it, and the tag filter finds a VPC tagged
// as a resource's, in the client's own account only. Its CIDR blocks: the first made with it, the
// others associated and disassociated by the association's ID; the DNS and metrics flags one
// ModifyVpcAttribute each, read back one DescribeVpcAttribute each; ACK's rule that empties the
// default security group; tags by CreateTags/DeleteTags on the ID.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  AuthorizeSecurityGroupIngressCommand,
  CreateSubnetCommand,
  DeleteSubnetCommand,
  DescribeSecurityGroupsCommand,
  DescribeVpcsCommand,
  type EC2Client,
} from "@aws-sdk/client-ec2";
import { ec2ClientFactory } from "../../src/services/ec2/client.ts";
import { vpcService as service } from "../../src/services/ec2/vpc.ts";
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

before(async () => {
  // EC2's client as the pool builds it (client.ts): a create sent at most once per call.
  h = await assignedKindHarness({
    label: "ec2-vpc",
    region,
    kind: "VPC",
    namespace: "net",
    factory: ec2ClientFactory,
    service,
  });
  ({ calls, mine, other } = h.accounts);
});

after(() => h?.accounts.close());

const assigned = () => h.assigned();
const ownerOf = (uid: string) => h.ownerOf(uid);
const made = (desired: Record<string, unknown>, uid = `uid-vpc-${process.pid}-${++counter}`) =>
  h.made(desired, uid);
const observed = (client: Client, s: Record<string, unknown>) => h.observed(client, s);
const converge = (s: Record<string, unknown>) => h.converge(s);

function spec(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const r = service.parseSpec({ cidrBlocks: ["10.0.0.0/16"], ...extra });
  assert.ok(r.ok, r.ok ? "" : r.message);
  return r.value;
}

describe("VPC through the generic runtime", () => {
  test("create: one CreateVpc with the primary block and the tags in its tag specification, answering the ID", async () => {
    const desired = spec({ tags: [{ key: "team", value: "net" }] });
    assert.equal(service.identifier(desired), "", "no ID in a spec");
    const none = await calls.during(async () =>
      assert.deepEqual(await service.read(mine, desired, {}), { found: false }),
    );
    assert.deepEqual(none, [], "nothing to name, nothing read");

    const sent = await calls.during(() => made(desired));
    assert.deepEqual(sent, ["CreateVpc"]);
    const input = calls.input("CreateVpc");
    assert.equal(input["CidrBlock"], "10.0.0.0/16");
    assert.equal(input["TagSpecification.1.ResourceType"], "vpc");
    const tags = JSON.stringify(input);
    assert.ok(tags.includes('"team"') && tags.includes("uid-vpc-"), tags);
    assert.equal(input["VpcId"], undefined, "EC2 assigns the ID");
  });

  test("read by the ID: ACK's status, the blocks, the tags, in one call (no flag in the spec, none read); the ARN composed in the account", async () => {
    const { named, id } = await made(spec({ tags: [{ key: "team", value: "net" }] }));
    assert.equal(service.identifier(named), id);
    const read = await calls.during(() => observed(mine, named));
    assert.deepEqual(read, ["DescribeVpcs"]);
    assert.deepEqual(calls.input("DescribeVpcs"), { "VpcId.1": id });
    const o = await observed(mine, named);
    assert.deepEqual(o.fields["cidrBlocks"], ["10.0.0.0/16"]);
    assert.equal(o.fields["enableDNSSupport"], undefined, "not asked");
    assert.deepEqual(
      (o.fields["tags"] as { key: string }[]).find((t) => t.key === "team"),
      { key: "team", value: "net" },
      "tags in ACK's shape",
    );
    assert.equal(o.arn, `arn:aws:ec2:${region}:${mine.account}:vpc/${id}`);
    const status = service.statusFrom?.(o) ?? {};
    assert.equal(status["vpcID"], id, "ACK's vpcID");
    assert.equal(status["state"], "available");
    assert.equal(status["ownerID"], mine.account);
    assert.equal((status["cidrBlockAssociationSet"] as { cidrBlock: string }[])[0]?.cidrBlock, "10.0.0.0/16");
    assert.ok(service.parseStatus(status).ok, "status fits the CRD's status schema");
    assert.deepEqual(service.diff(named, o), [], "nothing differs right after the create");
  });

  test("CIDR blocks: another associated, then disassociated by its association's ID", async () => {
    const { named, id } = await made(spec());
    const two = { ...named, cidrBlocks: ["10.0.0.0/16", "10.2.0.0/16"] };
    const { sent, after: withTwo } = await converge(two);
    assert.deepEqual(sent, ["AssociateVpcCidrBlock"]);
    assert.deepEqual(calls.input("AssociateVpcCidrBlock"), { VpcId: id, CidrBlock: "10.2.0.0/16" });
    assert.deepEqual(withTwo.fields["cidrBlocks"], ["10.0.0.0/16", "10.2.0.0/16"]);
    const status = service.statusFrom?.(withTwo) ?? {};
    const set = status["cidrBlockAssociationSet"] as {
      associationID: string;
      cidrBlock: string;
    }[];
    const association = set.find((a) => a.cidrBlock === "10.2.0.0/16")?.associationID;

    const { sent: sent2, after: withOne } = await converge(named);
    assert.deepEqual(sent2, ["DisassociateVpcCidrBlock"]);
    assert.deepEqual(calls.input("DisassociateVpcCidrBlock"), { AssociationId: association });
    assert.deepEqual(withOne.fields["cidrBlocks"], ["10.0.0.0/16"]);
  });

  test("DNS and usage-metrics flags: read and set one call each (set as {Value}), only those the spec sets; left out, EC2's value kept", async () => {
    const { named, id } = await made(spec());
    const flagged = {
      ...named,
      enableDNSHostnames: true,
      enableDNSSupport: false,
      enableNetworkAddressUsageMetrics: false,
    };
    const read = await calls.during(() => observed(mine, flagged));
    assert.deepEqual(read, [
      "DescribeVpcs",
      "DescribeVpcAttribute",
      "DescribeVpcAttribute",
      "DescribeVpcAttribute",
    ]);
    assert.deepEqual(
      [0, 1, 2].map((n) => calls.input("DescribeVpcAttribute", n)),
      ["enableDnsSupport", "enableDnsHostnames", "enableNetworkAddressUsageMetrics"].map((Attribute) => ({
        VpcId: id,
        Attribute,
      })),
    );
    const { sent, after } = await converge(flagged);
    assert.deepEqual(
      sent,
      ["ModifyVpcAttribute", "ModifyVpcAttribute"],
      "the metrics are already off: not sent",
    );
    const inputs = [0, 1].map((n) => calls.input("ModifyVpcAttribute", n));
    assert.deepEqual(inputs, [
      { VpcId: id, "EnableDnsSupport.Value": "false" },
      { VpcId: id, "EnableDnsHostnames.Value": "true" },
    ]);
    assert.equal(after.fields["enableDNSSupport"], false);
    assert.equal(after.fields["enableDNSHostnames"], true);

    // Left out: neither read nor set; EC2 keeps what it has.
    const read2 = await calls.during(() => observed(mine, named));
    assert.deepEqual(read2, ["DescribeVpcs"]);
    const { sent: none } = await converge(named);
    assert.deepEqual(none, []);
    const kept = await observed(mine, { ...named, enableDNSHostnames: true });
    assert.equal(kept.fields["enableDNSHostnames"], true, "still on");
  });

  test("disallowSecurityGroupDefaultRules: the default group's rules revoked, its state in status; false leaves them", async () => {
    const { named, id } = await made(spec({ disallowSecurityGroupDefaultRules: false }));
    const group = async () =>
      (
        await mine.sdk.send(
          new DescribeSecurityGroupsCommand({
            Filters: [
              { Name: "vpc-id", Values: [id] },
              { Name: "group-name", Values: ["default"] },
            ],
          }),
        )
      ).SecurityGroups?.[0];
    const before = await group();
    assert.ok(before?.GroupId, "every VPC has a default security group");
    const rules = (before.IpPermissions?.length ?? 0) + (before.IpPermissionsEgress?.length ?? 0);
    assert.ok(rules > 0, "with EC2's default rules");
    const kept = await observed(mine, named);
    assert.equal(service.statusFrom?.(kept)["securityGroupDefaultRulesExist"], true);
    assert.deepEqual(service.diff(named, kept), [], "false asks for nothing");

    const disallowed = { ...named, disallowSecurityGroupDefaultRules: true };
    assert.deepEqual(service.diff(disallowed, kept), ["spec.disallowSecurityGroupDefaultRules"]);
    const { sent, after: emptied } = await converge(disallowed);
    assert.ok(
      sent.includes("RevokeSecurityGroupIngress") || sent.includes("RevokeSecurityGroupEgress"),
      String(sent),
    );
    const now = await group();
    assert.equal((now?.IpPermissions?.length ?? 0) + (now?.IpPermissionsEgress?.length ?? 0), 0);
    assert.equal(service.statusFrom?.(emptied)["securityGroupDefaultRulesExist"], false);

    // A rule added out of band is drift: revoked again.
    await mine.sdk.send(
      new AuthorizeSecurityGroupIngressCommand({
        GroupId: now?.GroupId,
        IpPermissions: [
          { IpProtocol: "tcp", FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: "10.0.0.0/8" }] },
        ],
      }),
    );
    const { sent: again } = await converge(disallowed);
    assert.deepEqual(again, ["RevokeSecurityGroupIngress"]);
  });

  test("tags: added, changed and removed by CreateTags and DeleteTags on the ID, the ownership tags kept", async () => {
    const { named, id } = await made(spec({ tags: [{ key: "team", value: "net" }] }));
    const desired = {
      ...named,
      tags: [
        { key: "team", value: "edge" },
        { key: "env", value: "prod" },
      ],
    };
    const { sent, after: tagged } = await converge(desired);
    assert.deepEqual(sent, ["CreateTags"]);
    assert.equal(calls.input("CreateTags")["ResourceId.1"], id);
    assert.equal(tagged.tags["env"], "prod");

    const { tags: _t, ...untagged } = desired;
    const { sent: sent2, after: left } = await converge(untagged);
    assert.deepEqual(sent2, ["DeleteTags"]);
    const input = calls.input("DeleteTags");
    assert.equal(input["ResourceId.1"], id);
    assert.deepEqual(
      Object.entries(input)
        .filter(([k]) => k.startsWith("Tag."))
        .map(([, v]) => v)
        .sort(),
      ["env", "team"],
      "each key as a tag's Key, no value: removed whatever it holds",
    );
    assert.equal(left.tags["team"], undefined);
    assert.ok(left.tags["services.k8s.aws/owner-uid"], "the ownership tags stay");
  });

  test("findTagged: EC2's tag filter finds only the VPCs tagged with that value, in the client's own account", async () => {
    const { id, uid } = await made(spec());
    await made(spec());
    const sent = await calls.during(async () =>
      assert.deepEqual(await assigned().findTagged(mine, "services.k8s.aws/owner-uid", uid, {}), [id]),
    );
    assert.deepEqual(sent, ["DescribeVpcs"], "one filtered call");
    assert.equal(calls.input("DescribeVpcs")["Filter.1.Name"], "tag:services.k8s.aws/owner-uid");
    assert.deepEqual(await assigned().findTagged(other, "services.k8s.aws/owner-uid", uid, {}), []);
    assert.deepEqual(await assigned().findTagged(mine, "services.k8s.aws/owner-uid", "nobody", {}), []);
  });

  test("another account's client finds nothing by the ID", async () => {
    const { named } = await made(spec());
    assert.deepEqual(await service.read(other, named, {}), { found: false });
  });

  test("a CreateVpc whose answer is lost is not sent again by the SDK: the VPC EC2 made is the only one, found by its tag", async () => {
    const uid = `uid-vpc-lost-${process.pid}`;
    const remove = h.accounts.proxy.addFault({
      name: "answer lost",
      match: (r) => r.action === "CreateVpc" && r.body.includes(uid),
      respond: "forward-then-reset",
    });
    try {
      const sent = await calls.during(() =>
        assert.rejects(service.create(mine, spec(), region, ownerOf(uid), {}, noSecrets)),
      );
      assert.deepEqual(sent, ["CreateVpc"], "one attempt, though the SDK retries a reset connection");
    } finally {
      remove();
    }
    const found = await assigned().findTagged(mine, "services.k8s.aws/owner-uid", uid, {});
    assert.equal(found.length, 1, "EC2 made it once");
  });

  test("delete: DeleteVpc by the ID; a VPC that still holds a subnet is refused, saying what to do, and deleted once it is gone", async () => {
    const { named, id } = await made(spec());
    const subnet = await mine.sdk.send(new CreateSubnetCommand({ VpcId: id, CidrBlock: "10.0.1.0/24" }));
    await assert.rejects(service.delete(mine, named, {}, {}), (err: Error) => {
      assert.match(err.message, /DependencyViolation/);
      assert.match(err.message, /delete those first/);
      return true;
    });
    await mine.sdk.send(new DeleteSubnetCommand({ SubnetId: subnet.Subnet?.SubnetId }));
    const sent = await calls.during(() => service.delete(mine, named, {}, {}));
    assert.deepEqual(writesOnly(sent), ["DeleteVpc"]);
    assert.deepEqual(calls.input("DeleteVpc"), { VpcId: id });
    const left = await mine.sdk.send(
      new DescribeVpcsCommand({ Filters: [{ Name: "vpc-id", Values: [id] }] }),
    );
    assert.deepEqual(left.Vpcs ?? [], []);
    assert.deepEqual(await service.read(mine, named, {}), { found: false }, "gone is none");
  });
});
