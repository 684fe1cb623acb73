// EC2's VPC and Subnet end to end with the real controller process and the recording proxy: kinds named by
// the ID EC2 assigns and found by EC2's tag filter (src/controller/reconcile/locate.ts, search
// "filter"). A VPC lands in its namespace's account with one CreateVpc (its tags in the create),
// Synced with ACK's status.vpcID and ARN, its flags and second CIDR block applied; a tenant's
// status naming another resource's VPC touches nothing of it; a controller killed after EC2 made
// the VPC but before status said so finds that VPC by its tag, no second one; deleted while a
// subnet remains, the VPC waits saying what holds it, and goes once the subnet does. A Subnet's
// vpcRef fills the VPC's ID, held to the VPC's tags in the subnet's account: a forged vpcID on the
// VPC resource makes the subnet wait, and nothing is made. A SecurityGroup in that VPC by vpcRef
// gets its rules (a groupRef to another group, a pair naming itself), EC2's default egress rule
// revoked; two groups naming each other, and one naming itself by groupRef, are each made at once
// and get their rules once the groups they name have IDs.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  CreateSubnetCommand,
  DeleteSubnetCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcAttributeCommand,
  DescribeVpcsCommand,
  EC2Client,
} from "@aws-sdk/client-ec2";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { waitFor } from "../../src/runtime/wait-for.ts";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";
import {
  type ControllerProcess,
  clientAs,
  condition,
  configMap,
  deleteResourceAndWait,
  type E2E,
  getResource,
  identity,
  namespace,
  patchResource,
  resourcePath,
  startE2E,
  waitForSynced,
  writeStatusAsTenant,
} from "./fixture.ts";

const X = "111111111111";
let e2e: E2E;
let proxy: AwsProxy;
let controller: ControllerProcess;
let ec2: EC2Client;

const startController = () => e2e.startController([], { awsEndpoint: proxy.endpoint });

before(async () => {
  e2e = await startE2E();
  proxy = await startAwsProxy(e2e.stack.awsEndpoint ?? "");
  await e2e.apply([
    namespace("ack-system"),
    namespace("net", { "services.k8s.aws/owner-account-id": X }),
    configMap("ack-role-account-map", { [X]: `arn:aws:iam::${X}:role/net-x` }),
    identity("AWSControllerIdentity", "default", { allowedNamespaces: { list: ["net", "ack-system"] } }),
  ]);
  controller = await startController();
  ec2 = await clientAs(EC2Client, e2e.stack.awsEndpoint ?? "", X);
});
after(async () => {
  await e2e?.stop();
  await proxy?.close();
});

const vpc = (name: string, spec: Record<string, unknown> = {}): KubeObject =>
  ({
    apiVersion: "ec2.services.k8s.aws/v1alpha1",
    kind: "VPC",
    metadata: { name, namespace: "net" },
    spec: { cidrBlocks: ["10.0.0.0/16"], tags: [{ key: "Name", value: `net-${name}` }], ...spec },
  }) as KubeObject;

const vpcIdOf = async (name: string) =>
  String(
    ((await getResource(e2e.kube, "VPC", "net", name))?.status as Record<string, unknown>)?.["vpcID"] ?? "",
  );
const uidOf = async (name: string) => (await getResource(e2e.kube, "VPC", "net", name))?.metadata.uid ?? "";

/** The VPCs in X tagged as the resource `uid`'s. */
async function vpcsOf(uid: string): Promise<string[]> {
  const answer = await ec2.send(
    new DescribeVpcsCommand({ Filters: [{ Name: "tag:services.k8s.aws/owner-uid", Values: [uid] }] }),
  );
  return (answer.Vpcs ?? []).map((v) => v.VpcId ?? "");
}

/** Writes `status` as a tenant may (the status subresource of its own object). */
const writeStatus = (name: string, status: Record<string, unknown>) =>
  writeStatusAsTenant(e2e.kube, "VPC", "net", name, status);

/** DescribeVpcs calls by EC2's tag filter (the search for a VPC status does not name). */
const searches = () => proxy.calls("DescribeVpcs").filter((r) => r.body.includes("Filter.1.Name=tag"));

/** Requests whose form body names `id`, by action. */
const naming = (id: string) => proxy.requests.filter((r) => r.body.includes(id)).map((r) => r.action);

