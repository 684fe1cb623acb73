import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { configMap, namespace, role, settingsWith } from "../../test/support/resolver-fixtures.ts";
import { unusedCarmKeys } from "./carm-unused.ts";
import { configurationProblems } from "./configuration-problems.ts";
import { buildSnapshot } from "./snapshot.ts";
import type { FeatureGates, SnapshotProblem } from "./types.ts";

const services = ["s3", "sqs", "sns", "dynamodb", "rds"];
const accountMap = "ack-role-account-map";
const teamMap = "ack-role-team-map";
const carmMap = "ack-carm-map";

function unused(
  maps: Record<string, Record<string, string>>,
  gates: Partial<FeatureGates> = {},
  opts: { namespaces?: unknown[]; enableCARM?: boolean; services?: string[] } = {},
): SnapshotProblem[] {
  const settings = settingsWith({
    gates,
    ...(opts.enableCARM === undefined ? {} : { enableCARM: opts.enableCARM }),
  });
  const configMaps = Object.entries(maps).map(([name, data]) => configMap(name, data));
  const snapshot = buildSnapshot({ configMaps, namespaces: opts.namespaces ?? [] }, settings);
  return unusedCarmKeys(snapshot, settings, opts.services ?? services);
}

/** [field, reason, message without the ConfigMap prefix, fix] of each problem. */
const summary = (problems: readonly SnapshotProblem[]) =>
  problems.map((p) => [
    p.object.name,
    p.field,
    p.reason,
    p.message.replace(/^ConfigMap ack-system\/[^:]+: /, ""),
    p.fix,
  ]);

describe("unusedCarmKeys: service-level keys", () => {
  test("with ServiceLevelCARM off, sqs.<account> is unused: the message names the gate, the fix the key to use", () => {
    const problems = unused({ [accountMap]: { "sqs.222222222222": role("222222222222", "queues") } });
    assert.deepEqual(summary(problems), [
      [
        accountMap,
        "data[sqs.222222222222]",
        "UnusedCarmKey",
        'key "sqs.222222222222" is not used: feature gate ServiceLevelCARM is off, so service-level keys are never read (sqs resources in account 222222222222 use key 222222222222)',
        "turn on --feature-gates=ServiceLevelCARM=true, or rename the key to 222222222222 to map every service",
      ],
    ]);
    const p = problems[0]!;
    assert.deepEqual(p.object, { kind: "ConfigMap", name: accountMap, namespace: "ack-system" });
    assert.equal(p.severity, "warning");
    assert.equal(p.value, role("222222222222", "queues"));
  });

  test("when the plain key exists, the fix is to remove the service-level one", () => {
    const problems = unused({
      [accountMap]: { "222222222222": role("222222222222"), "sqs.222222222222": role("222222222222", "q") },
    });
    assert.equal(problems.length, 1);
    assert.equal(
      problems[0]!.fix,
      "turn on --feature-gates=ServiceLevelCARM=true, or remove the key (key 222222222222 already maps every service)",
    );
  });

  test("with ServiceLevelCARM on, service-level keys of known services are used", () => {
    assert.deepEqual(
      unused(
        {
          [accountMap]: { "sqs.222222222222": role("222222222222"), "s3.222222222222": role("222222222222") },
          [carmMap]: { "owner-account-id.rds.333333333333": role("333333333333") },
        },
        { ServiceLevelCARM: true },
      ),
      [],
    );
  });

  test("ack-carm-map's service-level account keys are judged the same, and fixes keep the key's form", () => {
    const problems = unused({
      [carmMap]: {
        "owner-account-id.sqs.222222222222": role("222222222222"),
        "owner-account-id/sns.333333333333": role("333333333333"),
        "owner-account-id.444444444444": role("444444444444"),
      },
    });
    assert.deepEqual(
      problems.map((p) => [p.field, p.fix]),
      [
        [
          "data[owner-account-id.sqs.222222222222]",
          "turn on --feature-gates=ServiceLevelCARM=true, or rename the key to owner-account-id.222222222222 to map every service",
        ],
        [
          "data[owner-account-id/sns.333333333333]",
          "turn on --feature-gates=ServiceLevelCARM=true, or rename the key to owner-account-id/333333333333 to map every service",
        ],
      ],
    );
  });
});

