import assert from "node:assert/strict";
import { test } from "node:test";
import type { KubeObject } from "../runtime/kube-object.ts";
import { SelfWrites } from "./self-writes.ts";

const at = (rv: string): KubeObject => ({ metadata: { name: "b", namespace: "n", resourceVersion: rv } });

test("an update carrying a resourceVersion our write produced is an echo, once; any other is not", () => {
  const w = new SelfWrites();
  w.record("n/b", at("11"));
  w.record("n/b", at("12"));
  assert.equal(w.isEcho("n/b", at("10")), false, "someone else's write");
  assert.equal(w.isEcho("n/b", at("11")), true);
  assert.equal(w.isEcho("n/b", at("11")), false, "each echo counts once");
  assert.equal(w.isEcho("n/b", at("13")), false, "a later write by someone else");
  assert.equal(w.isEcho("n/b", at("12")), true);
  assert.equal(w.size, 0, "nothing kept once every echo arrived");
  assert.equal(w.isEcho("other/b", at("12")), false, "per object");
});

test("each echo is recognised on its own, in any order; memory stays bounded", () => {
  const w = new SelfWrites();
  for (let i = 1; i <= 20; i++) w.record("n/b", at(String(i)));
  assert.equal(w.isEcho("n/b", at("5")), false, "only the last writes are kept");
  assert.equal(w.isEcho("n/b", at("15")), true);
  assert.equal(w.isEcho("n/b", at("14")), true, "an older echo checked after a newer one");
  assert.equal(w.isEcho("n/b", at("20")), true);
  w.record("n/b", at("21"));
  w.forget("n/b");
  assert.equal(w.isEcho("n/b", at("21")), false);
});

test("awaitingEcho: true from our write until its echo has come back, per object", () => {
  const w = new SelfWrites();
  assert.equal(w.awaitingEcho("n/b"), false, "nothing written yet");
  w.record("n/b", at("21"));
  assert.equal(w.awaitingEcho("n/b"), true);
  assert.equal(w.awaitingEcho("other/b"), false);
  assert.equal(w.isEcho("n/b", at("21")), true);
  assert.equal(w.awaitingEcho("n/b"), false, "the cache now holds our write");
});