test("a VPC lands in the namespace's account with one CreateVpc, Synced with status.vpcID; flags and a second block applied", async () => {
  proxy.clearRecording();
  await e2e.apply([vpc("main", { enableDNSHostnames: true })]);
  const synced = await waitForSynced(e2e.kube, "VPC", "net", "main");
  const id = await vpcIdOf("main");
  assert.match(id, /^vpc-[0-9a-f]+$/);
  assert.equal(proxy.calls("CreateVpc").length, 1);
  assert.deepEqual(searches(), [], "a new VPC costs no search");
  assert.match(
    proxy.calls("CreateVpc")[0]?.body ?? "",
    /TagSpecification\.1\.ResourceType=vpc/,
    "tagged in the create",
  );
  assert.deepEqual(await vpcsOf(synced.metadata.uid ?? ""), [id], "one VPC, tagged as this resource's");
  const meta = synced.status?.ackResourceMetadata as Record<string, unknown> | undefined;
  assert.equal(meta?.["arn"], `arn:aws:ec2:us-east-1:${X}:vpc/${id}`);
  assert.equal(meta?.["ownerAccountID"], X);
  assert.equal((synced.status as Record<string, unknown>)["state"], "available");
  const hostnames = await ec2.send(
    new DescribeVpcAttributeCommand({ VpcId: id, Attribute: "enableDnsHostnames" }),
  );
  assert.equal(hostnames.EnableDnsHostnames?.Value, true);

  await patchResource(e2e.kube, "VPC", "net", "main", {
    spec: { cidrBlocks: ["10.0.0.0/16", "10.1.0.0/16"] },
  });
  await waitForSynced(e2e.kube, "VPC", "net", "main", 2);
  const blocks = (await ec2.send(new DescribeVpcsCommand({ VpcIds: [id] }))).Vpcs?.[0]
    ?.CidrBlockAssociationSet;
  assert.deepEqual(
    (blocks ?? []).filter((b) => b.CidrBlockState?.State === "associated").map((b) => b.CidrBlock),
    ["10.0.0.0/16", "10.1.0.0/16"],
  );
});

test("status naming another resource's VPC: nothing of that VPC is touched; the VPC tagged as this resource's is found again", async () => {
  await e2e.apply([vpc("theirs"), vpc("mine")]);
  await waitForSynced(e2e.kube, "VPC", "net", "theirs");
  await waitForSynced(e2e.kube, "VPC", "net", "mine");
  const theirs = await vpcIdOf("theirs");
  const mine = await vpcIdOf("mine");
  proxy.clearRecording();
  await writeStatus("mine", { vpcID: theirs });
  // A change of spec makes the controller write: it must write to its own VPC, found by its tag.
  await patchResource(e2e.kube, "VPC", "net", "mine", {
    spec: { tags: [{ key: "Name", value: "mine-changed" }] },
  });
  await waitFor(
    async () =>
      (await vpcIdOf("mine")) === mine &&
      (await getResource(e2e.kube, "VPC", "net", "mine"))?.metadata.generation === 2
        ? true
        : undefined,
    { what: "mine Synced on its own VPC again", timeoutMs: 30_000 },
  );
  await waitForSynced(e2e.kube, "VPC", "net", "mine", 2);
  assert.ok(naming(theirs).includes("DescribeVpcs"), "the ID status named was read, and its tags refused it");
  assert.equal(searches().length, 1, "then EC2's tag filter found this resource's VPC");
  const writes = naming(theirs).filter((a) => !/^Describe/.test(a ?? ""));
  assert.deepEqual(writes, [], "no write names the other resource's VPC");
  const names = async (id: string) =>
    (await ec2.send(new DescribeVpcsCommand({ VpcIds: [id] }))).Vpcs?.[0]?.Tags?.find((t) => t.Key === "Name")
      ?.Value;
  assert.equal(await names(theirs), "net-theirs");
  assert.equal(await names(mine), "mine-changed");
  assert.equal(proxy.calls("CreateVpc").length, 0, "no second VPC");
});

test("killed after EC2 made the VPC, before status said so: the next controller finds that VPC by its tag, no second one", async () => {
  proxy.clearRecording();
  const remove = proxy.addFault({
    name: "hang CreateVpc",
    match: (r) => r.action === "CreateVpc" && r.body.includes("net-crash"),
    respond: "forward-then-hang",
    times: 1,
  });
  await e2e.apply([vpc("crash")]);
  await waitFor(() => (proxy.calls("CreateVpc").length === 1 ? true : undefined), {
    what: "the CreateVpc sent",
    timeoutMs: 20_000,
  });
  await controller.stop("SIGKILL");
  remove();
  const uid = await uidOf("crash");
  const made = await waitFor(async () => ((await vpcsOf(uid)).length === 1 ? vpcsOf(uid) : undefined), {
    what: "EC2 made the VPC",
    timeoutMs: 10_000,
  });
  assert.equal(await vpcIdOf("crash"), "", "status never said so");
  controller = await startController();
  await waitForSynced(e2e.kube, "VPC", "net", "crash");
  assert.deepEqual(await vpcsOf(uid), made, "the VPC EC2 made, and no other");
  assert.equal(await vpcIdOf("crash"), made[0]);
  assert.equal(proxy.calls("CreateVpc").length, 1, "one create in all");
});

