import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  dns1123LabelErrors,
  dns1123SubdomainErrors,
  labelKeyErrors,
  labelValueErrors,
} from "./label-syntax.ts";

const a = (n: number) => "a".repeat(n);

// Ports the tables of apimachinery pkg/util/validation/validation_test.go TestIsQualifiedName.
describe("labelKeyErrors (apimachinery TestIsQualifiedName)", () => {
  const valid = [
    "simple",
    "now-with-dashes",
    "1-starts-with-num",
    "1234",
    "simple/simple",
    "now-with-dashes/simple",
    "now-with-dashes/now-with-dashes",
    "now.with.dots/simple",
    "now-with.dashes-and.dots/simple",
    "1-num.2-num/3-num",
    "1234/5678",
    "1.2.3.4/5678",
    "Uppercase_Is_OK_123",
    "example.com/Uppercase_Is_OK_123",
    "requests.storage-foo",
    a(63),
    `${a(253)}/${"b".repeat(63)}`,
  ];
  for (const key of valid) {
    test(`accepts ${JSON.stringify(key.length > 40 ? `${key.slice(0, 20)}…(${key.length})` : key)}`, () => {
      assert.deepEqual(labelKeyErrors(key), []);
    });
  }

  const invalid: readonly (readonly [string, string])[] = [
    ["nospecialchars%^=@", "name part must consist of"],
    ["cantendwithadash-", "name part must consist of"],
    ["-cantstartwithadash-", "name part must consist of"],
    ["only/one/slash", "a qualified name must consist of"],
    ["Example.com/abc", "prefix part must be a lowercase RFC 1123 subdomain"],
    ["example_com/abc", "prefix part must be a lowercase RFC 1123 subdomain"],
    ["example.com/", "name part must be non-empty"],
    ["/simple", "prefix part must be non-empty"],
    [a(64), "name part must be no more than 63 characters"],
    [`${a(254)}/abc`, "prefix part must be no more than 253 characters"],
    // Also from apimachinery metav1 validation TestValidateLabels (label name error cases).
    ["nospecialchars^=@", "name part must consist of"],
    [a(254), "name part must be no more than 63 characters"],
    ["", "name part must be non-empty"],
  ];
  for (const [key, reason] of invalid) {
    test(`rejects ${JSON.stringify(key.length > 40 ? `${key.slice(0, 20)}…(${key.length})` : key)}`, () => {
      const errors = labelKeyErrors(key);
      assert.ok(
        errors.some((e) => e.includes(reason)),
        `expected an error containing ${JSON.stringify(reason)}, got ${JSON.stringify(errors)}`,
      );
    });
  }
});

// Ports apimachinery pkg/util/validation/validation_test.go TestIsValidLabelValue, plus the
// value cases of pkg/apis/meta/v1/validation/validation_test.go TestValidateLabels.
describe("labelValueErrors (apimachinery TestIsValidLabelValue, TestValidateLabels)", () => {
  const valid = [
    "simple",
    "now-with-dashes",
    "1-starts-with-num",
    "end-with-num-1",
    "1234",
    a(63),
    "",
    "123_-.BaR",
  ];
  for (const value of valid) {
    test(`accepts ${JSON.stringify(value)}`, () => assert.deepEqual(labelValueErrors(value), []));
  }
  const invalid: readonly (readonly [string, string])[] = [
    ["nospecialchars%^=@", "a valid label value must be an empty string or consist of"],
    ["Tama-nui-te-rā.is.Māori.sun", "a valid label value must be an empty string or consist of"],
    ["\\backslashes\\are\\bad", "a valid label value must be an empty string or consist of"],
    ["-starts-with-dash", "a valid label value must be an empty string or consist of"],
    ["ends-with-dash-", "a valid label value must be an empty string or consist of"],
    [".starts.with.dot", "a valid label value must be an empty string or consist of"],
    ["ends.with.dot.", "a valid label value must be an empty string or consist of"],
    [a(64), "must be no more than 63 characters"],
    ["bad,value", "a valid label value must be an empty string or consist of"],
    ["?#$notsogood", "a valid label value must be an empty string or consist of"],
    ["trailing\n", "a valid label value must be an empty string or consist of"],
  ];
  for (const [value, reason] of invalid) {
    test(`rejects ${JSON.stringify(value)}`, () => {
      const errors = labelValueErrors(value);
      assert.ok(
        errors.some((e) => e.includes(reason)),
        JSON.stringify(errors),
      );
    });
  }
});

// Ports apimachinery pkg/util/validation/validation_test.go TestIsDNS1123Label and TestIsDNS1123Subdomain.
describe("DNS-1123 names (apimachinery TestIsDNS1123Label, TestIsDNS1123Subdomain)", () => {
  const labelGood = [
    "a",
    "ab",
    "abc",
    "a1",
    "a-1",
    "a--1--2--b",
    "0",
    "01",
    "012",
    "1a",
    "1-a",
    "1--a--b--2",
    a(63),
  ];
  const labelBad = [
    ...["", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1"],
    ...["_", "a_", "_a", "a_b", "1_", "_1", "1_2", ".", "a.", ".a", "a.b", "1.", ".1", "1.2"],
    ...[" ", "a ", " a", "a b", "1 ", " 1", "1 2", a(64)],
  ];
  test("labels: the good values", () => {
    for (const v of labelGood) assert.deepEqual(dns1123LabelErrors(v), [], v);
  });
  test("labels: the bad values", () => {
    for (const v of labelBad) assert.notDeepEqual(dns1123LabelErrors(v), [], JSON.stringify(v));
  });

  const subdomainGood = [
    ...labelGood.slice(0, -1),
    ...["a.a", "ab.a", "abc.a", "a1.a", "a-1.a", "a--1--2--b.a", "a.1", "ab.1", "abc.1", "a1.1", "a-1.1"],
    ...["a--1--2--b.1", "0.a", "01.a", "012.a", "1a.a", "1-a.a", "0.1", "01.1", "012.1", "1a.1", "1-a.1"],
    ...["1--a--b--2.1", "a.b.c.d.e", "aa.bb.cc.dd.ee", "1.2.3.4.5", "11.22.33.44.55", a(253)],
  ];
  const subdomainBad = [
    ...["", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1"],
    ...["_", "a_", "_a", "a_b", "1_", "_1", "1_2", ".", "a.", ".a", "a..b", "1.", ".1", "1..2"],
    ...[" ", "a ", " a", "a b", "1 ", " 1", "1 2", "A.a", "aB.a", "ab.A", "A1.a", "a1.A"],
    ...["A.1", "aB.1", "A1.1", "1A.1", "0.A", "01.A", "012.A", "1A.a", "1a.A"],
    ...["A.B.C.D.E", "AA.BB.CC.DD.EE", "a.B.c.d.e", "aa.bB.cc.dd.ee", "a@b", "a,b", a(254)],
  ];
  test("subdomains: the good values", () => {
    for (const v of subdomainGood) assert.deepEqual(dns1123SubdomainErrors(v), [], v);
  });
  test("subdomains: the bad values", () => {
    for (const v of subdomainBad) assert.notDeepEqual(dns1123SubdomainErrors(v), [], JSON.stringify(v));
  });
});
