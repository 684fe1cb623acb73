import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { accountMapName, carmMapName, parseCarmMap, teamMapName } from "../api/carm.ts";

const role = (account: string, name = "ack") => `arn:aws:iam::${account}:role/${name}`;

describe("parseCarmMap: ack-role-account-map", () => {
  test("plain and service-level account keys become account entries", () => {
    const parsed = parseCarmMap(accountMapName, {
      "111111111111": role("111111111111"),
      "s3.111111111111": role("111111111111", "s3"),
    });
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(
      parsed.entries.map((e) => [e.key, e.subject, e.id, e.service, e.field, e.error]),
      [
        ["111111111111", "account", "111111111111", null, "role-arn", null],
        ["s3.111111111111", "account", "s3.111111111111", "s3", "role-arn", null],
      ],
    );
  });

  const garbageKeys: readonly [string, string][] = [
    ["12345", "too short"],
    ["1111111111111", "too long"],
    ["team-a", "a team name in the account map"],
    ["S3.111111111111", "upper-case service"],
    [".111111111111", "empty service"],
  ];
  for (const [key, why] of garbageKeys) {
    test(`garbage key ${JSON.stringify(key)} (${why}) is a problem, not an entry`, () => {
      const parsed = parseCarmMap(accountMapName, { [key]: role("111111111111") });
      assert.deepEqual(parsed.entries, []);
      assert.equal(parsed.problems.length, 1);
      assert.equal(parsed.problems[0]!.key, key);
      assert.equal(parsed.problems[0]!.severity, "error");
      assert.match(parsed.problems[0]!.message, /not an account key/);
    });
  }

  test("an account of the wrong length says how many digits it has, in every map that holds accounts", () => {
    const cases: readonly [Parameters<typeof parseCarmMap>[0], string, string][] = [
      [accountMapName, "11111111111", "11"],
      [accountMapName, "sqs.1111111111111", "13"],
      [carmMapName, "owner-account-id.11111111111", "11"],
      [carmMapName, "owner-account-id/s3.12345", "5"],
    ];
    for (const [map, key, count] of cases) {
      const parsed = parseCarmMap(map, { [key]: role("111111111111") });
      assert.deepEqual(parsed.entries, [], key);
      assert.match(
        parsed.problems[0]?.message ?? "",
        new RegExp(
          `^key "${key.replaceAll(".", "\\.")}" is not an account key: account ID "\\d+" has ${count} digits; an AWS account ID has exactly 12$`,
        ),
        key,
      );
    }
  });

  const badValues: readonly [string, RegExp][] = [
    ["", /empty/],
    ["   ", /empty/],
    ["arn:aws:iam::111:role/x", /not an IAM role ARN/],
    ["arn:aws:s3:::bucket", /not an IAM role ARN/],
    ["arn:aws:iam::111111111111:user/bob", /not an IAM role ARN/],
  ];
  for (const [value, message] of badValues) {
    test(`unusable value ${JSON.stringify(value)} stays an entry with its error, and is reported`, () => {
      const parsed = parseCarmMap(accountMapName, { "111111111111": value });
      assert.equal(parsed.entries.length, 1);
      assert.match(parsed.entries[0]!.error ?? "", message);
      assert.equal(parsed.problems.length, 1);
      assert.equal(parsed.problems[0]!.key, "111111111111");
    });
  }

  test("non-string values and non-map data are problems", () => {
    assert.equal(parseCarmMap(accountMapName, { "111111111111": 5 }).problems.length, 1);
    assert.equal(parseCarmMap(accountMapName, ["x"]).problems.length, 1);
    assert.equal(parseCarmMap(accountMapName, "x").problems.length, 1);
    assert.deepEqual(parseCarmMap(accountMapName, undefined), {
      map: accountMapName,
      entries: [],
      problems: [],
    });
  });

  test("entries are sorted by key whatever the data's key order", () => {
    const a = parseCarmMap(accountMapName, { "222222222222": role("2"), "111111111111": role("1") });
    const b = parseCarmMap(accountMapName, { "111111111111": role("1"), "222222222222": role("2") });
    assert.deepEqual(a, b);
  });

  test("partitions other than aws are accepted", () => {
    const parsed = parseCarmMap(accountMapName, {
      "111111111111": "arn:aws-cn:iam::111111111111:role/path/ack",
    });
    assert.equal(parsed.entries[0]!.error, null);
  });
});

describe("parseCarmMap: ack-role-team-map", () => {
  test("team and service.team keys are kept whole (a team name may contain a dot)", () => {
    const parsed = parseCarmMap(teamMapName, { "team-a": role("1"), "s3.team-a": role("2") });
    assert.deepEqual(
      parsed.entries.map((e) => [e.id, e.subject, e.service]),
      [
        ["s3.team-a", "team", null],
        ["team-a", "team", null],
      ],
    );
  });

  test("a key outside the ConfigMap key alphabet is a problem", () => {
    const parsed = parseCarmMap(teamMapName, { "team a": role("1") });
    assert.equal(parsed.entries.length, 0);
    assert.match(parsed.problems[0]!.message, /not a team key/);
  });
});