test("deleted while a subnet remains: the VPC waits, saying what holds it; once the subnet goes, the VPC does", async () => {
  await e2e.apply([vpc("held")]);
  await waitForSynced(e2e.kube, "VPC", "net", "held");
  const id = await vpcIdOf("held");
  const subnet = await ec2.send(new CreateSubnetCommand({ VpcId: id, CidrBlock: "10.0.1.0/24" }));
  await e2e.kube.request({ method: "DELETE", path: resourcePath("VPC", "net", "held") });
  const waiting = await waitFor(
    async () => {
      const c = condition(await getResource(e2e.kube, "VPC", "net", "held"), "ACK.Recoverable");
      return c?.status === "True" && /DependencyViolation/.test(c.message ?? "") ? c : undefined;
    },
    { what: "the VPC's deletion refused while the subnet remains", timeoutMs: 30_000 },
  );
  assert.match(waiting.message ?? "", /delete those first/);
  assert.ok(await getResource(e2e.kube, "VPC", "net", "held"), "the resource stays while its VPC does");
  await ec2.send(new DeleteSubnetCommand({ SubnetId: subnet.Subnet?.SubnetId }));
  await waitFor(
    async () => ((await getResource(e2e.kube, "VPC", "net", "held")) === undefined ? true : undefined),
    { what: "the VPC deleted once the subnet went", timeoutMs: 60_000 },
  );
  const left = await ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: "vpc-id", Values: [id] }] }));
  assert.deepEqual(left.Vpcs ?? [], []);
  assert.ok(proxy.calls("DeleteVpc").length >= 2, "tried, refused, tried again");
});

test("a Subnet's vpcRef fills the VPC's ID; a forged vpcID on the VPC resource makes a subnet wait, nothing made", async () => {
  const subnet = (name: string, block: string): KubeObject =>
    ({
      apiVersion: "ec2.services.k8s.aws/v1alpha1",
      kind: "Subnet",
      metadata: { name, namespace: "net" },
      spec: { vpcRef: { from: { name: "shared" } }, cidrBlock: block },
    }) as KubeObject;
  await e2e.apply([vpc("shared"), subnet("app-a", "10.0.1.0/24")]);
  const made = await waitForSynced(e2e.kube, "Subnet", "net", "app-a");
  const id = await vpcIdOf("shared");
  const subnetId = String((made.status as Record<string, unknown>)["subnetID"]);
  assert.match(proxy.calls("CreateSubnet").at(-1)?.body ?? "", new RegExp(`VpcId=${id}`), "the VPC's ID");
  const answer = await ec2.send(new DescribeSubnetsCommand({ SubnetIds: [subnetId] }));
  assert.equal(answer.Subnets?.[0]?.VpcId, id);
  assert.equal((made.spec as Record<string, unknown>)["vpcID"], undefined, "never written into the spec");

  // Another resource's VPC in the VPC resource's status: the subnet checks its tags and waits.
  await e2e.apply([vpc("bystander")]);
  await waitForSynced(e2e.kube, "VPC", "net", "bystander");
  await writeStatus("shared", { vpcID: await vpcIdOf("bystander") });
  proxy.clearRecording();
  await e2e.apply([subnet("app-late", "10.0.2.0/24")]);
  await waitFor(
    async () => {
      const s = await getResource(e2e.kube, "Subnet", "net", "app-late");
      const c = condition(s, "ACK.Recoverable") ?? condition(s, "ACK.Terminal");
      return c?.status === "True" ? c : undefined;
    },
    { what: "the late Subnet refused", timeoutMs: 30_000 },
  );
  assert.equal(proxy.calls("CreateSubnet").length, 0, "nothing made in another resource's VPC");
});

