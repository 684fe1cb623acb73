import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { FakeClock } from "../toolkit/fake-clock.ts";
import { ConnectionHealth, type ConnectionHealthState } from "./connection-health.ts";

function harness(unhealthyAfterMs?: number) {
  const clock = new FakeClock();
  const changes: ConnectionHealthState[] = [];
  const health = new ConnectionHealth({ clock, unhealthyAfterMs, onChange: (s) => changes.push(s) });
  return { clock, changes, health, t0: clock.now() };
}

const refused = new Error("connect ECONNREFUSED 127.0.0.1:6443");
const reset = new Error("read ECONNRESET");

describe("ConnectionHealth (grace period, with a manual clock)", () => {
  test("starts healthy, with no timer pending", () => {
    const { clock, health, changes } = harness();
    assert.deepEqual(health.state(), { healthy: true, failingSince: undefined, lastError: undefined });
    assert.equal(clock.pendingTimers(), 0);
    assert.deepEqual(changes, []);
  });

  test("failures shorter than the grace period (a routine reconnect) never flip it", () => {
    const { clock, health, changes, t0 } = harness();
    health.failed(reset);
    assert.equal(health.healthy, true);
    assert.deepEqual(health.state(), { healthy: true, failingSince: t0, lastError: "read ECONNRESET" });
    clock.advance(800);
    health.failed(refused);
    clock.advance(4_000); // 4.8 s after the first failure
    health.succeeded();
    assert.equal(clock.pendingTimers(), 0, "the success cancelled the grace timer");
    clock.advance(60_000);
    assert.equal(health.healthy, true);
    assert.deepEqual(changes, [], "no flip, no notification");
    assert.deepEqual(health.state(), { healthy: true, failingSince: undefined, lastError: undefined });
  });

  test("flips to unhealthy exactly when the grace period after the first failure ends, once", () => {
    const { clock, health, changes, t0 } = harness();
    health.failed(reset);
    clock.advance(1_000);
    health.failed(refused);
    clock.advance(3_999);
    assert.equal(health.healthy, true, "4.999 s after the first failure: still healthy");
    clock.advance(1);
    assert.equal(health.healthy, false, "5 s after: unhealthy, although no new attempt was made");
    assert.deepEqual(changes, [{ healthy: false, failingSince: t0, lastError: refused.message }]);
    for (let i = 0; i < 5; i++) {
      clock.advance(10_000);
      health.failed(new Error(`attempt ${i}`));
    }
    assert.equal(changes.length, 1, "further failures do not notify again");
    assert.deepEqual(health.state(), { healthy: false, failingSince: t0, lastError: "attempt 4" });
  });

  test("the next success flips it back at once; a later outage starts a new grace period", () => {
    const { clock, health, changes } = harness(2_000);
    health.failed(refused);
    clock.advance(2_000);
    assert.equal(health.healthy, false);
    health.succeeded();
    assert.equal(health.healthy, true);
    assert.deepEqual(changes.at(-1), { healthy: true, failingSince: undefined, lastError: undefined });
    assert.equal(changes.length, 2);
    health.succeeded();
    assert.equal(changes.length, 2, "a success while healthy notifies nobody");

    clock.advance(30_000);
    const t1 = clock.now();
    health.failed(reset);
    clock.advance(1_999);
    assert.equal(health.healthy, true, "the grace period counts from the new first failure");
    clock.advance(1);
    assert.equal(health.healthy, false);
    assert.deepEqual(changes.at(-1), { healthy: false, failingSince: t1, lastError: reset.message });
    assert.equal(changes.length, 3);
  });

  test("with a zero grace period the first failure flips it", () => {
    const clock = new FakeClock();
    const changes: boolean[] = [];
    const health = new ConnectionHealth({
      clock,
      unhealthyAfterMs: 0,
      onChange: (s) => changes.push(s.healthy),
    });
    health.failed(refused);
    assert.equal(health.healthy, false);
    assert.equal(clock.pendingTimers(), 0);
    assert.deepEqual(changes, [false]);
  });

  test("stop() drops the grace timer and leaves the state as it is", () => {
    const { clock, health, changes } = harness();
    health.failed(refused);
    health.stop();
    assert.equal(clock.pendingTimers(), 0);
    clock.advance(60_000);
    assert.equal(health.healthy, true);
    assert.deepEqual(changes, []);
  });

  test("non-Error failures are recorded as text", () => {
    const { health } = harness();
    health.failed("socket hang up");
    assert.equal(health.state().lastError, "socket hang up");
  });
});
