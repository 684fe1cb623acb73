import assert from "node:assert/strict";
import { test } from "node:test";
import { allBuckets, bucketCount, bucketOf, bucketSelector, unbucketedSelector } from "./buckets.ts";

test("a namespace's bucket is stable, in range, and the buckets are evenly used", () => {
  assert.equal(bucketOf("team-a"), bucketOf("team-a"));
  const counts = new Map<string, number>();
  for (let i = 0; i < 25_600; i++) {
    const b = bucketOf(`ns-${i}`);
    assert.ok(allBuckets.includes(b), b);
    counts.set(b, (counts.get(b) ?? 0) + 1);
  }
  assert.equal(counts.size, bucketCount);
  for (const [b, n] of counts) assert.ok(n > 50 && n < 150, `bucket ${b} holds ${n} of 25,600`);
});

test("selectors: a set in numeric order, nothing for no bucket, and everything not a bucket", () => {
  assert.equal(bucketSelector(["10", "2", "2"]), "crossrole.dev/shard-bucket in (2,10)");
  assert.equal(bucketSelector([]), "crossrole.dev/shard-bucket in (none)");
  assert.ok(unbucketedSelector.startsWith("crossrole.dev/shard-bucket notin (0,1,2,"));
  assert.ok(unbucketedSelector.endsWith(",255)"));
});
