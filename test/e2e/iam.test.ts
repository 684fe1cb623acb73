// Role — the ninth kind, IAM's, a declaration served by the generic runtime with no hook — end to
// end with the real controller process: a role in a namespace mapped to 111111111111 lands in that
// account (checked with that account's own credentials), tagged as the object's, with its trust
// policy, a managed policy and an inline policy, Synced with ACK's status and an ARN with its path
// and no region; a change of the inline policy is applied; a role of the same name in the other
// account is never touched; deleting the object detaches and deletes its policies, then the role.
// A DBInstance's monitoringRoleRef takes the Role's ARN, composed from its spec, not its status.
// A Policy lands there too, its document changed as a new default version; a Role's policyRefs
// attach it by the ARN composed from its spec, and a Queue's policyRef takes its document (ACK's
// Spec.PolicyDocument); it is deleted once nothing uses it, its other versions first. A Bucket's
// replication.roleRef, a reference inside an object, takes the Role's ARN. A trust policy letting
// in an account the namespace is not granted is said in a Warning Event (the role is made: warn is
// the default; refuse: principals.test.ts).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  CreatePolicyCommand,
  CreateRoleCommand,
  GetPolicyCommand,
  GetRoleCommand,
  GetRolePolicyCommand,
  IAMClient,
  ListAttachedRolePoliciesCommand,
  type Role,
} from "@aws-sdk/client-iam";
import { GetBucketReplicationCommand, S3Client } from "@aws-sdk/client-s3";
import { patchTypes } from "../../src/runtime/kube-client.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { kindMakers } from "../support/minimal-resources.ts";
import { dbInstanceIn } from "../support/rds-instances.ts";
import { queueAttributesIn } from "../support/sqs-queues.ts";
import {
  clientAs,
  deleteResourceAndWait,
  type E2E,
  eventsAbout,
  getResource,
  patchResource,
  region,
  resourcePath,
  startAppsInAccount,
  waitForEvent,
  waitForSynced,
} from "./fixture.ts";

const X = "111111111111";
const Y = "222222222222";
const trust = JSON.stringify({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "sts:AssumeRole" }],
});
const policy = (action: string) =>
  JSON.stringify({ Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: action, Resource: "*" }] });

let e2e: E2E;
let endpoint: string;

before(async () => {
  e2e = await startAppsInAccount(X);
  endpoint = e2e.stack.awsEndpoint ?? "";
});
after(() => e2e?.stop());

const iamAs = (account: string) => clientAs(IAMClient, endpoint, account);

async function roleIn(account: string, name: string): Promise<Role | undefined> {
  try {
    return (await (await iamAs(account)).send(new GetRoleCommand({ RoleName: name }))).Role;
  } catch (err) {
    if ((err as { name?: string }).name === "NoSuchEntityException") return undefined;
    throw err;
  }
}

function role(name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: "iam.services.k8s.aws/v1alpha1",
    kind: "Role",
    metadata: { name, namespace: "apps" },
    spec: { name: `apps-${name}`, assumeRolePolicyDocument: trust, ...spec },
  } as KubeObject;
}

const synced = (name: string, minGeneration = 1) =>
  waitForSynced(e2e.kube, "Role", "apps", name, minGeneration);

test("a Role lands in the namespace's account, tagged, with its policies, Synced; a change is applied; the other account's role of that name is untouched; delete removes its policies, then it", async () => {
  const name = "web";
  const awsName = `apps-${name}`;
  const x = await iamAs(X);
  await (await iamAs(Y)).send(
    new CreateRoleCommand({ RoleName: awsName, AssumeRolePolicyDocument: trust, Description: "Y's own" }),
  );
  const managed = (
    await x.send(new CreatePolicyCommand({ PolicyName: "apps-read", PolicyDocument: policy("s3:GetObject") }))
  ).Policy?.Arn;
  assert.ok(managed);
  await e2e.apply([
    role(name, {
      path: "/apps/",
      policies: [managed],
      inlinePolicies: { queue: policy("sqs:ReceiveMessage") },
      tags: [{ key: "team", value: "web" }],
    }),
  ]);
  const r = await synced(name);
  const arn = `arn:aws:iam::${X}:role/apps/${awsName}`;
  assert.equal(r.status?.ackResourceMetadata?.ownerAccountID, X);
  assert.equal(r.status?.ackResourceMetadata?.arn, arn);
  const status = r.status as Record<string, unknown> | undefined;
  assert.ok(String(status?.["roleID"]).length > 0, "ACK's roleID");
  assert.ok(r.metadata.finalizers?.includes("finalizers.iam.services.k8s.aws/Role"));
  assert.equal(
    (r.spec as Record<string, unknown>)["maxSessionDuration"],
    3600,
    "IAM's value copied into the spec",
  );

  const made = await roleIn(X, awsName);
  assert.equal(made?.Arn, arn);
  const tags = Object.fromEntries((made?.Tags ?? []).map((t) => [t.Key, t.Value]));
  assert.equal(tags["team"], "web");
  assert.equal(tags["services.k8s.aws/owner-uid"], r.metadata.uid, "tagged as this object's");
  const attached = await x.send(new ListAttachedRolePoliciesCommand({ RoleName: awsName }));
  assert.deepEqual(
    attached.AttachedPolicies?.map((p) => p.PolicyArn),
    [managed],
  );

  await patchResource(e2e.kube, "Role", "apps", name, {
    spec: { inlinePolicies: { queue: policy("sqs:SendMessage") } },
  });
  const patched = await getResource(e2e.kube, "Role", "apps", name);
  await synced(name, patched?.metadata.generation ?? 0);
  const inline = await x.send(new GetRolePolicyCommand({ RoleName: awsName, PolicyName: "queue" }));
  assert.deepEqual(
    JSON.parse(decodeURIComponent(inline.PolicyDocument ?? "")),
    JSON.parse(policy("sqs:SendMessage")),
  );

  await deleteResourceAndWait(e2e.kube, "Role", "apps", name);
  assert.equal(await roleIn(X, awsName), undefined, "deleted in AWS, its policies first");
  const theirs = await roleIn(Y, awsName);
  assert.equal(theirs?.Description, "Y's own", "the other account's role of that name is untouched");
});

