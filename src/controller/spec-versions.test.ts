import assert from "node:assert/strict";
import { test } from "node:test";
import type { KubeObject } from "../runtime/kube-object.ts";
import { SpecVersions } from "./spec-versions.ts";

const obj = (resourceVersion: string, generation: number | undefined, uid = "u1"): KubeObject => ({
  metadata: { name: "s", uid, resourceVersion, ...(generation === undefined ? {} : { generation }) },
  spec: { arn: "x" },
});

test("a status-only write (same generation) keeps the spec's resourceVersion", () => {
  const v = new SpecVersions();
  v.observe(obj("10", 1));
  v.observe(obj("11", 1));
  const stable = v.stable(obj("11", 1));
  assert.equal(stable.metadata.resourceVersion, "10");
  assert.deepEqual(stable.spec, { arn: "x" });
});

test("a spec change (new generation) or a re-created object (new uid) starts a new version", () => {
  const v = new SpecVersions();
  v.observe(obj("10", 1));
  v.observe(obj("12", 2));
  assert.equal(v.stable(obj("13", 2)).metadata.resourceVersion, "12");
  v.observe(obj("20", 1, "u2"));
  assert.equal(v.stable(obj("21", 1, "u2")).metadata.resourceVersion, "20");
});

test("unknown objects, objects without a generation and forgotten ones are returned as they are", () => {
  const v = new SpecVersions();
  const o = obj("10", 1);
  assert.equal(v.stable(o), o);
  v.observe(obj("10", undefined));
  assert.equal(v.stable(obj("11", undefined)).metadata.resourceVersion, "11");
  v.observe(o);
  v.forget(o);
  assert.equal(v.stable(obj("11", 1)).metadata.resourceVersion, "11");
});
