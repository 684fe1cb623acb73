// Fairness across tenants (issue: one namespace's burst must not delay another's resource by more
// than a few seconds). On the local stack with the real controller process at default settings
// (4 workers per kind, 100 AWS calls/s per account and service): namespace `burst` applies 1,000 Buckets at once; right after, namespace
// `lone` applies one. Measured: the lone bucket's time from its apply to Ready, and the burst's
// time to all Ready. Both namespaces land in the same account through the CARM map. Ends with one
// JSON line; exits 1 when the lone bucket takes longer than the target.
import { startControllerProcess } from "../src/local-stack/controller-process.ts";
import { installCrds } from "../src/local-stack/install-crds.ts";
import { applyObjects } from "../src/local-stack/manifests.ts";
import { startStack } from "../src/local-stack/stack.ts";
import { waitFor } from "../src/local-stack/wait.ts";
import { createKubeClient, type KubeClient } from "../src/runtime/kube-client.ts";
import type { KubeObject } from "../src/runtime/kube-object.ts";
import { minimalResource } from "../test/support/minimal-resources.ts";

const burst = Number(process.env["BENCH_BURST"] ?? 1000);
const account = "111111111111";
const target = { loneReadySeconds: 5 };
const log = (line: string) => process.stderr.write(`[bench:fairness] ${line}\n`);

const ns = (name: string): KubeObject =>
  ({
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name, annotations: { "services.k8s.aws/owner-account-id": account } },
  }) as KubeObject;

async function ready(kube: KubeClient, namespace?: string, name?: string): Promise<number> {
  const path = namespace
    ? `/apis/s3.services.k8s.aws/v1alpha1/namespaces/${namespace}/buckets${name ? `/${name}` : ""}`
    : "/apis/s3.services.k8s.aws/v1alpha1/buckets";
  const out = await kube.request<{
    items?: { status?: { conditions?: { type: string; status: string }[] } }[];
    status?: { conditions?: { type: string; status: string }[] };
  }>({ method: "GET", path });
  const items = out.items ?? [out];
  return items.filter((b) => b.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True"))
    .length;
}

const stack = await startStack();
try {
  const kube = createKubeClient(stack.kubeConfig);
  await installCrds(kube);
  await applyObjects(kube, [
    { apiVersion: "v1", kind: "Namespace", metadata: { name: "ack-system" } } as KubeObject,
    ns("burst"),
    ns("lone"),
    {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "ack-role-account-map", namespace: "ack-system" },
      data: { [account]: `arn:aws:iam::${account}:role/bench` },
    } as KubeObject,
  ]);
  const controller = await startControllerProcess(stack, [], { logLevel: "warn", name: "fairness" });
  const items = Array.from({ length: burst }, (_, i) =>
    minimalResource("Bucket", "burst", `b${i}`, `burst-b${i}`),
  );
  const t0 = performance.now();
  for (let i = 0; i < items.length; i += 100) {
    await Promise.all(items.slice(i, i + 100).map((item) => applyObjects(kube, [item])));
  }
  const applied = performance.now();
  log(`applied ${burst} buckets in burst in ${((applied - t0) / 1000).toFixed(1)} s; now the lone one`);
  await applyObjects(kube, [minimalResource("Bucket", "lone", "only", "lone-only")]);
  const loneApplied = performance.now();
  await waitFor(async () => (await ready(kube, "lone", "only")) === 1, {
    what: "the lone bucket Ready",
    timeoutMs: 600_000,
    intervalMs: 50,
  });
  const loneReadySeconds = (performance.now() - loneApplied) / 1000;
  const burstReadyAtLone = await ready(kube, "burst");
  log(
    `lone bucket Ready after ${loneReadySeconds.toFixed(2)} s (${burstReadyAtLone} of the burst Ready by then)`,
  );
  await waitFor(async () => (await ready(kube, "burst")) === burst, {
    what: "the burst all Ready",
    timeoutMs: 900_000,
    intervalMs: 500,
  });
  const burstSeconds = (performance.now() - t0) / 1000;
  await controller.stop();
  const figures = {
    bench: "fairness",
    burst,
    loneReadySeconds: Number(loneReadySeconds.toFixed(2)),
    burstReadyAtLone,
    burstAllReadySeconds: Number(burstSeconds.toFixed(1)),
    target,
    met: loneReadySeconds <= target.loneReadySeconds,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  if (!figures.met) process.exitCode = 1;
} finally {
  await stack.stop();
}
