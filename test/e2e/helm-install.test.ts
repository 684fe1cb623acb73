// The chart, installed as far as a cluster without nodes allows: everything `helm template`
// renders for a namespace-scoped install (its RBAC, ServiceAccount, CARM ConfigMap, Deployment)
// is server-side applied to the local kube-apiserver, and the REAL controller process then runs
// with the Deployment's own args, as the chart's ServiceAccount (a TokenRequest token, as a Pod
// would get it), so every API call goes through the chart's RBAC. A bucket in the watched
// namespace syncs into the account the chart's carm.accountMap maps it to; one in an unwatched
// namespace is never touched; the log shows no 403.
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { parseAllDocuments, stringify } from "yaml";
import { chartDir } from "../../src/deploy/chart.ts";
import { startControllerProcess } from "../../src/local-stack/controller-process.ts";
import { helmTemplate } from "../../src/local-stack/helm.ts";
import { applyServerSide } from "../../src/local-stack/manifests.ts";
import { helmBinary, repoRoot } from "../../src/local-stack/versions.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import {
  accountsHolding,
  bucket,
  type ControllerProcess,
  controllerAccount,
  type E2E,
  getBucket,
  namespace,
  region,
  startE2E,
  waitForCondition,
} from "./fixture.ts";

const sys = "ack-system";
const owner = "services.k8s.aws/owner-account-id";
const accounts = { a: "515151515151", c: "535353535353" } as const;
const role = (account: string) => `arn:aws:iam::${account}:role/crossrole`;

let e2e: E2E;
let controller: ControllerProcess | undefined;
let args: string[];

before(async () => {
  const helm = helmBinary();
  e2e = await startE2E();
  const endpoint = e2e.stack.awsEndpoint!;
  const rendered = await helmTemplate(helm, join(repoRoot, chartDir), {
    namespace: sys,
    values: {
      installScope: "namespace",
      watchNamespace: ["a"],
      aws: { region, endpoint_url: endpoint, controllerAccount },
      leaderElection: { enabled: true },
      log: { level: "debug" },
      reconcile: { resourceResyncPeriods: { Bucket: 600 } },
      carm: { accountMap: { [accounts.a]: role(accounts.a), [accounts.c]: role(accounts.c) } },
    },
  });
  assert.equal(rendered.code, 0, rendered.stderr);
  const objects = parseAllDocuments(rendered.stdout)
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null);

  await e2e.apply([
    namespace(sys),
    namespace("a", { [owner]: accounts.a }),
    namespace("c", { [owner]: accounts.c }),
  ]);
  await applyServerSide(e2e.kube, objects, "helm-install-test");

  // The Deployment's container args, as the Pod would run them; the probe and metrics ports
  // are the test harness's (free loopback ports), everything else is the chart's.
  const deployment = objects.find((o) => o.kind === "Deployment") as
    | (KubeObject & {
        spec: { template: { spec: { serviceAccountName: string; containers: { args: string[] }[] } } };
      })
    | undefined;
  assert.ok(deployment);
  const podSpec = deployment.spec.template.spec;
  const [command, ...flags] = podSpec.containers[0]?.args ?? [];
  assert.equal(command, "run");
  args = flags.filter((a) => !/^--(metrics|healthz)-addr=/.test(a));

  const tr = await e2e.kube.request<{ status: { token: string } }>({
    method: "POST",
    path: `/api/v1/namespaces/${sys}/serviceaccounts/${podSpec.serviceAccountName}/token`,
    body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec: { expirationSeconds: 3600 } },
  });
  const cp = e2e.stack.controlPlane;
  const kubeconfigPath = join(e2e.stack.dir, "chart-sa.kubeconfig");
  await writeFile(
    kubeconfigPath,
    stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [
        {
          name: "local",
          cluster: {
            server: cp.serverURL,
            "certificate-authority-data": Buffer.from(cp.caPEM).toString("base64"),
          },
        },
      ],
      users: [{ name: "crossrole", user: { token: tr.status.token } }],
      contexts: [{ name: "crossrole", context: { cluster: "local", user: "crossrole", namespace: sys } }],
      "current-context": "crossrole",
    }),
    { mode: 0o600 },
  );
  await e2e.apply([bucket("c", "untouched")]);
  controller = await startControllerProcess(e2e.stack, args, { name: "controller-chart", kubeconfigPath });
  await e2e.apply([bucket("a", "assets")]);
});
after(async () => {
  await controller?.stop();
  await e2e?.stop();
});

test("the Deployment's args are the chart's values", () => {
  assert.ok(args.includes("--watch-namespace=a"), args.join(" "));
  assert.ok(args.includes(`--aws-endpoint-url=${e2e.stack.awsEndpoint}`), args.join(" "));
  assert.ok(args.includes("--enable-leader-election=true"), args.join(" "));
  assert.ok(args.includes("--reconcile-resource-resync-seconds=Bucket=600"), args.join(" "));
});

test("run with them as the chart's ServiceAccount, a bucket in the watched namespace syncs into its CARM account", async () => {
  const a = await waitForCondition(e2e.kube, "a", "assets", "ACK.ResourceSynced", "True");
  assert.equal(a.status?.ackResourceMetadata?.ownerAccountID, accounts.a);
  assert.deepEqual(
    await accountsHolding(e2e.stack.awsEndpoint!, "a-assets", [controllerAccount, accounts.a, accounts.c]),
    [accounts.a],
  );
  // The leader Lease is in the system namespace, where the chart's RBAC grants it.
  const lease = await e2e.kube.request<{ spec: { holderIdentity?: string } }>({
    method: "GET",
    path: `/apis/coordination.k8s.io/v1/namespaces/${sys}/leases/crossrole-leader`,
  });
  assert.ok(lease.spec.holderIdentity);
});

test("a bucket outside the watched namespace is never touched, and nothing was forbidden", async () => {
  const c = await getBucket(e2e.kube, "c", "untouched");
  assert.equal(c?.status, undefined);
  assert.deepEqual(
    await accountsHolding(e2e.stack.awsEndpoint!, "c-untouched", [controllerAccount, accounts.a, accounts.c]),
    [],
  );
  const log = await readFile(controller!.logFile, "utf8");
  const forbidden = log.split("\n").filter((l) => /forbidden|: 403[ :]|"status":403\b/i.test(l));
  assert.deepEqual(forbidden, []);
});
