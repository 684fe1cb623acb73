import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { z } from "zod";
import { describeIssues } from "./rules.ts";
import {
  accountOfRoleArn,
  isIamRoleArn,
  matchesPattern,
  type PatternName,
  parseIamRoleArn,
  patterns,
  sessionTagsField,
} from "./validation.ts";

const table: Record<PatternName, { valid: string[]; invalid: string[] }> = {
  iamRoleArn: {
    valid: [
      "arn:aws:iam::111111111111:role/XAccountS3",
      "arn:aws-cn:iam::111111111111:role/x",
      "arn:aws-us-gov:iam::111111111111:role/path/to/Role+=,.@-_",
      "arn:aws-iso-b:iam::111111111111:role/service-role/R",
      `arn:aws:iam::111111111111:role/${"n".repeat(64)}`,
    ],
    invalid: [
      "arn:aws:iam::111111111111:user/bob",
      "arn:aws:iam::11111111111:role/X",
      "arn:aws:iam::1111111111111:role/X",
      "arn:aws:iam::111111111111:role/",
      "arn:aws:iam::111111111111:role/path/",
      `arn:aws:iam::111111111111:role/${"n".repeat(65)}`,
      "arn:aws:sts::111111111111:assumed-role/X/session",
      "arn::iam::111111111111:role/X",
      "arn:aws:iam::111111111111:role/has space",
      " arn:aws:iam::111111111111:role/X",
    ],
  },
  iamPolicyArn: {
    valid: ["arn:aws:iam::aws:policy/ReadOnlyAccess", "arn:aws:iam::222222222222:policy/team/Extra"],
    invalid: ["arn:aws:iam::111111111111:role/X", "arn:aws:iam::aws:policy/", "ReadOnlyAccess"],
  },
  accountId: {
    valid: ["111111111111", "000000000000"],
    invalid: ["11111111111", "1111111111111", "11111111111a", ""],
  },
  sessionName: {
    valid: ["ab", "crossrole.shop", "a_b+c=d,e.f@g-h", "s".repeat(64)],
    invalid: ["a", "s".repeat(65), "has space", "slash/no", "colon:no"],
  },
  externalId: {
    valid: ["ab", "central-it", "ext:id/1@x", "e".repeat(1224)],
    invalid: ["e", "e".repeat(1225), "secret!", "has space"],
  },
  sourceIdentity: { valid: ["alice@example.com", "ab"], invalid: ["a", "alice smith", "x".repeat(65)] },
  tagKey: {
    valid: ["team", "cost center", "Ünïcode", "a:b/c=d+e-f@g_h.i", "k".repeat(128)],
    invalid: ["", "k".repeat(129), "semi;colon", "quote'"],
  },
  tagValue: { valid: ["", "shop", "v".repeat(256)], invalid: ["v".repeat(257), "star*"] },
  region: {
    valid: ["eu-west-1", "us-gov-west-1", "cn-north-1", "ap-southeast-3", "eusc-de-east-1", "us-isob-east-1"],
    invalid: ["eu-west", "EU-WEST-1", "euwest1", "eu-west-1a", ""],
  },
  dnsSubdomain: { valid: ["a", "static-keys", "a.b-c.d"], invalid: ["", "-a", "a-", "A", "a_b", "a..b"] },
  dnsLabel: { valid: ["shop", "sky-dev-team", "a1"], invalid: ["", "Shop", "a.b", "-a", "a-"] },
  apiGroupOrEmpty: { valid: ["", "s3.services.k8s.aws", "apps"], invalid: ["S3", "a/b"] },
  apiVersionNameOrEmpty: { valid: ["", "v1", "v1alpha1"], invalid: ["V1", "v1/beta"] },
  apiVersion: {
    valid: ["v1", "s3.services.k8s.aws/v1alpha1", "apps/v1"],
    invalid: ["", "S3 Buckets", "/v1", "a/b/c"],
  },
  kindOrEmpty: { valid: ["", "Bucket", "DBInstance"], invalid: ["1Bucket", "my-kind"] },
  teamId: { valid: ["team-a", "Team_A.1"], invalid: ["", "team a", "team/a"] },
};

describe("patterns", () => {
  for (const [name, cases] of Object.entries(table) as [PatternName, (typeof table)[PatternName]][]) {
    test(name, () => {
      for (const s of cases.valid)
        assert.equal(matchesPattern(name, s), true, `${name} should accept ${JSON.stringify(s)}`);
      for (const s of cases.invalid)
        assert.equal(matchesPattern(name, s), false, `${name} should reject ${JSON.stringify(s)}`);
    });
  }

  test("every pattern is anchored and uses only what RE2 (CEL matches) accepts", () => {
    for (const [name, source] of Object.entries(patterns)) {
      assert.ok(source.startsWith("^") && source.endsWith("$"), `${name} must be anchored`);
      assert.doesNotMatch(source, /\(\?[=!<]/, `${name}: RE2 has no lookaround`);
      assert.doesNotMatch(source, /\\[1-9]/, `${name}: RE2 has no backreferences`);
      assert.doesNotMatch(source, /'/, `${name}: a quote would end the CEL string literal`);
      for (const [, counts] of source.matchAll(/\{(\d+(?:,\d*)?)\}/g)) {
        for (const n of (counts ?? "").split(",").filter(Boolean)) {
          assert.ok(Number(n) <= 1000, `${name}: RE2 rejects repeat counts above 1000 (${n})`);
        }
      }
    }
  });
});

test("parseIamRoleArn splits partition, account, path and name", () => {
  assert.deepEqual(parseIamRoleArn("arn:aws-cn:iam::222222222222:role/billing/team/CentralRDS"), {
    partition: "aws-cn",
    account: "222222222222",
    path: "/billing/team/",
    name: "CentralRDS",
  });
  assert.deepEqual(parseIamRoleArn("arn:aws:iam::111111111111:role/X"), {
    partition: "aws",
    account: "111111111111",
    path: "/",
    name: "X",
  });
  assert.equal(parseIamRoleArn("arn:aws:iam::111111111111:user/X"), null);
});

test("accountOfRoleArn and isIamRoleArn", () => {
  assert.equal(accountOfRoleArn("arn:aws:iam::222222222222:role/X"), "222222222222");
  assert.equal(accountOfRoleArn("not an arn"), null);
  assert.equal(
    isIamRoleArn(`arn:aws:iam::111111111111:role/${"p/".repeat(1100)}X`),
    false,
    "longer than 2048",
  );
});

test("sessionTagsField: at most 50 tags, keys unique, no aws: keys, messages name the field", () => {
  const field = z.object({ sessionTags: sessionTagsField("sessionTags") });
  const issues = (v: unknown) => {
    const r = field.safeParse({ sessionTags: v });
    return r.success ? [] : describeIssues(r.error);
  };
  const tags = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: "" }));
  assert.deepEqual(issues(tags(50)), []);
  assert.match(issues(tags(51)).join("\n"), /^sessionTags: sessionTags may hold at most 50 tags/);
  assert.match(
    issues([{ key: "aws:x", value: "" }]).join("\n"),
    /^sessionTags\[0\]\.key: sessionTags key must not start with 'aws:'/,
  );
});
