// CARM keys that do nothing, end to end (issue 19, item 5), with the real controller process
// running TeamLevelCARM but not ServiceLevelCARM:
//   - an `sqs.<account>` key: the Queue it was meant for waits, and the key gets a Warning Event
//     on its ConfigMap and a `config.problem` log line naming the gate;
//   - misspelt service prefixes (`sqss.` in the account map, `dynamo.` in ack-carm-map, `sqss.`
//     on a team key) and an 11-digit account each get theirs, with the fix;
//   - `crossrole explain` (in-process, online, with the controller's flags) lists every one
//     under Problems;
//   - removing the keys resolves each problem once.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { waitFor } from "../../src/local-stack/wait.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { servedServices } from "../../src/services/served.ts";
import { runCrossrole } from "../support/run-crossrole.ts";
import {
  type ControllerProcess,
  configMap,
  controllerAccount,
  type E2E,
  namespace,
  region,
  startE2E,
  waitForEvent,
  waitForResourceCondition,
} from "./fixture.ts";

/** The services crossrole serves, as the CARM key messages list them. */
const knownServices = [...new Set(servedServices)].sort().join(", ");

const sys = "ack-system";
const accountMap = "ack-role-account-map";
const teamMap = "ack-role-team-map";
const carmMap = "ack-carm-map";
const flags = ["--feature-gates=TeamLevelCARM=true"];
const role = (account: string, name: string) => `arn:aws:iam::${account}:role/${name}`;

type Line = Record<string, unknown>;

let e2e: E2E;
let controller: ControllerProcess;

before(async () => {
  e2e = await startE2E();
  await e2e.apply([namespace(sys)]);
  controller = await e2e.startController(flags);
});
after(() => e2e?.stop());

const lines = (event: string): Line[] => controller.logs().filter((l) => l["event"] === event);
const about = (map: string, field: string) => (l: Line) =>
  (l["object"] as { name?: string } | undefined)?.name === map && l["field"] === field;

function waitForLine(event: string, map: string, field: string): Promise<Line> {
  return waitFor(() => lines(event).find(about(map, field)), {
    what: `a ${event} line for ${map} ${field}`,
    timeoutMs: 20_000,
  });
}

const orders: KubeObject = {
  apiVersion: "sqs.services.k8s.aws/v1alpha1",
  kind: "Queue",
  metadata: { name: "orders", namespace: "shop" },
  spec: { queueName: "shop-orders" },
} as KubeObject;

/** Each unused or broken key: its map, field, Event reason and what the Event message says. */
const expected: readonly { map: string; field: string; reason: string; message: RegExp }[] = [
  {
    map: accountMap,
    field: "data[sqs.222222222222]",
    reason: "UnusedCarmKey",
    message:
      /^data\[sqs\.222222222222\] = "arn:aws:iam::222222222222:role\/queues": key "sqs\.222222222222" is not used: feature gate ServiceLevelCARM is off.* Fix: turn on --feature-gates=ServiceLevelCARM=true, or rename the key to 222222222222 to map every service\.$/,
  },
  {
    map: accountMap,
    field: "data[sqss.111111111111]",
    reason: "UnusedCarmKey",
    message: new RegExp(
      `key "sqss\\.111111111111" is not used: unknown service sqss: known services are ${knownServices}.* Fix: rename the key to sqs\\.111111111111 `,
    ),
  },
  {
    map: accountMap,
    field: "data[11111111111]",
    reason: "InvalidAccountMapEntry",
    message:
      /key "11111111111" is not an account key: account ID "11111111111" has 11 digits; an AWS account ID has exactly 12\./,
  },
  {
    map: carmMap,
    field: "data[owner-account-id.dynamo.333333333333]",
    reason: "UnusedCarmKey",
    message: new RegExp(
      `unknown service dynamo: known services are ${knownServices}.* Fix: rename the key to owner-account-id\\.dynamodb\\.333333333333 `,
    ),
  },
  {
    map: teamMap,
    field: "data[sqss.team-a]",
    reason: "UnusedCarmKey",
    message: /unknown service sqss: .*no namespace has services\.k8s\.aws\/team-id=sqss\.team-a/,
  },
];

