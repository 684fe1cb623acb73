import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { namespace, role, selector, settingsWith } from "../../test/support/resolver-fixtures.ts";
import { resolve } from "../resolver/resolve.ts";
import { buildSnapshot } from "../resolver/snapshot.ts";
import type { ResourceObject } from "../resolver/types.ts";
import { MatchIndex, selectorOf } from "./selector-matches.ts";

describe("selectorOf: the selector a decision acts through", () => {
  const settings = settingsWith({ enableCARM: false, gates: { IAMRoleSelector: true } });
  const bucket = (ns: string, annotations: Record<string, string> = {}): ResourceObject => ({
    apiVersion: "s3.services.k8s.aws/v1alpha1",
    kind: "Bucket",
    metadata: { name: "b", namespace: ns, annotations },
  });
  const snapshot = buildSnapshot(
    {
      namespaces: [namespace("dev"), namespace("both"), namespace("none")],
      iamRoleSelectors: [
        selector("dev", { arn: role("111111111111"), namespaceSelector: { names: ["dev", "both"] } }),
        selector("other", { arn: role("222222222222"), namespaceSelector: { names: ["both"] } }),
      ],
    },
    settings,
  );
  const of = (r: ResourceObject) => selectorOf(resolve(r, r.metadata.namespace!, snapshot, settings));

  test("one matching selector: that one", () => assert.equal(of(bucket("dev")), "dev"));
  test("no selector: the default identity, none", () => assert.equal(of(bucket("none")), null));
  test("a conflict decides nothing under any of them", () => assert.equal(of(bucket("both")), null));
  test("the annotation picks one of the matching selectors", () =>
    assert.equal(of(bucket("both", { "services.k8s.aws/iam-role-selector": "other" })), "other"));
});

describe("MatchIndex", () => {
  test("counts per selector and says which counts changed", () => {
    const index = new MatchIndex();
    assert.deepEqual(index.set("Bucket/a/x", "s"), ["s"]);
    assert.deepEqual(index.set("Bucket/a/y", "s"), ["s"]);
    assert.deepEqual(index.set("Bucket/a/y", "s"), []);
    assert.equal(index.count("s"), 2);
    assert.deepEqual(index.set("Bucket/a/y", "t"), ["s", "t"]);
    assert.deepEqual([index.count("s"), index.count("t")], [1, 1]);
    assert.deepEqual(index.set("Bucket/a/x", null), ["s"]);
    assert.equal(index.count("s"), 0);
    assert.deepEqual(index.set("Bucket/a/x", null), []);
  });

  test("replaceAll reports only the selectors whose count moved, and forgets what is gone", () => {
    const index = new MatchIndex();
    index.replaceAll([
      { resource: "1", selector: "s" },
      { resource: "2", selector: "t" },
    ]);
    // 1 moves s → t and 2 moves t → s: both counts stay 1, nothing to write.
    assert.deepEqual(
      index.replaceAll([
        { resource: "1", selector: "t" },
        { resource: "2", selector: "s" },
      ]),
      [],
    );
    assert.deepEqual(index.replaceAll([{ resource: "1", selector: "t" }]), ["s"]);
    assert.deepEqual([index.count("s"), index.count("t")], [0, 1]);
  });
});
