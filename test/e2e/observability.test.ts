// What on-call teams look at, against the real controller process, kube-apiserver and the AWS
// emulator: ACK's AWS call metrics (ack_outbound_api_requests_total / _error_total) with ACK's
// labels, STS among them; crossrole_resources by outcome, a denied resource under deny and its
// reconciles not counted as successes; controller-runtime's in-flight workqueue gauges; one info
// line per AWS write naming resource, account, role, region and call, with a string level and an
// ISO time; and the Helm chart's PrometheusRule and Grafana dashboard asking only for metrics
// this controller exports.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { parseAllDocuments } from "yaml";
import { chartDir } from "../../src/deploy/chart.ts";
import { helmTemplate } from "../../src/local-stack/helm.ts";
import { helmBinary, repoRoot } from "../../src/local-stack/versions.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { exportedMetricNames, metricNamesIn } from "../support/promql-metrics.ts";
import {
  bucket,
  type ControllerProcess,
  configMap,
  type E2E,
  namespace,
  region,
  startE2E,
  waitForCondition,
  waitForResourceCondition,
} from "./fixture.ts";

const ns = "obs";
const account = "111111111111";
const roleARN = `arn:aws:iam::${account}:role/obs`;
let e2e: E2E;
let controller: ControllerProcess;

const queue = (name: string): KubeObject =>
  ({
    apiVersion: "sqs.services.k8s.aws/v1alpha1",
    kind: "Queue",
    metadata: { name, namespace: ns },
    spec: { queueName: `${ns}-${name}` },
  }) as KubeObject;

// Denied: with ResourceLevelCARM on, a resource-level owner-account-id must be an account ID.
const deniedTopic: KubeObject = {
  apiVersion: "sns.services.k8s.aws/v1alpha1",
  kind: "Topic",
  metadata: {
    name: "denied",
    namespace: ns,
    annotations: { "services.k8s.aws/owner-account-id": "not-an-account" },
  },
  spec: { name: `${ns}-denied` },
} as KubeObject;

/** One sample of /metrics: its name, labels and value. */
interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

