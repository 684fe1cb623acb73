import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  configMap,
  role,
  roleIdentity,
  selector,
  settingsWith,
} from "../../test/support/resolver-fixtures.ts";
import { configurationProblems } from "../resolver/configuration-problems.ts";
import { buildSnapshot } from "../resolver/snapshot.ts";
import type { ConfigObjects, SnapshotProblem } from "../resolver/types.ts";
import {
  diffProblems,
  problemKey,
  problemLogFields,
  problemMessage,
  problemReason,
  problemWhy,
  resolvedMessage,
} from "./config-problems.ts";

const problemsOf = (objects: ConfigObjects): readonly SnapshotProblem[] =>
  buildSnapshot(objects, settingsWith()).problems;

const badAccountMap = problemsOf({
  configMaps: [
    configMap("ack-role-account-map", { "12345": role("111111111111"), "222222222222": "not-an-arn" }),
  ],
});

describe("diffProblems: each problem reported once when it appears, once when it goes", () => {
  test("everything is new the first time", () => {
    const d = diffProblems(new Map(), badAccountMap);
    assert.deepEqual(d.added, badAccountMap);
    assert.deepEqual(d.resolved, []);
    assert.equal(d.reported.size, 2);
  });

  test("the same problems again (a resync, an unrelated change, a re-apply) report nothing", () => {
    const first = diffProblems(new Map(), badAccountMap);
    const again = problemsOf({
      configMaps: [
        configMap("ack-role-account-map", { "222222222222": "not-an-arn", "12345": role("111111111111") }),
        configMap("ack-role-team-map", { "team-a": role("333333333333") }),
      ],
    });
    const d = diffProblems(first.reported, again);
    assert.deepEqual(d.added, []);
    assert.deepEqual(d.resolved, []);
  });

  test("a fixed entry is resolved, a changed value is a new problem (and the old one resolved)", () => {
    const first = diffProblems(new Map(), badAccountMap);
    const next = problemsOf({
      configMaps: [
        configMap("ack-role-account-map", {
          "111111111111": role("111111111111"),
          "222222222222": "still-bad",
        }),
      ],
    });
    const d = diffProblems(first.reported, next);
    assert.deepEqual(
      d.added.map((p) => [p.field, p.value]),
      [["data[222222222222]", "still-bad"]],
    );
    assert.deepEqual(
      d.resolved.map((p) => [p.field, p.value]),
      [
        ["data[12345]", role("111111111111")],
        ["data[222222222222]", "not-an-arn"],
      ],
    );
    assert.equal(diffProblems(d.reported, []).resolved.length, 1);
  });

  test("identical problems count once", () => {
    const p = badAccountMap[0]!;
    const d = diffProblems(new Map(), [p, { ...p }]);
    assert.equal(d.added.length, 1);
    assert.equal(problemKey(p), problemKey({ ...p }));
  });
});