test("a DBInstance's monitoringRoleRef names the Role: the instance's MonitoringRoleArn is the Role's ARN, path and all, from the Role's spec, never its status", async () => {
  await e2e.apply([role("monitoring", { path: "/rds/" })]);
  await synced("monitoring");
  // A forged ARN in the Role's status changes nothing: the ARN is composed from its spec and
  // placement. (A forged account there would only make the referrer wait: ReferenceNotPlaced.)
  await e2e.kube.request({
    method: "PATCH",
    path: `${resourcePath("Role", "apps", "monitoring")}/status`,
    contentType: patchTypes.merge,
    body: {
      status: {
        ackResourceMetadata: { arn: `arn:aws:iam::${X}:role/stolen`, ownerAccountID: X, region },
      },
    },
  });
  const maker = kindMakers["DBInstance"];
  assert.ok(maker);
  await e2e.apply([
    ...(maker.namespaceObjects?.("apps") ?? []),
    {
      apiVersion: "rds.services.k8s.aws/v1alpha1",
      kind: "DBInstance",
      metadata: { name: "db", namespace: "apps" },
      spec: {
        ...maker.spec("apps-db", X),
        monitoringInterval: 60,
        monitoringRoleRef: { from: { name: "monitoring" } },
      },
    } as KubeObject,
  ]);
  await waitForSynced(e2e.kube, "DBInstance", "apps", "db", 1);
  const made = await dbInstanceIn(endpoint, X, "apps-db");
  assert.equal(made?.MonitoringRoleArn, `arn:aws:iam::${X}:role/rds/apps-monitoring`);
  await deleteResourceAndWait(e2e.kube, "DBInstance", "apps", "db");
  await deleteResourceAndWait(e2e.kube, "Role", "apps", "monitoring");
});

test("a Policy lands in the account, its document changed as a new default version; a Role's policyRefs attach it by its ARN, a Queue's policyRef takes its document; deleted once nothing uses it", async () => {
  const x = await iamAs(X);
  const queueAccess = JSON.stringify({
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Principal: { AWS: X }, Action: "sqs:SendMessage", Resource: "*" }],
  });
  await e2e.apply([
    {
      apiVersion: "iam.services.k8s.aws/v1alpha1",
      kind: "Policy",
      metadata: { name: "read", namespace: "apps" },
      spec: { name: "apps-read", path: "/apps/", policyDocument: policy("s3:GetObject") },
    } as KubeObject,
    {
      apiVersion: "iam.services.k8s.aws/v1alpha1",
      kind: "Policy",
      metadata: { name: "queue-access", namespace: "apps" },
      spec: { name: "apps-queue-access", policyDocument: queueAccess },
    } as KubeObject,
  ]);
  const p = await waitForSynced(e2e.kube, "Policy", "apps", "read", 1);
  const arn = `arn:aws:iam::${X}:policy/apps/apps-read`;
  assert.equal(p.status?.ackResourceMetadata?.arn, arn);
  assert.equal((p.status as Record<string, unknown> | undefined)?.["defaultVersionID"], "v1");
  const made = (await x.send(new GetPolicyCommand({ PolicyArn: arn }))).Policy;
  const tags = Object.fromEntries((made?.Tags ?? []).map((t) => [t.Key, t.Value]));
  assert.equal(tags["services.k8s.aws/owner-uid"], p.metadata.uid, "tagged as this object's");

  await patchResource(e2e.kube, "Policy", "apps", "read", {
    spec: { policyDocument: policy("s3:ListBucket") },
  });
  const changed = await getResource(e2e.kube, "Policy", "apps", "read");
  const after = await waitForSynced(e2e.kube, "Policy", "apps", "read", changed?.metadata.generation ?? 0);
  assert.equal((after.status as Record<string, unknown> | undefined)?.["defaultVersionID"], "v2");

  await waitForSynced(e2e.kube, "Policy", "apps", "queue-access", 1);
  await e2e.apply([
    role("reader", { policyRefs: [{ from: { name: "read" } }] }),
    {
      apiVersion: "sqs.services.k8s.aws/v1alpha1",
      kind: "Queue",
      metadata: { name: "inbox", namespace: "apps" },
      spec: { queueName: "apps-inbox", policyRef: { from: { name: "queue-access" } } },
    } as KubeObject,
  ]);
  await synced("reader");
  const attached = await x.send(new ListAttachedRolePoliciesCommand({ RoleName: "apps-reader" }));
  assert.deepEqual(
    attached.AttachedPolicies?.map((a) => a.PolicyArn),
    [arn],
  );
  await waitForSynced(e2e.kube, "Queue", "apps", "inbox", 1);
  const queue = await queueAttributesIn(endpoint, X, "apps-inbox");
  assert.deepEqual(JSON.parse(queue?.["Policy"] ?? "{}"), JSON.parse(queueAccess), "the Policy's document");

  await deleteResourceAndWait(e2e.kube, "Role", "apps", "reader");
  await deleteResourceAndWait(e2e.kube, "Queue", "apps", "inbox");
  await deleteResourceAndWait(e2e.kube, "Policy", "apps", "read");
  await deleteResourceAndWait(e2e.kube, "Policy", "apps", "queue-access");
  await assert.rejects(x.send(new GetPolicyCommand({ PolicyArn: arn })), /not found/i, "deleted, v1 first");
});