async function scrape(): Promise<{ text: string; samples: Sample[] }> {
  const text = await (await fetch(`${controller.metricsURL}/metrics`)).text();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries(
      [...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
    );
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return { text, samples };
}

/** The value of the one sample of `name` whose labels include `labels`; undefined when none. */
function sampleValue(
  samples: readonly Sample[],
  name: string,
  labels: Record<string, string>,
): number | undefined {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  assert.ok(found.length <= 1, `${name} ${JSON.stringify(labels)} matches ${found.length} series`);
  return found[0]?.value;
}

before(async () => {
  e2e = await startE2E();
  await e2e.apply([
    namespace("ack-system"),
    namespace(ns, { "services.k8s.aws/owner-account-id": account }),
    configMap("ack-role-account-map", { [account]: roleARN }),
  ]);
  controller = await e2e.startController(["--feature-gates=ResourceLevelCARM=true"]);
  await e2e.apply([bucket(ns, "b1"), queue("q1"), deniedTopic]);
  await waitForCondition(e2e.kube, ns, "b1", "ACK.ResourceSynced", "True");
  await waitForResourceCondition(e2e.kube, "Queue", ns, "q1", "ACK.ResourceSynced", "True");
});
after(() => e2e?.stop());

test("AWS calls are counted under ACK's metric names and labels, STS with service sts, refusals by status code", async () => {
  const { text, samples } = await scrape();
  assert.match(
    text,
    /# HELP ack_outbound_api_requests_total Total number of outbound AWS API requests made by the controller\.\n/,
  );
  assert.match(
    text,
    /# HELP ack_outbound_api_requests_error_total Total number of outbound AWS API requests made by the controller that resulted in a 4XX or 5XX HTTP status code\.\n/,
  );
  const calls = "ack_outbound_api_requests_total";
  assert.equal(sampleValue(samples, calls, { service: "s3", op_type: "CREATE", op_id: "CreateBucket" }), 1);
  assert.equal(sampleValue(samples, calls, { service: "sqs", op_type: "CREATE", op_id: "CreateQueue" }), 1);
  // crossrole's labels beside ACK's: the account the call acted in, and the role's name.
  assert.equal(
    sampleValue(samples, calls, {
      service: "s3",
      op_id: "CreateBucket",
      account,
      role: roleARN.slice(roleARN.indexOf(":role/") + ":role/".length),
    }),
    1,
  );
  assert.ok(
    (sampleValue(samples, calls, { service: "s3", op_type: "READ_ONE", op_id: "HeadBucket" }) ?? 0) >= 1,
  );
  assert.ok(
    (sampleValue(samples, calls, {
      service: "sqs",
      op_type: "GET_ATTRIBUTES",
      op_id: "GetQueueAttributes",
    }) ?? 0) >= 1,
  );
  assert.ok(
    (sampleValue(samples, calls, { service: "sts", op_type: "READ_ONE", op_id: "AssumeRole" }) ?? 0) >= 1,
  );
  // Before creating, each reconcile looked the name up and the emulator said there is none.
  const errors = "ack_outbound_api_requests_error_total";
  assert.ok(
    (sampleValue(samples, errors, { service: "s3", op_id: "HeadBucket", status_code: "404" }) ?? 0) >= 1,
  );
  assert.ok(
    (sampleValue(samples, errors, { service: "sqs", op_id: "GetQueueUrl", status_code: "400" }) ?? 0) >= 1,
  );
  // crossrole's own STS counter is still there beside ACK's.
  assert.ok(
    (sampleValue(samples, "crossrole_sts_calls_total", { operation: "AssumeRole", outcome: "success" }) ??
      0) >= 1,
  );
});

test("resources are counted by outcome; a denied resource under deny, and its reconciles are errors, not successes", async () => {
  const samples = await waitFor(
    async () => {
      const { samples } = await scrape();
      return sampleValue(samples, "crossrole_resources", {
        kind: "Topic",
        namespace: ns,
        outcome: "deny",
      }) === 1 &&
        (sampleValue(samples, "controller_runtime_reconcile_total", {
          controller: "topic",
          result: "error",
        }) ?? 0) >= 1
        ? samples
        : undefined;
    },
    { what: "the denied Topic counted", timeoutMs: 20_000 },
  );
  assert.equal(
    sampleValue(samples, "crossrole_resources", { kind: "Bucket", namespace: ns, outcome: "use" }),
    1,
  );
  assert.equal(
    sampleValue(samples, "crossrole_resources", { kind: "Queue", namespace: ns, outcome: "use" }),
    1,
  );
  assert.equal(
    sampleValue(samples, "crossrole_resources", { kind: "Topic", namespace: ns, outcome: "use" }),
    undefined,
  );
  assert.equal(
    sampleValue(samples, "controller_runtime_reconcile_total", { controller: "topic", result: "success" }),
    0,
  );
  assert.ok(
    (sampleValue(samples, "controller_runtime_reconcile_total", {
      controller: "bucket",
      result: "success",
    }) ?? 0) >= 1,
  );
});

test("controller-runtime's in-flight workqueue gauges are exported per controller", async () => {
  const { samples } = await scrape();
  for (const name of ["workqueue_unfinished_work_seconds", "workqueue_longest_running_processor_seconds"]) {
    for (const controller of ["bucket", "queue", "topic"]) {
      const v = sampleValue(samples, name, { controller, name: controller });
      assert.ok(v !== undefined && v >= 0, `${name}{name="${controller}"} is exported`);
    }
  }
});

test("each AWS write is one info line naming resource, account, role, region and call; levels are words, times ISO", () => {
  const logs = controller.logs();
  const writes = logs.filter((l) => l.event === "aws.write");
  const createBucket = writes.filter((l) => l.call === "s3:CreateBucket");
  assert.equal(createBucket.length, 1, "one line for the one CreateBucket");
  assert.deepEqual(
    {
      level: createBucket[0]!.level,
      resource: createBucket[0]!.resource,
      account: createBucket[0]!.account,
      roleARN: createBucket[0]!.roleARN,
      region: createBucket[0]!.region,
      result: createBucket[0]!.result,
    },
    { level: "info", resource: `Bucket ${ns}/b1`, account, roleARN, region, result: "ok" },
  );
  const createQueue = writes.filter((l) => l.call === "sqs:CreateQueue");
  assert.equal(createQueue.length, 1, "one line for the one CreateQueue");
  assert.equal(createQueue[0]!.resource, `Queue ${ns}/q1`);
  assert.equal(createQueue[0]!.account, account);
  assert.equal(createQueue[0]!.roleARN, roleARN);
  // The tags written at create time (S3 tags the bucket in a second call) are writes too.
  assert.equal(
    writes.filter((l) => l.call === "s3:PutBucketTagging" && l.resource === `Bucket ${ns}/b1`).length,
    1,
  );
  // Reads are not audit lines; the denied Topic made no AWS call at all.
  assert.ok(
    !writes.some((l) => /:(Head|Get|List|Describe)/.test(String(l.call))),
    "no read is logged as a write",
  );
  assert.ok(!writes.some((l) => String(l.resource).startsWith("Topic ")));
  for (const l of logs) {
    assert.equal(typeof l.level, "string", `level is a word: ${JSON.stringify(l)}`);
    assert.match(String(l.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  }
});

test("every metric the chart's alerts and dashboard read is one the controller exports", async () => {
  const rendered = await helmTemplate(helmBinary(), join(repoRoot, chartDir), {
    values: { prometheusRule: { enabled: true }, grafanaDashboard: { enabled: true } },
  });
  assert.equal(rendered.code, 0, rendered.stderr);
  const objects = parseAllDocuments(rendered.stdout)
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null);
  const rule = objects.find((o) => o.kind === "PrometheusRule") as
    | (KubeObject & { spec: { groups: { rules: { alert: string; expr: string }[] }[] } })
    | undefined;
  const dashboardMap = objects.find(
    (o) => o.kind === "ConfigMap" && o.metadata.name === "crossrole-grafana-dashboard",
  ) as (KubeObject & { data: Record<string, string> }) | undefined;
  assert.ok(rule, "a PrometheusRule is rendered");
  assert.ok(dashboardMap, "the dashboard ConfigMap is rendered");
  assert.equal(dashboardMap.metadata.labels?.grafana_dashboard, "1");
  const dashboard = JSON.parse(dashboardMap.data["crossrole.json"]!) as {
    panels: { title: string; targets: { expr: string }[] }[];
  };
  const queries = [
    ...rule.spec.groups.flatMap((g) => g.rules.map((r) => ({ what: `alert ${r.alert}`, expr: r.expr }))),
    ...dashboard.panels.flatMap((p) => p.targets.map((t) => ({ what: `panel "${p.title}"`, expr: t.expr }))),
  ];
  assert.ok(queries.length >= 10);
  const exported = exportedMetricNames((await scrape()).text);
  for (const { what, expr } of queries) {
    const names = metricNamesIn(expr);
    assert.ok(names.length > 0, `${what} reads a metric: ${expr}`);
    for (const name of names)
      assert.ok(exported.has(name), `${what} reads ${name}, which the controller does not export`);
  }
});
