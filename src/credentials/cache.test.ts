import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { backoffDelay } from "../toolkit/backoff.ts";
import { FakeClock } from "../toolkit/fake-clock.ts";
import { CredentialCache, defaultFailureBackoff } from "./cache.ts";
import { AccessDeniedError } from "./errors.ts";
import type { Credentials } from "./types.ts";

const minute = 60_000;
const context = {
  identity: "AWSRoleIdentity/x",
  hop: 2,
  hops: 2,
  roleARN: "arn:aws:iam::222222222222:role/x",
};

/** A provider that counts calls and hands out credentials valid for `lifetimeMs` from "now". */
function countingProvider(clock: { now(): number }, lifetimeMs = 60 * minute) {
  const state = {
    calls: 0,
    fail: undefined as Error | undefined,
    release: undefined as (() => void) | undefined,
  };
  const provider = async (): Promise<Credentials> => {
    state.calls += 1;
    if (state.fail) throw state.fail;
    return {
      accessKeyId: `AKIA${state.calls}`,
      secretAccessKey: "s",
      expiration: new Date(clock.now() + lifetimeMs),
    };
  };
  return { state, provider };
}

describe("CredentialCache", () => {
  test("concurrent requests for one key share one fetch", async () => {
    const clock = new FakeClock();
    const cache = new CredentialCache({ clock });
    const p = countingProvider(clock);
    const got = await Promise.all(Array.from({ length: 100 }, () => cache.get("k", () => p.provider)));
    assert.equal(p.state.calls, 1);
    assert.ok(got.every((c) => c === got[0]));
  });

  test("credentials are refreshed once, 5 minutes before they expire", async () => {
    const clock = new FakeClock();
    const cache = new CredentialCache({ clock, idleMs: 120 * minute });
    const p = countingProvider(clock);
    await cache.get("k", () => p.provider);
    clock.advance(54 * minute);
    await cache.get("k", () => p.provider);
    assert.equal(p.state.calls, 1, "still more than 5 minutes left");
    clock.advance(2 * minute);
    const refreshed = await Promise.all(Array.from({ length: 50 }, () => cache.get("k", () => p.provider)));
    assert.equal(p.state.calls, 2);
    assert.equal(refreshed[0]?.accessKeyId, "AKIA2");
  });

  test("a failure is remembered with growing backoff, and the next attempt after it succeeds", async () => {
    const clock = new FakeClock();
    const cache = new CredentialCache({ clock, random: () => 0 });
    const p = countingProvider(clock);
    p.state.fail = new AccessDeniedError({ context, summary: "denied", fix: "trust" });
    await assert.rejects(
      cache.get("k", () => p.provider),
      AccessDeniedError,
    );
    await assert.rejects(
      cache.get("k", () => p.provider),
      AccessDeniedError,
    );
    assert.equal(p.state.calls, 1, "remembered: no second call");
    assert.equal(cache.peek("k")?.retryAt, clock.now() + 1000);

    clock.advance(1000);
    await assert.rejects(cache.get("k", () => p.provider));
    assert.equal(p.state.calls, 2);
    assert.equal(cache.peek("k")?.retryAt, clock.now() + 2000, "backoff doubled");

    p.state.fail = undefined;
    clock.advance(1999);
    await assert.rejects(cache.get("k", () => p.provider));
    assert.equal(p.state.calls, 2);
    clock.advance(1);
    assert.equal((await cache.get("k", () => p.provider)).accessKeyId, "AKIA3");
    assert.equal(cache.peek("k")?.failures, 0);
  });

  test("a remembered error carries when the next attempt will be", async () => {
    const clock = new FakeClock();
    const cache = new CredentialCache({ clock, random: () => 0 });
    const p = countingProvider(clock);
    p.state.fail = new AccessDeniedError({ context, summary: "denied", fix: "trust" });
    const err = await cache.get("k", () => p.provider).catch((e: AccessDeniedError) => e);
    assert.equal((err as AccessDeniedError).retryAt, clock.now() + 1000);
  });

  test("remembered failures grow from seconds to minutes and never beyond five", () => {
    const none = () => 0;
    assert.equal(backoffDelay(defaultFailureBackoff, 1, none), 1_000);
    assert.equal(backoffDelay(defaultFailureBackoff, 8, none), 128_000);
    assert.equal(backoffDelay(defaultFailureBackoff, 1_000, none), 300_000);
  });

  test("the backoff is capped, so a failure is never remembered forever", async () => {
    const clock = new FakeClock();
    const cache = new CredentialCache({ clock, random: () => 0 });
    const p = countingProvider(clock);
    p.state.fail = new Error("down");
    for (let i = 0; i < 30; i++) {
      await assert.rejects(cache.get("k", () => p.provider));
      clock.set(cache.peek("k")!.retryAt!);
    }
    await assert.rejects(cache.get("k", () => p.provider));
    assert.ok(cache.peek("k")!.retryAt! - clock.now() <= 5 * minute);
  });

  test("while a refresh fails, the old credentials are served until a minute before expiry", async () => {
    const clock = new FakeClock();
    const cache = new CredentialCache({ clock, random: () => 0, idleMs: 120 * minute });
    const p = countingProvider(clock);
    await cache.get("k", () => p.provider);
    clock.advance(56 * minute);
    p.state.fail = new Error("STS down");
    assert.equal((await cache.get("k", () => p.provider)).accessKeyId, "AKIA1");
    assert.equal(p.state.calls, 2);
    assert.equal((await cache.get("k", () => p.provider)).accessKeyId, "AKIA1", "in backoff: old ones");
    assert.equal(p.state.calls, 2);
    clock.advance(3 * minute + 1);
    await assert.rejects(
      cache.get("k", () => p.provider),
      /STS down/,
    );
  });

  test("the provider is created once per entry and kept between refreshes", async () => {
    const clock = new FakeClock();
    const cache = new CredentialCache({ clock, idleMs: 120 * minute });
    let created = 0;
    const p = countingProvider(clock);
    const create = () => {
      created += 1;
      return p.provider;
    };
    await cache.get("k", create);
    clock.advance(58 * minute);
    await cache.get("k", create);
    assert.equal(created, 1);
    assert.equal(p.state.calls, 2);
  });

  test("idle entries are evicted after the idle time, used ones are kept", async () => {
    const clock = new FakeClock();
    const cache = new CredentialCache({ clock, idleMs: 10 * minute });
    const a = countingProvider(clock, 600 * minute);
    const b = countingProvider(clock, 600 * minute);
    await cache.get("a", () => a.provider);
    await cache.get("b", () => b.provider);
    for (let i = 0; i < 4; i++) {
      clock.advance(4 * minute);
      await cache.get("a", () => a.provider);
    }
    cache.purgeIdle();
    assert.equal(cache.size, 1);
    assert.equal(cache.peek("b"), undefined);
    await cache.get("b", () => b.provider);
    assert.equal(b.state.calls, 2, "an evicted entry starts over");
  });

  test("a miss sweeps idle entries, without an explicit purge", async () => {
    const clock = new FakeClock();
    const cache = new CredentialCache({ clock, idleMs: 10 * minute });
    await cache.get("a", () => countingProvider(clock).provider);
    await cache.get("b", () => countingProvider(clock).provider);
    clock.advance(11 * minute);
    await cache.get("c", () => countingProvider(clock).provider);
    assert.equal(cache.size, 1);
  });

  test("the number of entries is bounded", async () => {
    const clock = new FakeClock();
    const cache = new CredentialCache({ clock, maxEntries: 10 });
    for (let i = 0; i < 25; i++) await cache.get(`k${i}`, () => countingProvider(clock).provider);
    assert.equal(cache.size, 10);
  });

  test("long-lived keys (no expiry) are re-read after the recheck interval", async () => {
    const clock = new FakeClock();
    const cache = new CredentialCache({ clock, recheckMs: 10 * minute });
    let calls = 0;
    const provider = async (): Promise<Credentials> => ({
      accessKeyId: `AKIA${++calls}`,
      secretAccessKey: "s",
    });
    await cache.get("k", () => provider);
    clock.advance(9 * minute);
    await cache.get("k", () => provider);
    clock.advance(2 * minute);
    await cache.get("k", () => provider);
    assert.equal(calls, 2);
  });

  test("invalidate makes the next request fetch, with the same provider", async () => {
    const clock = new FakeClock();
    const cache = new CredentialCache({ clock });
    const p = countingProvider(clock);
    await cache.get("k", () => p.provider);
    cache.invalidate("k");
    assert.equal((await cache.get("k", () => assert.fail("must not recreate"))).accessKeyId, "AKIA2");
  });

  test("a provider that throws synchronously does not leave a stuck fetch behind", async () => {
    const clock = new FakeClock();
    const cache = new CredentialCache({ clock, random: () => 0 });
    let calls = 0;
    const provider = (() => {
      calls += 1;
      throw new Error("boom");
    }) as unknown as () => Promise<Credentials>;
    await assert.rejects(
      cache.get("k", () => provider),
      /boom/,
    );
    assert.equal(cache.peek("k")?.fetching, false);
    clock.advance(1000);
    await assert.rejects(
      cache.get("k", () => provider),
      /boom/,
    );
    assert.equal(calls, 2);
  });
});
