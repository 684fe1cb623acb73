import assert from "node:assert/strict";
import { test } from "node:test";
import type { SecretField } from "../services/service-module.ts";
import { controllerKeyFrom } from "./controller-key.ts";
import {
  changedSecretPaths,
  foreignSecretRef,
  readSecretInputs,
  type SecretObject,
  secretFingerprint,
} from "./secret-inputs.ts";

const key = controllerKeyFrom(Buffer.alloc(32, 5));
const print = (p: string, value: string) => secretFingerprint(key, "uid-db", p, value);

const path = "spec.masterUserPassword";
const field = (ref: SecretField["ref"]): SecretField[] => [{ path, ref }];
const b64 = (s: string): string => Buffer.from(s, "utf8").toString("base64");

function getter(secrets: Record<string, SecretObject>): {
  get: (ns: string, name: string) => Promise<SecretObject | undefined>;
  asked: string[];
} {
  const asked: string[] = [];
  return {
    asked,
    get: async (ns, name) => {
      asked.push(`${ns}/${name}`);
      return secrets[`${ns}/${name}`];
    },
  };
}

const pw: SecretObject = {
  metadata: { uid: "u1", resourceVersion: "7" },
  data: { password: b64("s3cret!") },
};

test("a reference naming another namespace is Terminal SecretNotPermitted, and nothing is read", async () => {
  const g = getter({ "other/pw": pw });
  const r = await readSecretInputs(
    field({ namespace: "other", name: "pw", key: "password" }),
    "shop",
    "DBInstance",
    undefined,
    g.get,
    print,
  );
  assert.equal(r.ok, false);
  assert.ok(!r.ok);
  assert.equal(r.state.kind, "terminal");
  assert.equal(r.state.reason, "SecretNotPermitted");
  assert.equal(r.retry, "none");
  assert.match(r.state.message, /spec\.masterUserPassword names Secret "pw" in namespace "other"/);
  assert.match(r.state.message, /own namespace \("shop"\)/);
  assert.deepEqual(g.asked, [], "a foreign Secret is never even read");
});

test("a reference naming the resource's own namespace, or none, is read there", async () => {
  for (const namespace of [undefined, "", "shop"]) {
    const g = getter({ "shop/pw": pw });
    const ref =
      namespace === undefined ? { name: "pw", key: "password" } : { namespace, name: "pw", key: "password" };
    const r = await readSecretInputs(field(ref), "shop", "DBInstance", undefined, g.get, print);
    assert.ok(r.ok);
    assert.equal(r.secrets.values.get(path), "s3cret!");
    assert.deepEqual(r.versions, { [path]: print(path, "s3cret!") });
    assert.deepEqual(g.asked, ["shop/pw"]);
    assert.equal(foreignSecretRef(field(ref), "shop", "DBInstance"), undefined);
  }
});

test("a missing Secret or key is Recoverable SecretUnavailable naming the Secret, key and fix, never the value", async () => {
  const missing = await readSecretInputs(
    field({ name: "pw", key: "password" }),
    "shop",
    "DBInstance",
    undefined,
    getter({}).get,
    print,
  );
  assert.ok(!missing.ok);
  assert.equal(missing.state.kind, "recoverable");
  assert.equal(missing.state.reason, "SecretUnavailable");
  assert.equal(missing.retry, "wait");
  assert.match(
    missing.state.message,
    /Secret "shop\/pw" not found; create it in namespace "shop" with key "password"/,
  );

  const noKey = await readSecretInputs(
    field({ name: "pw", key: "pass" }),
    "shop",
    "DBInstance",
    undefined,
    getter({ "shop/pw": pw }).get,
    print,
  );
  assert.ok(!noKey.ok);
  assert.equal(noKey.state.reason, "SecretUnavailable");
  assert.match(noKey.state.message, /has no key "pass" \(it has "password"\)/);
  assert.doesNotMatch(noKey.state.message, /s3cret/);

  const failing = await readSecretInputs(
    field({ name: "pw", key: "password" }),
    "shop",
    "DBInstance",
    undefined,
    () => Promise.reject(new Error("forbidden")),
    print,
  );
  assert.ok(!failing.ok);
  assert.equal(failing.state.reason, "SecretUnavailable");
  assert.match(failing.state.message, /cannot read Secret "shop\/pw": forbidden/);
});

test("changed: a path is set again when its value's fingerprint differs from the recorded one, or none is recorded", () => {
  const versions = { [path]: print(path, "s3cret!") };
  assert.deepEqual(changedSecretPaths(versions, undefined), [path]);
  assert.deepEqual(changedSecretPaths(versions, "forged"), [path]);
  assert.deepEqual(changedSecretPaths(versions, { [path]: print(path, "old") }), [path]);
  assert.deepEqual(changedSecretPaths(versions, { [path]: "u1/7" }), [path], "an older record's form");
  assert.deepEqual(changedSecretPaths(versions, { [path]: print(path, "s3cret!") }), []);
  assert.deepEqual(changedSecretPaths({}, { [path]: "x" }), []);
});

test("another key of the Secret changing, or the Secret rewritten with the same value, is no change", async () => {
  const applied = { [path]: print(path, "s3cret!") };
  const secrets: SecretObject[] = [
    { metadata: { uid: "u1", resourceVersion: "8" }, data: { password: b64("s3cret!"), user: b64("x") } },
    { metadata: { uid: "u2", resourceVersion: "1" }, data: { password: b64("s3cret!") } },
  ];
  for (const secret of secrets) {
    const r = await readSecretInputs(
      field({ name: "pw", key: "password" }),
      "shop",
      "DBInstance",
      applied,
      getter({ "shop/pw": secret }).get,
      print,
    );
    assert.ok(r.ok);
    assert.deepEqual(r.secrets.changed, []);
  }
});

test("the fingerprint never shows the value, and differs per object, field and key", () => {
  const f = print(path, "s3cret!");
  assert.doesNotMatch(f, /s3cret/);
  assert.notEqual(secretFingerprint(key, "uid-other", path, "s3cret!"), f, "another object");
  assert.notEqual(print("spec.other", "s3cret!"), f, "another field");
  assert.notEqual(secretFingerprint(controllerKeyFrom(Buffer.alloc(32, 6)), "uid-db", path, "s3cret!"), f);
});
