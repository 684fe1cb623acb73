// The Subnet kind — a declaration served by the generic runtime — against the AWS emulator, calls
// checked on the wire through the recording proxy. A subnet is named by the ID EC2 assigns: the
// create answers it with the tags on (TagSpecifications); the launch settings are read from the
// subnet's own answer (one call) and set one ModifySubnetAttribute each, a flag as `{Value}`; the
// route tables it names are associated, and dropped ones disassociated by the association's ID;
// EC2's tag filter finds a subnet tagged as a resource's in the client's own account only.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  CreateRouteTableCommand,
  CreateVpcCommand,
  DescribeRouteTablesCommand,
  type EC2Client,
} from "@aws-sdk/client-ec2";
import { ec2ClientFactory } from "../../src/services/ec2/client.ts";
import { subnetService as service } from "../../src/services/ec2/subnet.ts";
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
    label: "ec2-subnet",
    region,
    kind: "Subnet",
    namespace: "net",
    factory: ec2ClientFactory,
    service,
  });
  ({ calls, mine, other } = h.accounts);
  vpcId = (await mine.sdk.send(new CreateVpcCommand({ CidrBlock: "10.8.0.0/16" }))).Vpc?.VpcId ?? "";
});

after(() => h?.accounts.close());

const assigned = () => h.assigned();
const ownerOf = (uid: string) => h.ownerOf(uid);
const made = (desired: Record<string, unknown>, uid = `uid-subnet-${process.pid}-${counter}`) =>
  h.made(desired, uid);
const observed = (client: Client, s: Record<string, unknown>) => h.observed(client, s);
const converge = (s: Record<string, unknown>) => h.converge(s);

function spec(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const r = service.parseSpec({ vpcID: vpcId, cidrBlock: `10.8.${++counter}.0/24`, ...extra });
  assert.ok(r.ok, r.ok ? "" : r.message);
  return r.value;
}

