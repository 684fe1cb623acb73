// Loud configuration end to end (DESIGN §2.3, §2.4), with two real controller replicas under
// leader election, in IAMRoleSelector mode (the snapshot validates every administrator object
// whatever the mode, so the CARM maps' problems are reported too):
//   - a CARM map with a malformed account key and a malformed role ARN → one Warning Event each
//     on the ConfigMap naming the key, the value and the fix, and exactly one `config.problem`
//     log line each — not repeated by a re-apply, another change to the map or an unrelated
//     change; fixing the map logs `config.problem.resolved`;
//   - only the leader reports (the standby's caches hold the same problems);
//   - IAMRoleSelector mode reads no CARM map: each map gets one UnusedCarmMap Warning, however
//     many keys it holds and however often it changes;
//   - an invalid IAMRoleSelector → Warning Event on it and Ready=False; a valid one matching
//     two buckets shows status.matchedResources 2, and writing that status does not change the
//     buckets' decisions (they record the selector's spec version).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { waitFor } from "../../src/local-stack/wait.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import {
  bucket,
  type ControllerProcess,
  configMap,
  type E2E,
  eventsAbout,
  namespace,
  startE2E,
  waitForCondition,
  waitForEvent,
} from "./fixture.ts";

const sys = "ack-system";
const accountMap = "ack-role-account-map";
const role = (account: string, name = "ack") => `arn:aws:iam::${account}:role/${name}`;
const selectorPath = "/apis/services.k8s.aws/v1alpha1/iamroleselectors";
const bucketType = [{ apiVersion: "s3.services.k8s.aws/v1alpha1", kind: "Bucket" }];

type Line = Record<string, unknown>;
type Selector = KubeObject & {
  status?: {
    matchedResources?: number;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
  };
};

function selector(name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: "services.k8s.aws/v1alpha1",
    kind: "IAMRoleSelector",
    metadata: { name },
    spec,
  } as KubeObject;
}

let e2e: E2E;
let replicas: ControllerProcess[];

before(async () => {
  e2e = await startE2E();
  await e2e.apply([namespace(sys)]);
  const args = ["--feature-gates=IAMRoleSelector=true", "--enable-carm=false", "--enable-leader-election"];
  replicas = [
    await e2e.startController(args, { name: "replica-a" }),
    await e2e.startController(args, { name: "replica-b" }),
  ];
});
after(() => e2e?.stop());

const problemLines = (c: ControllerProcess, event = "config.problem"): Line[] =>
  c.logs().filter((l) => l["event"] === event);

/** Waits until some replica has logged an `event` line that `match`es; returns that replica and the line. */
function waitForLine(
  event: string,
  match: (l: Line) => boolean,
  what: string,
): Promise<{ replica: ControllerProcess; line: Line }> {
  return waitFor(
    () => {
      for (const replica of replicas) {
        const line = problemLines(replica, event).find(match);
        if (line) return { replica, line };
      }
      return undefined;
    },
    { what, timeoutMs: 20_000 },
  );
}

/** The object a `config.problem` line is about. */
const objectOf = (l: Line) => (l["object"] ?? {}) as { kind?: string; namespace?: string; name?: string };
const onAccountMap = (field: string) => (l: Line) => objectOf(l).name === accountMap && l["field"] === field;