describe("wording: the key, the value, why it is wrong and the fix", () => {
  test("a malformed account key", () => {
    const p = badAccountMap.find((x) => x.field === "data[12345]")!;
    assert.equal(problemReason(p), "InvalidAccountMapEntry");
    const message = problemMessage(p);
    assert.ok(
      message.startsWith(`data[12345] = "${role("111111111111")}": key "12345" is not an account key`),
      message,
    );
    assert.match(message, /Fix: rename the key to the 12-digit account ID/);
    assert.doesNotMatch(message, /ConfigMap ack-system/, "the Event is on the map already");
  });

  test("a malformed role ARN value", () => {
    const p = badAccountMap.find((x) => x.field === "data[222222222222]")!;
    const message = problemMessage(p);
    assert.match(
      message,
      /^data\[222222222222\] = "not-an-arn": 222222222222: "not-an-arn" is not an IAM role ARN/,
    );
    assert.match(
      message,
      /Fix: set the value to the role ARN to assume, e\.g\. arn:aws:iam::111111111111:role\/ack\.$/,
    );
    assert.equal(resolvedMessage(p), `Resolved: data[222222222222]: ${problemWhy(p)}.`);
  });

  test("reasons by object: each CARM map, selectors, identities, namespaces", () => {
    const of = (kind: string, name: string) =>
      problemReason({ object: { kind, name }, field: "f", severity: "error", message: "m", fix: "x" });
    assert.equal(of("ConfigMap", "ack-role-team-map"), "InvalidTeamMapEntry");
    assert.equal(of("ConfigMap", "ack-carm-map"), "InvalidCarmMapEntry");
    assert.equal(of("IAMRoleSelector", "s"), "InvalidSelector");
    assert.equal(of("AWSRoleIdentity", "r"), "InvalidIdentity");
    assert.equal(of("AWSServiceAccountIdentity", "r"), "InvalidIdentity");
    assert.equal(of("Namespace", "n"), "InvalidNamespaceConfig");
  });

  test("an invalid selector and a dangling identity source", () => {
    const [sel] = problemsOf({ iamRoleSelectors: [selector("s", { arn: "arn:aws:iam::12:role/x" })] });
    assert.match(
      problemMessage(sel!),
      /^spec\.arn = "arn:aws:iam::12:role\/x": spec\.arn: .*Fix: correct spec\.arn; until then the selector is ignored\.$/,
    );
    const [id] = problemsOf({
      identities: [roleIdentity("r", role("111111111111"), { kind: "AWSRoleIdentity", name: "gone" }, {})],
    });
    assert.equal(problemReason(id!), "InvalidIdentity");
    assert.match(
      problemMessage(id!),
      /^spec\.sourceIdentityRef = "AWSRoleIdentity\/gone": its spec\.sourceIdentityRef names AWSRoleIdentity gone, which does not exist\./,
    );
  });

  test("a value that is JSON (an object or list) is shown as it is, not quoted again", () => {
    const [p] = problemsOf({
      iamRoleSelectors: [
        selector("s", {
          arn: role("111111111111"),
          resourceLabelSelector: { matchLabels: { "bad key!": "x" } },
        }),
      ],
    });
    assert.ok(
      problemMessage(p!).startsWith('spec.resourceLabelSelector = {"matchLabels":{"bad key!":"x"}}: '),
      problemMessage(p!),
    );
  });

  test("messages stay within an Event's 1 KiB", () => {
    const p: SnapshotProblem = {
      object: { kind: "ConfigMap", name: "ack-carm-map", namespace: "ack-system" },
      field: "data",
      severity: "error",
      message: "x".repeat(2000),
      fix: "y",
    };
    assert.equal(problemMessage(p).length, 1024);
    assert.equal(resolvedMessage(p).length, 1024);
  });

  test("an unused CARM key: its own reason, and the gate named in the Event and the log line", () => {
    const settings = settingsWith();
    const snapshot = buildSnapshot(
      { configMaps: [configMap("ack-role-account-map", { "sqs.222222222222": role("222222222222") })] },
      settings,
    );
    const [p] = configurationProblems(snapshot, settings, ["s3", "sqs"]);
    assert.equal(problemReason(p!), "UnusedCarmKey");
    assert.equal(
      problemMessage(p!),
      `data[sqs.222222222222] = "${role("222222222222")}": key "sqs.222222222222" is not used: feature gate ServiceLevelCARM is off, so service-level keys are never read (sqs resources in account 222222222222 use key 222222222222). Fix: turn on --feature-gates=ServiceLevelCARM=true, or rename the key to 222222222222 to map every service.`,
    );
    assert.equal(problemLogFields(p!)["reason"], "UnusedCarmKey");
    assert.match(String(problemLogFields(p!)["why"]), /feature gate ServiceLevelCARM is off/);
    // The reason is part of what identifies a problem: the same words under another reason are new.
    assert.notEqual(problemKey(p!), problemKey({ ...p!, reason: "Other" }));
  });

  test("log fields name the object, the field, the value, why and the fix", () => {
    const p = badAccountMap.find((x) => x.field === "data[222222222222]")!;
    assert.deepEqual(problemLogFields(p), {
      object: { kind: "ConfigMap", namespace: "ack-system", name: "ack-role-account-map" },
      field: "data[222222222222]",
      value: "not-an-arn",
      severity: "error",
      reason: "InvalidAccountMapEntry",
      why: problemWhy(p),
      fix: p.fix,
    });
  });
});