describe("unusedCarmKeys: unknown services", () => {
  test("misspelt prefixes are unknown services, with the known ones listed and the nearest suggested", () => {
    const problems = unused(
      {
        [accountMap]: {
          "sqss.111111111111": role("111111111111"),
          "dynamo.111111111111": role("111111111111"),
          "lambda.111111111111": role("111111111111"),
        },
      },
      { ServiceLevelCARM: true },
    );
    assert.deepEqual(summary(problems), [
      [
        accountMap,
        "data[dynamo.111111111111]",
        "UnusedCarmKey",
        'key "dynamo.111111111111" is not used: unknown service dynamo: known services are dynamodb, rds, s3, sns, sqs',
        "rename the key to dynamodb.111111111111, or rename the key to 111111111111 to map every service",
      ],
      [
        accountMap,
        "data[lambda.111111111111]",
        "UnusedCarmKey",
        'key "lambda.111111111111" is not used: unknown service lambda: known services are dynamodb, rds, s3, sns, sqs',
        "rename the key to <service>.111111111111 with a known service, or rename the key to 111111111111 to map every service",
      ],
      [
        accountMap,
        "data[sqss.111111111111]",
        "UnusedCarmKey",
        'key "sqss.111111111111" is not used: unknown service sqss: known services are dynamodb, rds, s3, sns, sqs',
        "rename the key to sqs.111111111111, or rename the key to 111111111111 to map every service",
      ],
    ]);
  });

  test("an unknown service with ServiceLevelCARM off says both, once", () => {
    const problems = unused({ [carmMap]: { "owner-account-id.sqss.111111111111": role("111111111111") } });
    assert.equal(problems.length, 1);
    assert.match(
      problems[0]!.message,
      /unknown service sqss: .*; feature gate ServiceLevelCARM is off as well$/,
    );
    assert.match(
      problems[0]!.fix,
      /^rename the key to owner-account-id\.sqs\.111111111111 and turn on --feature-gates=ServiceLevelCARM=true, /,
    );
  });

  test("the known services are the ones given (the served kinds'), not a list of its own", () => {
    const problems = unused(
      { [accountMap]: { "sqs.111111111111": role("111111111111") } },
      { ServiceLevelCARM: true },
      {
        services: ["s3"],
      },
    );
    assert.equal(problems.length, 1);
    assert.match(problems[0]!.message, /unknown service sqs: known services are s3$/);
  });
});

describe("unusedCarmKeys: team keys", () => {
  test("with TeamLevelCARM off, the team map is unused as a whole and ack-carm-map's team keys one by one", () => {
    const problems = unused({
      [teamMap]: { "team-a": role("111111111111"), "team-b": role("222222222222") },
      [carmMap]: {
        "team-id.team-c": role("333333333333"),
        "team-id.team-c.endpoint": "https://vpce.example.com",
        "owner-account-id.444444444444": role("444444444444"),
      },
    });
    assert.deepEqual(
      problems.map((p) => [p.object.name, p.field, p.reason]),
      [
        [teamMap, "data", "UnusedCarmMap"],
        [carmMap, "data[team-id.team-c]", "UnusedCarmKey"],
        [carmMap, "data[team-id.team-c.endpoint]", "UnusedCarmKey"],
      ],
    );
    for (const p of problems) {
      assert.match(p.message, /feature gate TeamLevelCARM is off, so team keys are never read/);
      assert.match(p.fix, /^turn on --feature-gates=TeamLevelCARM=true, /);
    }
    assert.match(problems[0]!.message, /: none of its keys is used: /);
    assert.equal(problems[0]!.value, undefined);
  });

  test("an empty team map is no problem, whatever the gate", () => {
    assert.deepEqual(unused({ [teamMap]: {} }), []);
  });

  test("a dotted team key reads as <service>.<team> unless a namespace carries the whole key", () => {
    const maps = {
      [teamMap]: { "team-a": role("1"), "sqs.team-a": role("2"), "sqss.team-a": role("3") },
      [carmMap]: { "team-id.sqs.team-a.endpoint": "https://vpce.example.com" },
    };
    const problems = unused(maps, { TeamLevelCARM: true });
    assert.deepEqual(summary(problems), [
      [
        teamMap,
        "data[sqs.team-a]",
        "UnusedCarmKey",
        'key "sqs.team-a" is not used: feature gate ServiceLevelCARM is off, so service-level keys are never read (sqs resources of team team-a use key team-a), and no namespace has services.k8s.aws/team-id=sqs.team-a',
        "turn on --feature-gates=ServiceLevelCARM=true, or remove the key (key team-a already maps every service)",
      ],
      [
        teamMap,
        "data[sqss.team-a]",
        "UnusedCarmKey",
        'key "sqss.team-a" is not used: unknown service sqss: known services are dynamodb, rds, s3, sns, sqs, and no namespace has services.k8s.aws/team-id=sqss.team-a; feature gate ServiceLevelCARM is off as well',
        "rename the key to sqs.team-a and turn on --feature-gates=ServiceLevelCARM=true, or remove the key (key team-a already maps every service), or, if sqss.team-a is a team ID, annotate its namespaces services.k8s.aws/team-id=sqss.team-a",
      ],
      [
        carmMap,
        "data[team-id.sqs.team-a.endpoint]",
        "UnusedCarmKey",
        'key "team-id.sqs.team-a.endpoint" is not used: feature gate ServiceLevelCARM is off, so service-level keys are never read (sqs resources of team team-a use key team-id.team-a.endpoint), and no namespace has services.k8s.aws/team-id=sqs.team-a',
        "turn on --feature-gates=ServiceLevelCARM=true, or rename the key to team-id.team-a.endpoint to map every service",
      ],
    ]);

    // Namespaces whose team IDs are the whole keys: each key is a plain team key, and used.
    const teamNamespaces = ["sqs.team-a", "sqss.team-a"].map((team, i) =>
      namespace(`ns-${i}`, { "services.k8s.aws/team-id": team }),
    );
    assert.deepEqual(unused(maps, { TeamLevelCARM: true }, { namespaces: teamNamespaces }), []);
  });

  test("with both gates on, a known service's team key is used; an undotted team key never reads as one", () => {
    assert.deepEqual(
      unused(
        { [teamMap]: { "sqs.team-a": role("2"), "team-b": role("3") } },
        {
          TeamLevelCARM: true,
          ServiceLevelCARM: true,
        },
      ),
      [],
    );
  });
});