test("a malformed CARM key and role ARN: one Warning Event and one log line each, only from the leader, until fixed", async () => {
  await e2e.apply([configMap(accountMap, { "12345": role("111111111111"), "222222222222": "not-an-arn" })]);
  const keyEvent = await waitForEvent(
    e2e.kube,
    sys,
    "ConfigMap",
    accountMap,
    "InvalidAccountMapEntry",
    /^data\[12345\] = "arn:aws:iam::111111111111:role\/ack": key "12345" is not an account key.*Fix: rename the key to the 12-digit account ID/,
    20_000,
  );
  assert.equal(keyEvent.type, "Warning");
  const unusedMap = await waitForEvent(
    e2e.kube,
    sys,
    "ConfigMap",
    accountMap,
    "UnusedCarmMap",
    /^data: none of its keys is used: the controller runs in IAMRoleSelector mode, which replaces CARM\. Fix: .*crossrole migrate/,
  );
  assert.equal(unusedMap.type, "Warning");
  await waitForEvent(
    e2e.kube,
    sys,
    "ConfigMap",
    accountMap,
    "InvalidAccountMapEntry",
    /^data\[222222222222\] = "not-an-arn": .*is not an IAM role ARN.*Fix: set the value to the role ARN/,
  );
  const { replica: leader, line } = await waitForLine(
    "config.problem",
    onAccountMap("data[222222222222]"),
    "a config.problem line for data[222222222222]",
  );
  assert.deepEqual(objectOf(line), { kind: "ConfigMap", namespace: sys, name: accountMap });
  assert.deepEqual(
    [line["value"], line["reason"], line["severity"]],
    ["not-an-arn", "InvalidAccountMapEntry", "error"],
  );
  assert.match(String(line["why"]), /is not an IAM role ARN/);
  assert.match(String(line["fix"]), /set the value to the role ARN/);

  // The same problems again: the identical map re-applied, the map changed without touching
  // them, and an unrelated change elsewhere. Then a new problem in each watch those changes
  // travel through: once it is reported, everything before it has been looked at.
  await e2e.apply([configMap(accountMap, { "12345": role("111111111111"), "222222222222": "not-an-arn" })]);
  await e2e.apply([
    configMap(accountMap, {
      "12345": role("111111111111"),
      "222222222222": "not-an-arn",
      "333333333333": role("333333333333"),
    }),
    namespace("unrelated", {}, { team: "a" }),
  ]);
  await e2e.apply([
    configMap("ack-role-team-map", { "team-b": "nope" }),
    namespace("barrier", { "services.k8s.aws/owner-account-id": "abc" }),
  ]);
  await waitForLine(
    "config.problem",
    (l) => objectOf(l).name === "ack-role-team-map",
    "the team map's problem",
  );
  await waitForLine("config.problem", (l) => objectOf(l).name === "barrier", "the namespace's problem");
  for (const field of ["data[12345]", "data[222222222222]"]) {
    const lines = problemLines(leader).filter(onAccountMap(field));
    assert.equal(lines.length, 1, `${field}: ${JSON.stringify(lines)}`);
  }
  const events = await eventsAbout(e2e.kube, sys, "ConfigMap", accountMap);
  const warnings = events.filter((e) => e.reason === "InvalidAccountMapEntry");
  assert.equal(warnings.length, 2, JSON.stringify(warnings));
  for (const e of warnings) assert.equal(e.count ?? 1, 1, `repeated: ${e.message}`);
  const unusedMaps = events.filter((e) => e.reason === "UnusedCarmMap");
  assert.deepEqual(
    unusedMaps.map((e) => e.count ?? 1),
    [1],
    JSON.stringify(unusedMaps),
  );
  // The standby built the same snapshot but never said a word.
  for (const standby of replicas.filter((r) => r !== leader)) assert.deepEqual(problemLines(standby), []);

  // Fixed: both problems resolve, each with one line and a Normal Event on the map.
  await e2e.apply([
    configMap(accountMap, { "111111111111": role("111111111111"), "222222222222": role("222222222222") }),
  ]);
  for (const field of ["data[12345]", "data[222222222222]"]) {
    const resolved = await waitForLine("config.problem.resolved", onAccountMap(field), `${field} resolved`);
    assert.equal(resolved.replica, leader);
  }
  await waitForEvent(
    e2e.kube,
    sys,
    "ConfigMap",
    accountMap,
    "ConfigProblemResolved",
    /^Resolved: data\[12345\]/,
  );
  for (const field of ["data[12345]", "data[222222222222]"])
    assert.equal(problemLines(leader).filter(onAccountMap(field)).length, 1, field);
});