describe("parseCarmMap: ack-carm-map", () => {
  test("prefixed keys map to account and team entries with their fields", () => {
    const parsed = parseCarmMap(carmMapName, {
      "owner-account-id/111111111111": role("111111111111"),
      "owner-account-id/s3.111111111111": role("111111111111", "s3"),
      "team-id/team-a": role("222222222222"),
      "team-id/team-b/role-arn": role("333333333333"),
      "team-id/team-b/endpoint": "https://vpce.example.com",
      "team-id/team-b/external-id": "ext-123",
    });
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(
      parsed.entries.map((e) => [e.key, e.subject, e.id, e.field]),
      [
        ["owner-account-id/111111111111", "account", "111111111111", "role-arn"],
        ["owner-account-id/s3.111111111111", "account", "s3.111111111111", "role-arn"],
        ["team-id/team-a", "team", "team-a", "role-arn"],
        ["team-id/team-b/endpoint", "team", "team-b", "endpoint"],
        ["team-id/team-b/external-id", "team", "team-b", "external-id"],
        ["team-id/team-b/role-arn", "team", "team-b", "role-arn"],
      ],
    );
  });

  test("the dot form a cluster can store means the same as the slash form", () => {
    const parsed = parseCarmMap(carmMapName, {
      "owner-account-id.111111111111": role("111111111111"),
      "owner-account-id.s3.111111111111": role("111111111111", "s3"),
      "team-id.team-a": role("222222222222"),
      "team-id.team.b.role-arn": role("333333333333"),
      "team-id.team.b.endpoint": "https://vpce.example.com",
      "team-id.team.b.external-id": "ext-123",
    });
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(
      parsed.entries.map((e) => [e.key, e.subject, e.id, e.service, e.field]),
      [
        ["owner-account-id.111111111111", "account", "111111111111", null, "role-arn"],
        ["owner-account-id.s3.111111111111", "account", "s3.111111111111", "s3", "role-arn"],
        ["team-id.team-a", "team", "team-a", null, "role-arn"],
        ["team-id.team.b.endpoint", "team", "team.b", null, "endpoint"],
        ["team-id.team.b.external-id", "team", "team.b", null, "external-id"],
        ["team-id.team.b.role-arn", "team", "team.b", null, "role-arn"],
      ],
    );
    // Every dot-form key is a valid Kubernetes ConfigMap key.
    for (const e of parsed.entries) assert.match(e.key, /^[-._a-zA-Z0-9]+$/);
  });

  test("garbage in the dot form is reported, never fatal", () => {
    const parsed = parseCarmMap(carmMapName, {
      "owner-account-id.abc": role("111111111111"),
      "team-id.": role("1"),
    });
    assert.deepEqual(parsed.entries, []);
    assert.deepEqual(
      parsed.problems.map((p) => [p.key, p.severity]),
      [
        ["owner-account-id.abc", "error"],
        ["team-id.", "error"],
      ],
    );
  });

  const cases: readonly [string, "error" | "warning", RegExp][] = [
    ["team-id/team-a/colour", "warning", /unknown sub-key "colour"/],
    ["owner-account-id/111111111111/role-arn", "warning", /take none/],
    ["owner-account-id/abc", "error", /not an account key/],
    ["account/111111111111", "error", /no known prefix/],
    ["111111111111", "error", /no known prefix/],
    ["team-id/", "error", /not a team key/],
  ];
  for (const [key, severity, message] of cases) {
    test(`key ${JSON.stringify(key)} is reported as ${severity}, never fatal`, () => {
      const parsed = parseCarmMap(carmMapName, {
        [key]: role("111111111111"),
        "team-id/ok": role("111111111111"),
      });
      assert.deepEqual(
        parsed.entries.map((e) => e.key),
        ["team-id/ok"],
      );
      assert.equal(parsed.problems.length, 1);
      assert.equal(parsed.problems[0]!.severity, severity);
      assert.match(parsed.problems[0]!.message, message);
    });
  }

  test("endpoint and external-id values are validated for what they are", () => {
    const parsed = parseCarmMap(carmMapName, {
      "team-id/a/endpoint": "ftp://x",
      "team-id/a/external-id": "x",
    });
    assert.match(parsed.entries.find((e) => e.field === "endpoint")!.error ?? "", /http/);
    assert.match(parsed.entries.find((e) => e.field === "external-id")!.error ?? "", /external ID/);
    assert.equal(parsed.problems.length, 2);
  });
});