describe("unusedCarmKeys: CARM off", () => {
  const maps = {
    [accountMap]: { "111111111111": role("111111111111") },
    [teamMap]: { "team-a": role("222222222222") },
    [carmMap]: { "owner-account-id.sqss.333333333333": role("333333333333") },
  };

  test("--enable-carm=false: one problem per map, none per key", () => {
    const problems = unused(maps, { TeamLevelCARM: true }, { enableCARM: false });
    assert.deepEqual(
      problems.map((p) => [p.object.name, p.field, p.reason]),
      [
        [accountMap, "data", "UnusedCarmMap"],
        [teamMap, "data", "UnusedCarmMap"],
        [carmMap, "data", "UnusedCarmMap"],
      ],
    );
    assert.match(problems[0]!.message, /: none of its keys is used: CARM is off \(--enable-carm=false\)$/);
    assert.equal(problems[0]!.fix, "start the controller with --enable-carm=true, or remove the ConfigMap");
  });

  test("IAMRoleSelector mode says that it replaces CARM, and how to move the grants", () => {
    const problems = unused(maps, { IAMRoleSelector: true });
    assert.equal(problems.length, 3);
    for (const p of problems) {
      assert.match(p.message, /the controller runs in IAMRoleSelector mode, which replaces CARM$/);
      assert.match(p.fix, /crossrole migrate/);
    }
  });

  test("absent and empty maps are no problem", () => {
    assert.deepEqual(unused({ [accountMap]: {} }, {}, { enableCARM: false }), []);
  });
});

describe("configurationProblems: the snapshot's problems and the unused keys, in one order", () => {
  test("a bad account is the parser's problem only; unused keys join it, sorted", () => {
    const settings = settingsWith();
    const snapshot = buildSnapshot(
      {
        configMaps: [
          configMap(accountMap, {
            "11111111111": role("111111111111"),
            "sqs.222222222222": role("222222222222"),
          }),
        ],
      },
      settings,
    );
    const all = configurationProblems(snapshot, settings, services);
    assert.deepEqual(
      all.map((p) => [p.field, p.severity, p.reason ?? null]),
      [
        ["data[11111111111]", "error", null],
        ["data[sqs.222222222222]", "warning", "UnusedCarmKey"],
      ],
    );
    assert.match(all[0]!.message, /account ID "11111111111" has 11 digits; an AWS account ID has exactly 12/);
  });

  test("with every key used, it is the snapshot's own list", () => {
    const settings = settingsWith();
    const snapshot = buildSnapshot({ configMaps: [configMap(accountMap, { "12": "x" })] }, settings);
    assert.equal(configurationProblems(snapshot, settings, services), snapshot.problems);
  });
});
