// A kind crossrole does not reconcile (`--reconcile-resources=DBSubnetGroup`: DBInstances are
// left to another controller, ACK's during a migration) still names its referrers. A
// DBSubnetGroup that an ACK-managed DBInstance (its ARN in status) references waits on that
// instance by name (ACK.Recoverable ReferencedInUse), not on "who references it is unknown" for
// ever; once the instance is gone, the group is deleted.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { credentialsFor } from "../../src/local-stack/accounts.ts";
import { defaultSubnets } from "../../src/local-stack/default-subnets.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
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

before(async () => {
  e2e = await startE2E();
  await e2e.apply([
    namespace("ack-system"),
    namespace("net", { "services.k8s.aws/owner-account-id": X }),
    configMap("ack-role-account-map", { [X]: `arn:aws:iam::${X}:role/net-x` }),
  ]);
  await e2e.startController(["--reconcile-resources=DBSubnetGroup"]);
});
after(() => e2e?.stop());

test("a group referenced by an instance crossrole does not reconcile waits on it by name, and goes once it is gone", async () => {
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

  await e2e.kube.request({ method: "DELETE", path: resourcePath("DBSubnetGroup", "net", "shop-net") });
  const blocked = await waitForResourceCondition(
    e2e.kube,
    "DBSubnetGroup",
    "net",
    "shop-net",
    "ACK.Recoverable",
    "True",
    "ReferencedInUse",
  );
  assert.match(
    condition(blocked, "ACK.Recoverable")?.message ?? "",
    /still referenced by DBInstance net\/shop-db \(spec\.dbSubnetGroupRef\)/,
  );

  // Not reconciled here: no finalizer, it goes at once, and its going wakes the group.
  await deleteResourceAndWait(e2e.kube, "DBInstance", "net", "shop-db");
  await waitFor(async () => (await getResource(e2e.kube, "DBSubnetGroup", "net", "shop-net")) === undefined, {
    what: "DBSubnetGroup net/shop-net deleted once its referrer is gone",
    timeoutMs: 10_000,
  });
});
