import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { z } from "zod";
import { ownershipTagKeys } from "./ownership-tags.ts";
import {
  celQuote,
  comparedTagKey,
  isReservedTagKey,
  reservedPrefixOf,
  reservedTagKeyRule,
  reservedTagMapKeysRule,
  serviceTagPrefixes,
  userTagKey,
  userTagMap,
  withoutReservedTags,
} from "./reserved-tag-keys.ts";
import { celRulesOf, describeIssues } from "./rules.ts";

const rds = serviceTagPrefixes({ "rds:": "RDS" });

describe("reserved tag keys: one rule for every kind's tags", () => {
  test("crossrole's and ACK's ownership tags, and anything under their prefixes or AWS's, are reserved", () => {
    for (const key of [
      ...Object.values(ownershipTagKeys),
      "services.k8s.aws/anything",
      "crossrole.dev/anything",
      "aws:cloudformation:stack-name",
    ]) {
      assert.ok(isReservedTagKey(key), key);
    }
  });

  test("compared after trimming whitespace, with ASCII letters in any case", () => {
    for (const key of [
      "services.k8s.aws/namespace ",
      " services.k8s.aws/namespace",
      "\tcrossrole.dev/owner\n",
      "AWS:x",
      "Aws:x",
      "Services.K8s.AWS/namespace",
      "CROSSROLE.DEV/owner",
      // Unicode White_Space, as CEL's trim() (Go's strings.TrimSpace): no-break space, NEL, ideographic space.
      "\u00a0aws:x",
      "\u0085aws:x",
      "\u3000aws:x",
    ]) {
      assert.ok(isReservedTagKey(key), JSON.stringify(key));
    }
  });

  test("what CEL's trim() and lowerAscii() leave alone is left alone: a BOM, the Kelvin sign, inner spaces", () => {
    // U+FEFF is no White_Space (JavaScript's String.trim would remove it; CEL's trim() does not).
    assert.equal(comparedTagKey("\ufeffaws:x"), "\ufeffaws:x");
    assert.equal(isReservedTagKey("\ufeffaws:x"), false);
    // U+212A KELVIN SIGN lower-cases to "k" in JavaScript, not in lowerAscii().
    assert.equal(comparedTagKey("services.\u212a8s.aws/namespace"), "services.\u212a8s.aws/namespace");
    assert.equal(isReservedTagKey("services.\u212a8s.aws/namespace"), false);
    assert.equal(isReservedTagKey("aws :x"), false);
  });

  test("ordinary keys, and keys that merely contain a reserved prefix, are the user's", () => {
    for (const key of [
      "team",
      "cost-centre",
      "my-aws:x",
      "example.com/services.k8s.aws/x",
      "kro.run/version",
      "rds:x",
    ]) {
      assert.equal(isReservedTagKey(key), false, key);
    }
  });

  test("a service's own prefixes are reserved where the service says so (RDS's rds:)", () => {
    assert.equal(reservedPrefixOf(" RDS:backup", rds)?.prefix, "rds:");
    assert.equal(reservedPrefixOf("rds:backup"), undefined);
    assert.throws(() => serviceTagPrefixes({ "RDS:": "RDS" }), /lower case/);
  });

  test("withoutReservedTags keeps the user's tags of what AWS reports", () => {
    assert.deepEqual(
      withoutReservedTags({
        team: "a",
        "services.k8s.aws/namespace": "shop",
        "crossrole.dev/owner-uid": "u",
        "aws:cloudformation:stack-name": "s",
      }),
      { team: "a" },
    );
  });

  test("celQuote is CEL's strings.quote: one line, quotes and backslashes escaped", () => {
    assert.equal(celQuote("services.k8s.aws/namespace "), '"services.k8s.aws/namespace "');
    assert.equal(celQuote('a"b\\c\nd\te\u0007'), '"a\\"b\\\\c\\nd\\te\\a"');
    assert.equal(celQuote("x\ud800"), '"x\ufffd"');
  });
});

describe("the rule's two halves", () => {
  const key = userTagKey(z.string(), "tags[].key", rds);

  test("zod names the key, the prefix, how it was compared and the fix", () => {
    const r = key.safeParse("services.k8s.aws/namespace ");
    assert.equal(r.success, false);
    assert.deepEqual(r.success ? [] : describeIssues(r.error), [
      'tags[].key "services.k8s.aws/namespace " is reserved: keys starting with services.k8s.aws/ (compared after trimming spaces, in any case) are ACK\'s system tags, which crossrole sets itself (services.k8s.aws/namespace, services.k8s.aws/controller-version); rename the tag',
    ]);
    const awsKey = key.safeParse("AWS:x");
    assert.match(
      awsKey.success ? "" : (awsKey.error.issues[0]?.message ?? ""),
      /^tags\[\]\.key "AWS:x" is reserved: keys starting with aws: .* are reserved by AWS; rename the tag$/,
    );
    const rdsKey = key.safeParse("rds:x");
    assert.match(
      rdsKey.success ? "" : (rdsKey.error.issues[0]?.message ?? ""),
      /are reserved by RDS; rename/,
    );
    assert.equal(key.safeParse("team").success, true);
  });

  test("the CEL half trims, lowers ASCII and words the same message from the key", () => {
    const [rule] = celRulesOf(key);
    assert.equal(rule?.rule, reservedTagKeyRule("tags[].key", rds).cel);
    assert.match(
      rule?.rule ?? "",
      /^!\['services\.k8s\.aws\/', 'crossrole\.dev\/', 'aws:', 'rds:'\]\.exists\(p, self\.trim\(\)\.lowerAscii\(\)\.startsWith\(p\)\)$/,
    );
    assert.match(rule?.messageExpression ?? "", /strings\.quote\(self\)/);
    assert.match(rule?.messageExpression ?? "", /'ACK\\'s system tags/);
    assert.doesNotMatch(rule?.message ?? "", /[\r\n]/);
  });

  test("a tag map names its reserved key; several: the first", () => {
    const map = userTagMap(z.record(z.string(), z.string()), "tags");
    const r = map.safeParse({ team: "a", " crossrole.dev/owner": "x", "aws:y": "z" });
    assert.deepEqual(r.success ? [] : r.error.issues.map((i) => i.message.split(":")[0]), [
      'tags key " crossrole.dev/owner" is reserved',
    ]);
    assert.equal(map.safeParse({ team: "a" }).success, true);
    assert.equal(celRulesOf(map)[0]?.rule, reservedTagMapKeysRule("tags").cel);
  });
});
