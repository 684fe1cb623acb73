import assert from "node:assert/strict";
import { test } from "node:test";
import { parseServiceRateLimits } from "./aws-rate-limit-flag.ts";

test("--aws-api-rate-limit: service=qps:burst per value", () => {
  assert.deepEqual(parseServiceRateLimits(["rds=10:100", "s3=2.5:20"]), {
    ok: true,
    value: { rds: { ratePerSecond: 10, burst: 100 }, s3: { ratePerSecond: 2.5, burst: 20 } },
  });
  assert.deepEqual(parseServiceRateLimits([]), { ok: true, value: {} });
});

test("--aws-api-rate-limit: a value that does not parse names itself and the form", () => {
  const bad = parseServiceRateLimits(["rds=10"]);
  assert.equal(bad.ok, false);
  assert.match(
    bad.ok ? "" : bad.error,
    /"rds=10": write <service>=<calls per second>:<burst>, e\.g\. rds=10:100/,
  );
  const zero = parseServiceRateLimits(["rds=0:10"]);
  assert.match(zero.ok ? "" : zero.error, /the rate must be above 0/);
});