test("a SecurityGroup in a VPC by reference: its rules applied (a groupRef, a pair naming itself), EC2's default egress rule revoked; groups naming each other or themselves get their rules once made", async () => {
  const group = (name: string, spec: Record<string, unknown>): KubeObject =>
    ({
      apiVersion: "ec2.services.k8s.aws/v1alpha1",
      kind: "SecurityGroup",
      metadata: { name, namespace: "net" },
      spec: {
        name: `net-${name}`,
        description: `the ${name} group`,
        vpcRef: { from: { name: "shared" } },
        ...spec,
      },
    }) as KubeObject;
  await e2e.apply([
    vpc("shared"),
    group("app", {}),
    group("db", {
      ingressRules: [
        {
          ipProtocol: "tcp",
          fromPort: 5432,
          toPort: 5432,
          userIDGroupPairs: [{ groupRef: { from: { name: "app" } }, description: "the app" }],
        },
        { ipProtocol: "tcp", fromPort: 5432, toPort: 5432, userIDGroupPairs: [{ description: "replicas" }] },
      ],
    }),
  ]);
  const app = await waitForSynced(e2e.kube, "SecurityGroup", "net", "app");
  const db = await waitForSynced(e2e.kube, "SecurityGroup", "net", "db");
  const appId = String((app.status as Record<string, unknown>)["id"]);
  const dbId = String((db.status as Record<string, unknown>)["id"]);
  const answer = (await ec2.send(new DescribeSecurityGroupsCommand({ GroupIds: [dbId] })))
    .SecurityGroups?.[0];
  assert.equal(answer?.VpcId, await vpcIdOf("shared"));
  const sources = (answer?.IpPermissions ?? [])
    .flatMap((p) => (p.UserIdGroupPairs ?? []).map((g) => g.GroupId))
    .sort();
  assert.deepEqual(sources, [appId, dbId].sort(), "the app's group by reference, and itself");
  assert.deepEqual(
    answer?.IpPermissionsEgress ?? [],
    [],
    "no egress rules in the spec: EC2's default revoked",
  );
  const rules = (db.status as Record<string, unknown>)["rules"] as unknown[] | undefined;
  assert.ok((rules ?? []).length >= 1, "ACK's status.rules");

  // Two groups naming each other, and one naming itself by groupRef: each is made at once, its
  // rules wait (not Synced, saying for what) until the groups they name have IDs, then apply.
  await e2e.apply([
    group("ping", {
      ingressRules: [
        {
          ipProtocol: "tcp",
          fromPort: 7,
          toPort: 7,
          userIDGroupPairs: [{ groupRef: { from: { name: "pong" } } }],
        },
      ],
    }),
    group("pong", {
      ingressRules: [
        {
          ipProtocol: "tcp",
          fromPort: 7,
          toPort: 7,
          userIDGroupPairs: [{ groupRef: { from: { name: "ping" } } }],
        },
      ],
    }),
    group("loop", {
      egressRules: [
        {
          ipProtocol: "tcp",
          fromPort: 22,
          toPort: 22,
          userIDGroupPairs: [{ groupRef: { from: { name: "loop" } } }],
        },
      ],
    }),
  ]);
  const ids: Record<string, string> = {};
  for (const name of ["ping", "pong", "loop"]) {
    const g = await waitForSynced(e2e.kube, "SecurityGroup", "net", name);
    ids[name] = String((g.status as Record<string, unknown>)["id"]);
  }
  const described = async (name: string) =>
    (await ec2.send(new DescribeSecurityGroupsCommand({ GroupIds: [ids[name] ?? ""] }))).SecurityGroups?.[0];
  const named = (perms: { UserIdGroupPairs?: { GroupId?: string }[] }[] | undefined) =>
    (perms ?? []).flatMap((p) => (p.UserIdGroupPairs ?? []).map((g) => g.GroupId));
  assert.deepEqual(named((await described("ping"))?.IpPermissions), [ids["pong"]]);
  assert.deepEqual(named((await described("pong"))?.IpPermissions), [ids["ping"]]);
  assert.deepEqual(
    named((await described("loop"))?.IpPermissionsEgress),
    [ids["loop"]],
    "itself, by groupRef",
  );
  const loop = await getResource(e2e.kube, "SecurityGroup", "net", "loop");
  const egress = (loop?.spec as Record<string, unknown> | undefined)?.["egressRules"] as
    | { userIDGroupPairs: Record<string, unknown>[] }[]
    | undefined;
  const pair = egress?.[0]?.userIDGroupPairs[0];
  assert.deepEqual(
    pair,
    { groupRef: { from: { name: "loop" } } },
    "the spec keeps the reference, no ID written in",
  );

  // Deleted, a group naming itself is not held by its own reference; two naming each other,
  // deleted together, each give their rules up first and both go.
  await deleteResourceAndWait(e2e.kube, "SecurityGroup", "net", "loop", 30_000);
  await Promise.all(
    ["ping", "pong"].map((name) => deleteResourceAndWait(e2e.kube, "SecurityGroup", "net", name, 60_000)),
  );
  const left = await ec2.send(
    new DescribeSecurityGroupsCommand({
      Filters: [{ Name: "group-id", Values: [ids["ping"] ?? "", ids["pong"] ?? ""] }],
    }),
  );
  assert.deepEqual(left.SecurityGroups ?? [], [], "both deleted in AWS");
});
