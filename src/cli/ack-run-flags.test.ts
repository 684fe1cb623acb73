import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseReconcileResources, parseResourceTagsFlag, parseWatchSelectors } from "./ack-run-flags.ts";

describe("ACK's run flags: --resource-tags, --reconcile-resources, --watch-selectors", () => {
  test("--resource-tags: comma-separated and repeatable, as the chart and ACK pass it", () => {
    const r = parseResourceTagsFlag(["a=1,b=%K8S_NAMESPACE%", "c=3"]);
    assert.deepEqual(r.ok && r.value.tags.map((t) => t.key), ["a", "b", "c"]);
  });

  test("--reconcile-resources: served kinds in any case; none means all; others refused", () => {
    const served = ["Bucket", "Queue", "DBInstance"];
    assert.deepEqual(parseReconcileResources(["bucket,DBINSTANCE", "Bucket"], served), {
      ok: true,
      value: ["Bucket", "DBInstance"],
    });
    assert.deepEqual(parseReconcileResources([], served), { ok: true, value: [] });
    const r = parseReconcileResources(["Bucket,DBCluster"], served);
    assert.equal(r.ok, false);
    assert.match(
      r.ok ? "" : r.message,
      /DBCluster: not a kind this controller serves \(served: Bucket, Queue, DBInstance\)/,
    );
  });

  test("--watch-selectors: equality and set requirements pass as one selector; a typo stops the start", () => {
    assert.deepEqual(parseWatchSelectors(["team=a,tier!=test", "env in (dev, prod),!legacy"]), {
      ok: true,
      value: "team=a,tier!=test,env in (dev, prod),!legacy",
    });
    assert.deepEqual(parseWatchSelectors([""]), { ok: true, value: undefined });
    for (const bad of ["team=a=b", "env in dev", "=a"]) {
      const r = parseWatchSelectors([bad]);
      assert.equal(r.ok, false, bad);
    }
  });
});