test("IAMRoleSelector status: an invalid selector is Ready=False with a Warning Event; a valid one counts its 2 buckets", async () => {
  await e2e.apply([namespace("sel"), namespace("elsewhere")]);
  // Created directly to learn the resourceVersion of its spec: the controller's status writes
  // bump the object's resourceVersion from then on.
  const created = await e2e.kube.request<Selector>({
    method: "POST",
    path: selectorPath,
    body: selector("two-buckets", {
      arn: role("111111111111", "sel-s3"),
      namespaceSelector: { names: ["sel"] },
      resourceTypeSelector: bucketType,
    }),
  });
  const specVersion = created.metadata.resourceVersion;
  await e2e.apply([
    // Admission cannot check label keys inside matchLabels; the controller can, and must say so.
    selector("broken", {
      arn: role("222222222222", "broken"),
      resourceLabelSelector: { matchLabels: { "bad key!": "x" } },
    }),
    bucket("sel", "one"),
    bucket("sel", "two"),
    bucket("elsewhere", "three"),
  ]);
  const get = (name: string) =>
    e2e.kube.request<Selector>({ method: "GET", path: `${selectorPath}/${name}` });
  const ready = (s: Selector) => s.status?.conditions?.find((c) => c.type === "Ready");

  const broken = await waitFor(
    async () => {
      const s = await get("broken");
      return ready(s)?.status === "False" ? s : undefined;
    },
    { what: "IAMRoleSelector broken Ready=False", timeoutMs: 20_000 },
  );
  assert.equal(ready(broken)?.reason, "InvalidSelector");
  assert.match(
    ready(broken)?.message ?? "",
    /invalid label key "bad key!".*Fix: correct spec\.resourceLabelSelector/,
  );
  assert.equal(broken.status?.matchedResources, 0);
  const event = await waitForEvent(e2e.kube, "", "IAMRoleSelector", "broken", "InvalidSelector", /bad key!/);
  assert.equal(event.type, "Warning");

  const counted = await waitFor(
    async () => {
      const s = await get("two-buckets");
      return s.status?.matchedResources === 2 && ready(s)?.status === "True" ? s : undefined;
    },
    { what: "IAMRoleSelector two-buckets matchedResources 2, Ready=True", timeoutMs: 20_000 },
  );
  assert.equal(ready(counted)?.reason, "Valid");
  assert.notEqual(counted.metadata.resourceVersion, specVersion, "the status was written");

  // The buckets record the selector's spec version, and the controller's own status writes do
  // not change their decision: after a configuration change (the snapshot is rebuilt) and a
  // third bucket (a new count, written), each bucket was decided exactly once.
  for (const name of ["one", "two"]) {
    const b = await waitForCondition(e2e.kube, "sel", name, "ACK.ResourceSynced", "True");
    assert.deepEqual(b.status?.ackResourceMetadata?.iamRoleSelector, {
      selectorName: "two-buckets",
      resourceVersion: specVersion,
    });
  }
  await e2e.apply([namespace("sel", {}, { changed: "yes" })]);
  await e2e.apply([bucket("sel", "four")]);
  await waitForCondition(e2e.kube, "sel", "four", "ACK.ResourceSynced", "True");
  await waitFor(async () => (await get("two-buckets")).status?.matchedResources === 3, {
    what: "IAMRoleSelector two-buckets matchedResources 3",
    timeoutMs: 20_000,
  });
  const decider = replicas.find((r) => r.logs().some((l) => l["event"] === "decision"));
  for (const name of ["one", "two"]) {
    const decisions = decider
      ?.logs()
      .filter((l) => l["event"] === "decision" && l["resource"] === `Bucket sel/${name}`);
    assert.equal(decisions?.length, 1, JSON.stringify(decisions));
    const b = await waitForCondition(e2e.kube, "sel", name, "ACK.ResourceSynced", "True");
    assert.equal(b.status?.ackResourceMetadata?.iamRoleSelector?.["resourceVersion"], specVersion);
  }
});
