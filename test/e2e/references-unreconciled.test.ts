// A kind crossrole does not reconcile (`--reconcile-resources=DBSubnetGroup`: DBInstances are
// left to another controller, ACK's during a migration) still has its references read, so a
// DBSubnetGroup it references never waits on "who references it is unknown" for ever. But this
// controller never placed such an instance in the group, so it has no record of a use, and the
// instance's status (the other controller's, or a tenant's, to write) is never taken for one:
// the deletion is not held here. AWS is what holds it while the instance uses the group (RDS
// refuses with InvalidDBSubnetGroupStateFault; the emulator does not, so the fault proxy answers
// as RDS does): the group says so and stays, and goes once AWS lets it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { credentialsFor } from "../../src/local-stack/accounts.ts";
import { defaultSubnets } from "../../src/local-stack/default-subnets.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";
import {
  condition,
  configMap,
  deleteResourceAndWait,
  type E2E,
  getResource,
  namespace,
  region,
  resourcePath,
  startE2E,
  waitForResourceCondition,
} from "./fixture.ts";

const X = "111111111111";
let e2e: E2E;
let proxy: AwsProxy;

before(async () => {
  e2e = await startE2E();
  proxy = await startAwsProxy(e2e.stack.awsEndpoint ?? "");
  await e2e.apply([
    namespace("ack-system"),
    namespace("net", { "services.k8s.aws/owner-account-id": X }),
    configMap("ack-role-account-map", { [X]: `arn:aws:iam::${X}:role/net-x` }),
  ]);
  await e2e.startController(["--reconcile-resources=DBSubnetGroup"], { awsEndpoint: proxy.endpoint });
});
after(async () => {
  await e2e?.stop();
  await proxy?.close();
});

test("a group referenced by an instance crossrole does not reconcile: not held on that instance's status; AWS's refusal holds it, and it goes once AWS lets it", async () => {
  const endpoint = e2e.stack.awsEndpoint ?? "";
  const subnets = await defaultSubnets(endpoint, (await credentialsFor(endpoint, X)).accessKeyId, region);
  await e2e.apply([
    {
      apiVersion: "rds.services.k8s.aws/v1alpha1",
      kind: "DBSubnetGroup",
      metadata: { name: "shop-net", namespace: "net" },
      spec: { name: "shop-net", description: "shop database subnets", subnetIDs: subnets.slice(0, 2) },
    } as KubeObject,
    {
      apiVersion: "rds.services.k8s.aws/v1alpha1",
      kind: "DBInstance",
      metadata: { name: "shop-db", namespace: "net" },
      spec: {
        dbInstanceIdentifier: "shop-db",
        dbInstanceClass: "db.t3.micro",
        engine: "postgres",
        allocatedStorage: 20,
        masterUsername: "shop_admin",
        dbSubnetGroupRef: { from: { name: "shop-net" } },
      },
    } as KubeObject,
  ]);
  await waitForResourceCondition(e2e.kube, "DBSubnetGroup", "net", "shop-net", "ACK.ResourceSynced", "True");
  // The instance's status as the controller that manages it (ACK's) writes it: it is in AWS.
  await e2e.kube.request({
    method: "PATCH",
    path: `${resourcePath("DBInstance", "net", "shop-db")}/status`,
    contentType: "application/merge-patch+json",
    body: {
      status: {
        ackResourceMetadata: { ownerAccountID: X, region, arn: `arn:aws:rds:${region}:${X}:db:shop-db` },
      },
    },
  });
  // RDS refuses to delete a subnet group an instance still uses.
  const inUse = proxy.addFault({
    name: "subnet group in use",
    match: (r) => r.action === "DeleteDBSubnetGroup",
    respond: {
      status: 400,
      code: "InvalidDBSubnetGroupStateFault",
      message:
        "Cannot delete the subnet group 'shop-net' because at least one database instance: shop-db is still using it.",
    },
  });

  await e2e.kube.request({ method: "DELETE", path: resourcePath("DBSubnetGroup", "net", "shop-net") });
  const refused = await waitForResourceCondition(
    e2e.kube,
    "DBSubnetGroup",
    "net",
    "shop-net",
    "ACK.Recoverable",
    "True",
    "DeleteFailed",
  );
  assert.match(
    condition(refused, "ACK.Recoverable")?.message ?? "",
    /InvalidDBSubnetGroupStateFault|still using it/,
    "AWS's answer, not the instance's status, is what holds it",
  );
  assert.ok(proxy.calls("DeleteDBSubnetGroup").length >= 1, "the deletion was asked of AWS");
  assert.ok(await getResource(e2e.kube, "DBSubnetGroup", "net", "shop-net"), "kept while AWS refuses");

  // The instance is gone (ACK deleted it): AWS lets the group go, and so does Kubernetes.
  await deleteResourceAndWait(e2e.kube, "DBInstance", "net", "shop-db");
  inUse();
  await waitFor(async () => (await getResource(e2e.kube, "DBSubnetGroup", "net", "shop-net")) === undefined, {
    what: "DBSubnetGroup net/shop-net deleted once AWS lets it",
    timeoutMs: 30_000,
  });
});
