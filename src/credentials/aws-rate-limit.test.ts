import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Registry } from "prom-client";
import { FakeClock } from "../toolkit/fake-clock.ts";
import type { ObservableClient } from "./aws-call-observer.ts";
import { withCallSubject } from "./aws-call-subject.ts";
import { AwsRateLimiter } from "./aws-rate-limit.ts";

const limits = {
  default: { ratePerSecond: 4, burst: 2 },
  byService: { rds: { ratePerSecond: 1, burst: 1 } },
};

describe("AwsRateLimiter", () => {
  test("one bucket per service, region and account: a burst in one never slows another", async () => {
    const clock = new FakeClock();
    const limiter = new AwsRateLimiter({ limits, clock, sleep: clock.sleep });
    // The burst of s3 in 111 is spent; the third call waits a quarter second.
    assert.deepEqual(
      [
        await limiter.take("s3", "eu-west-1", "111111111111"),
        await limiter.take("s3", "eu-west-1", "111111111111"),
        await limiter.take("s3", "eu-west-1", "111111111111"),
      ],
      [0, 0, 250],
    );
    // Another account, another region, another service: each its own full bucket.
    assert.equal(await limiter.take("s3", "eu-west-1", "222222222222"), 0);
    assert.equal(await limiter.take("s3", "us-east-1", "111111111111"), 0);
    assert.equal(await limiter.take("sqs", "eu-west-1", "111111111111"), 0);
    assert.equal(limiter.size, 4);
  });

  test("a service's own limit overrides the default", async () => {
    const clock = new FakeClock();
    const limiter = new AwsRateLimiter({ limits, clock, sleep: clock.sleep });
    assert.deepEqual(limiter.limitOf("rds"), { ratePerSecond: 1, burst: 1 });
    assert.deepEqual(limiter.limitOf("s3"), { ratePerSecond: 4, burst: 2 });
    assert.equal(await limiter.take("rds", "eu-west-1", "111111111111"), 0);
    assert.equal(await limiter.take("rds", "eu-west-1", "111111111111"), 1000);
  });

  test("the time calls waited is counted per service and account", async () => {
    const clock = new FakeClock();
    const registry = new Registry();
    const limiter = new AwsRateLimiter({ limits, clock, sleep: clock.sleep, registry });
    for (let i = 0; i < 3; i++) await limiter.take("rds", "eu-west-1", "111111111111");
    // The second and third call each waited a second.
    assert.match(
      await registry.metrics(),
      /crossrole_aws_rate_limit_wait_seconds_total\{service="rds",account="111111111111"\} 2\n/,
    );
  });

  test("the middleware waits in the bucket of the call's subject's account, else the client's credentials", async () => {
    const clock = new FakeClock();
    const limiter = new AwsRateLimiter({ limits, clock, sleep: clock.sleep });
    type Middleware = Parameters<ObservableClient["middlewareStack"]["add"]>[0];
    let middleware: Middleware | undefined;
    const client: ObservableClient = {
      middlewareStack: {
        add(m) {
          middleware = m;
        },
      },
    };
    limiter.limit(client, "rds", "eu-west-1", "chain-key");
    const handler = middleware!(async () => ({ output: { $metadata: {} }, response: {} }), {});
    const subject = (account: string) => ({
      kind: "DBInstance",
      namespace: "shop",
      name: "db",
      account,
      roleARN: null,
      identity: null,
    });
    await withCallSubject(subject("111111111111"), () => handler({ input: {} }));
    await withCallSubject(subject("222222222222"), () => handler({ input: {} }));
    await handler({ input: {} });
    assert.deepEqual(clock.slept, [], "three buckets, each with a token");
    await withCallSubject(subject("111111111111"), () => handler({ input: {} }));
    assert.deepEqual(clock.slept, [1000], "the second call in 111111111111 waits for its bucket");
  });
});
