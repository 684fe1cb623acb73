// `crossrole explain` lists, under Problems, the CARM keys the controller (with the flags given
// to explain) will not use: a service-level key with ServiceLevelCARM off, misspelt service
// prefixes, an account of the wrong length. Offline, in-process.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import {
  manifestDir,
  parseJson,
  removeManifestDirs,
  runCrossrole,
} from "../../test/support/run-crossrole.ts";
import { servedServices } from "../services/served.ts";

after(removeManifestDirs);

const role = (account: string, name: string) => `arn:aws:iam::${account}:role/${name}`;

// The Queue's namespace is mapped only through a service-level key.
const manifests = {
  "ns.yaml": `apiVersion: v1
kind: Namespace
metadata:
  name: shop
  annotations:
    services.k8s.aws/owner-account-id: "222222222222"
`,
  "carm.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: ack-role-account-map
  namespace: ack-system
data:
  "111111111111": ${role("111111111111", "team")}
  sqs.222222222222: ${role("222222222222", "queues")}
  sqss.111111111111: ${role("111111111111", "typo")}
  dynamo.111111111111: ${role("111111111111", "tables")}
  "11111111111": ${role("111111111111", "short")}
`,
  "queue.yaml": `apiVersion: sqs.services.k8s.aws/v1alpha1
kind: Queue
metadata:
  name: orders
  namespace: shop
spec:
  queueName: orders
`,
};

const explain = async (dir: string, ...flags: string[]) =>
  runCrossrole([
    "explain",
    "queue/orders",
    "-n",
    "shop",
    "--from",
    dir,
    "--aws-region",
    "us-east-1",
    ...flags,
  ]);

/** The lines under the Problems heading. */
function problemLines(stdout: string): string[] {
  const [, section = ""] = stdout.split("Problems in the configuration (objects with errors are ignored):\n");
  return section.split("\n").filter((line) => line.startsWith("  - "));
}

describe("explain: CARM keys that do nothing are Problems", { concurrency: true }, () => {
  test("ServiceLevelCARM off: the sqs.<account> key the Queue was meant for, misspelt prefixes, an 11-digit account", async () => {
    const run = await explain(await manifestDir(manifests));
    // Nothing else maps account 222222222222: the Queue waits (fail closed), and says why.
    assert.equal(run.code, 3, run.stderr);
    assert.match(
      run.stdout,
      /^Queue shop\/orders will NOT be reconciled \(wait\): .*has no key 222222222222/,
    );
    const lines = problemLines(run.stdout);
    const map = "ConfigMap ack-system/ack-role-account-map";
    assert.deepEqual(
      lines.map((line) => line.slice(0, line.indexOf("]:") + 1)),
      [
        `  - error: ${map} data[11111111111]`,
        `  - warning: ${map} data[dynamo.111111111111]`,
        `  - warning: ${map} data[sqs.222222222222]`,
        `  - warning: ${map} data[sqss.111111111111]`,
      ],
      run.stdout,
    );
    assert.match(lines[0]!, /account ID "11111111111" has 11 digits; an AWS account ID has exactly 12/);
    assert.match(
      lines[1]!,
      new RegExp(
        `unknown service dynamo: known services are ${[...new Set(servedServices)].sort().join(", ")}.*Fix: rename the key to dynamodb\\.111111111111 and turn on --feature-gates=ServiceLevelCARM=true`,
      ),
    );
    assert.match(
      lines[2]!,
      /key "sqs\.222222222222" is not used: feature gate ServiceLevelCARM is off.*Fix: turn on --feature-gates=ServiceLevelCARM=true, or rename the key to 222222222222 to map every service\.$/,
    );
    assert.match(lines[3]!, /unknown service sqss: .*Fix: rename the key to sqs\.111111111111 /);
  });

  test("with ServiceLevelCARM on, the Queue uses its key and only the broken keys remain (-o json)", async () => {
    const run = await explain(
      await manifestDir(manifests),
      "--feature-gates",
      "ServiceLevelCARM=true",
      "-o",
      "json",
    );
    assert.equal(run.code, 0, run.stderr);
    const report = parseJson(run);
    assert.equal(report["roleARN"], role("222222222222", "queues"));
    const problems = report["problems"] as { field: string; reason?: string; message: string }[];
    assert.deepEqual(
      problems.map((p) => [p.field, p.reason ?? null]),
      [
        ["data[11111111111]", null],
        ["data[dynamo.111111111111]", "UnusedCarmKey"],
        ["data[sqss.111111111111]", "UnusedCarmKey"],
      ],
    );
    for (const p of problems) assert.doesNotMatch(p.message, /ServiceLevelCARM/);
  });
});