describe("Subnet through the generic runtime", () => {
  test("create: one CreateSubnet in the VPC with its block and the tags in its tag specification; read in one call", async () => {
    const desired = spec({ tags: [{ key: "tier", value: "data" }] });
    const sent = await calls.during(() => made(desired));
    assert.deepEqual(sent, ["CreateSubnet"]);
    const input = calls.input("CreateSubnet");
    assert.equal(input["VpcId"], vpcId);
    assert.equal(input["CidrBlock"], desired["cidrBlock"]);
    assert.equal(input["TagSpecification.1.ResourceType"], "subnet");

    const { named, id } = await made(spec());
    const read = await calls.during(() => observed(mine, named));
    assert.deepEqual(read, ["DescribeSubnets"], "the settings are the subnet's own members");
    const o = await observed(mine, named);
    assert.equal(o.fields["vpcID"], vpcId);
    assert.equal(o.arn, `arn:aws:ec2:${region}:${mine.account}:subnet/${id}`);
    const status = service.statusFrom?.(o) ?? {};
    assert.equal(status["subnetID"], id, "ACK's subnetID");
    assert.equal(status["state"], "available");
    assert.equal(typeof status["availableIPAddressCount"], "number");
    assert.ok(service.parseStatus(status).ok, "status fits the CRD's status schema");
    assert.deepEqual(service.diff(named, o), []);
  });

  test("launch settings: one ModifySubnetAttribute each, a flag as {Value}, the hostname type by its own member; left out, kept", async () => {
    const { named, id } = await made(spec());
    const { sent, after } = await converge({ ...named, mapPublicIPOnLaunch: true });
    assert.deepEqual(sent, ["ModifySubnetAttribute"]);
    assert.deepEqual(calls.input("ModifySubnetAttribute"), {
      SubnetId: id,
      "MapPublicIpOnLaunch.Value": "true",
    });
    assert.equal(after.fields["mapPublicIPOnLaunch"], true);
    // moto keeps no private DNS name options: the call is checked on the wire.
    const withHostnames = {
      ...named,
      mapPublicIPOnLaunch: true,
      hostnameType: "resource-name",
      enableResourceNameDNSARecord: true,
    };
    const wire = await calls.during(() =>
      service.update(mine, withHostnames, after, ownerOf("x"), {}, noSecrets),
    );
    assert.deepEqual(writesOnly(wire), ["ModifySubnetAttribute", "ModifySubnetAttribute"]);
    assert.deepEqual(
      [0, 1].map((n) => calls.input("ModifySubnetAttribute", n)),
      [
        { SubnetId: id, PrivateDnsHostnameTypeOnLaunch: "resource-name" },
        { SubnetId: id, "EnableResourceNameDnsARecordOnLaunch.Value": "true" },
      ],
    );
    const { sent: none } = await converge(named);
    assert.deepEqual(none, [], "left out, EC2's value is kept");
  });

  test("route tables: associated, then disassociated by the association's ID; left out, none read", async () => {
    const { named, id } = await made(spec());
    const table = (await mine.sdk.send(new CreateRouteTableCommand({ VpcId: vpcId }))).RouteTable
      ?.RouteTableId;
    const routed = { ...named, routeTables: [table] };
    const { sent } = await converge(routed);
    assert.deepEqual(sent, ["AssociateRouteTable"]);
    assert.deepEqual(calls.input("AssociateRouteTable"), { SubnetId: id, RouteTableId: table });
    const association = (
      await mine.sdk.send(
        new DescribeRouteTablesCommand({ Filters: [{ Name: "association.subnet-id", Values: [id] }] }),
      )
    ).RouteTables?.[0]?.Associations?.find((a) => a.SubnetId === id)?.RouteTableAssociationId;
    assert.ok(association);

    const { sent: sent2, after } = await converge({ ...named, routeTables: [] });
    assert.deepEqual(sent2, ["DisassociateRouteTable"]);
    assert.deepEqual(calls.input("DisassociateRouteTable"), { AssociationId: association });
    assert.deepEqual(after.fields["routeTables"] ?? [], []);
    const read = await calls.during(() => observed(mine, named));
    assert.deepEqual(read, ["DescribeSubnets"], "left out: the route tables are not read");
  });

  test("findTagged: EC2's tag filter, in the client's own account only; another account reads nothing by the ID", async () => {
    const { id, uid, named } = await made(spec());
    assert.deepEqual(await assigned().findTagged(mine, "services.k8s.aws/owner-uid", uid, {}), [id]);
    assert.deepEqual(await assigned().findTagged(other, "services.k8s.aws/owner-uid", uid, {}), []);
    assert.deepEqual(await service.read(other, named, {}), { found: false });
  });

  test("a CreateSubnet whose answer is lost is sent once: the subnet EC2 made is found by its tag", async () => {
    const uid = `uid-subnet-lost-${process.pid}`;
    const remove = h.accounts.proxy.addFault({
      name: "answer lost",
      match: (r) => r.action === "CreateSubnet" && r.body.includes(uid),
      respond: "forward-then-reset",
    });
    try {
      const sent = await calls.during(() =>
        assert.rejects(service.create(mine, spec(), region, ownerOf(uid), {}, noSecrets)),
      );
      assert.deepEqual(sent, ["CreateSubnet"]);
    } finally {
      remove();
    }
    assert.equal((await assigned().findTagged(mine, "services.k8s.aws/owner-uid", uid, {})).length, 1);
  });

  test("delete: DeleteSubnet by the ID; gone is none", async () => {
    const { named, id } = await made(spec());
    const sent = await calls.during(() => service.delete(mine, named, {}, {}));
    assert.deepEqual(writesOnly(sent), ["DeleteSubnet"]);
    assert.deepEqual(calls.input("DeleteSubnet"), { SubnetId: id });
    assert.deepEqual(await service.read(mine, named, {}), { found: false });
  });
});