test("with ServiceLevelCARM off, unused and misspelt CARM keys are Warning Events, log lines and explain Problems", async () => {
  await e2e.apply([
    namespace("shop", { "services.k8s.aws/owner-account-id": "222222222222" }),
    configMap(accountMap, {
      "111111111111": role("111111111111", "team"),
      "sqs.222222222222": role("222222222222", "queues"),
      "sqss.111111111111": role("111111111111", "typo"),
      "11111111111": role("111111111111", "short"),
    }),
    configMap(carmMap, { "owner-account-id.dynamo.333333333333": role("333333333333", "tables") }),
    configMap(teamMap, {
      "team-a": role("444444444444", "team-a"),
      "sqss.team-a": role("444444444444", "q"),
    }),
    orders,
  ]);

  // The key meant for the Queue is not read: it waits for a key that does not exist (fail
  // closed) instead of going anywhere.
  const queue = await waitForResourceCondition(
    e2e.kube,
    "Queue",
    "shop",
    "orders",
    "ACK.Recoverable",
    "True",
    "IdentityUnavailable",
  );
  assert.match(
    queue.status?.conditions?.find((c) => c.type === "ACK.Recoverable")?.message ?? "",
    /has no key 222222222222/,
  );

  for (const e of expected) {
    const event = await waitForEvent(e2e.kube, sys, "ConfigMap", e.map, e.reason, e.message, 20_000);
    assert.equal(event.type, "Warning", e.field);
    const line = await waitForLine("config.problem", e.map, e.field);
    assert.equal(line["reason"], e.reason, e.field);
  }
  const gate = lines("config.problem").find(about(accountMap, "data[sqs.222222222222]"))!;
  assert.equal(gate["severity"], "warning");
  assert.equal(gate["value"], role("222222222222", "queues"));
  assert.match(
    String(gate["why"]),
    /^key "sqs\.222222222222" is not used: feature gate ServiceLevelCARM is off/,
  );
  assert.match(String(gate["fix"]), /--feature-gates=ServiceLevelCARM=true/);
  // The keys that are read are no problem.
  for (const [map, field] of [
    [accountMap, "data[111111111111]"],
    [teamMap, "data[team-a]"],
  ] as const) {
    assert.equal(lines("config.problem").filter(about(map, field)).length, 0, field);
  }

  // explain, with the controller's flags, lists the same under Problems.
  const run = await runCrossrole([
    "explain",
    "queue/orders",
    "-n",
    "shop",
    "--kubeconfig",
    e2e.stack.kubeconfigPath,
    "--controller-account",
    controllerAccount,
    "--aws-region",
    region,
    ...flags,
  ]);
  assert.equal(run.code, 3, `${run.stdout}\n${run.stderr}`);
  const [, problems = ""] = run.stdout.split(
    "Problems in the configuration (objects with errors are ignored):\n",
  );
  for (const e of expected) {
    const line = problems.split("\n").find((l) => l.includes(`ConfigMap ${sys}/${e.map} ${e.field}: `));
    assert.ok(line, `${e.field} under Problems:\n${run.stdout}`);
    assert.match(line, /^ {2}- (warning|error): /);
  }
  assert.match(problems, /feature gate ServiceLevelCARM is off/);

  // Fixed: the broken keys removed, each problem resolves once, and none was reported twice.
  await e2e.apply([
    configMap(accountMap, { "111111111111": role("111111111111", "team") }),
    configMap(carmMap, {}),
    configMap(teamMap, { "team-a": role("444444444444", "team-a") }),
  ]);
  for (const e of expected) await waitForLine("config.problem.resolved", e.map, e.field);
  for (const e of expected) {
    assert.equal(lines("config.problem").filter(about(e.map, e.field)).length, 1, e.field);
    assert.equal(lines("config.problem.resolved").filter(about(e.map, e.field)).length, 1, e.field);
  }
});