test("a Bucket's replication.roleRef (a reference inside an object) names the Role: the replication's Role is its ARN", async () => {
  await e2e.apply([role("replicator", { path: "/s3/" })]);
  await synced("replicator");
  const source = `apps-src-${process.pid}`;
  await e2e.apply([
    {
      apiVersion: "s3.services.k8s.aws/v1alpha1",
      kind: "Bucket",
      metadata: { name: "src", namespace: "apps" },
      spec: {
        name: source,
        versioning: { status: "Enabled" },
        replication: {
          roleRef: { from: { name: "replicator" } },
          rules: [
            {
              id: "all",
              priority: 1,
              status: "Enabled",
              filter: { prefix: "" },
              deleteMarkerReplication: { status: "Disabled" },
              destination: { bucket: `arn:aws:s3:::apps-replica-${process.pid}` },
            },
          ],
        },
      },
    } as KubeObject,
  ]);
  await waitForSynced(e2e.kube, "Bucket", "apps", "src", 1);
  const s3 = await clientAs(S3Client, endpoint, X);
  const replication = await s3.send(new GetBucketReplicationCommand({ Bucket: source }));
  assert.equal(replication.ReplicationConfiguration?.Role, `arn:aws:iam::${X}:role/s3/apps-replicator`);
  await deleteResourceAndWait(e2e.kube, "Bucket", "apps", "src");
  await deleteResourceAndWait(e2e.kube, "Role", "apps", "replicator");
});

test("a trust policy letting in an account namespace apps is not granted: a Warning Event naming it, once; the role is made (warn is the default)", async () => {
  const outsider = "333333333333";
  const trusting = JSON.stringify({
    Version: "2012-10-17",
    Statement: [
      { Effect: "Allow", Principal: { AWS: `arn:aws:iam::${outsider}:root` }, Action: "sts:AssumeRole" },
      { Effect: "Allow", Principal: { AWS: X }, Action: "sts:AssumeRole" },
    ],
  });
  await e2e.apply([role("trusting", { assumeRolePolicyDocument: trusting })]);
  await synced("trusting");
  const event = await waitForEvent(
    e2e.kube,
    "apps",
    "Role",
    "trusting",
    "PrincipalNotGranted",
    /333333333333/,
  );
  assert.equal(event.type, "Warning");
  assert.match(
    event.message,
    /^spec\.assumeRolePolicyDocument lets in account 333333333333, which namespace apps is not granted \(the accounts it may act in: .*111111111111.*\)\. Fix: remove it/,
  );
  assert.ok(await roleIn(X, "apps-trusting"), "made: warn only");
  // Reconciled again (a description change): the same finding is not said again.
  await patchResource(e2e.kube, "Role", "apps", "trusting", { spec: { description: "again" } });
  await synced("trusting", 2);
  const said = (await eventsAbout(e2e.kube, "apps", "Role", "trusting")).filter(
    (e) => e.reason === "PrincipalNotGranted",
  );
  assert.deepEqual(
    said.map((e) => e.count ?? 1),
    [1],
  );
  await deleteResourceAndWait(e2e.kube, "Role", "apps", "trusting");
});
