import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { controllerKeyFrom } from "./controller-key.ts";
import {
  type CreateIntent,
  createdSinceAbsent,
  intentSkewMs,
  defaultIntentWindowMs as intentWindowMs,
  pendingCreate,
  recordedIntent,
  sealIntent,
  unfinishedCreate,
} from "./create-intent.ts";
import type { Owner } from "./ownership.ts";

const key = controllerKeyFrom(Buffer.alloc(32, 7));
const otherKey = controllerKeyFrom(Buffer.alloc(32, 8));
const self: Owner = { kind: "Bucket", namespace: "shop", name: "assets", uid: "uid-self" };
const at = { name: "shop-assets", account: "111111111111", region: "us-east-1" };
const requested = Date.parse("2026-11-23T10:00:00.000Z");
const intent: CreateIntent = sealIntent(key, self, at, new Date(requested));

describe("recordedIntent: only an intent this controller's key sealed for this object counts", () => {
  test("the intent the reconciler sealed is read back as it was written", () => {
    assert.deepEqual(recordedIntent({ intent }, key, self), { kind: "verified", intent });
  });

  test("a tenant's forgery, however plausible, is ignored, and says why", () => {
    const { mac: _mac, ...unsealed } = intent;
    const forged: unknown[] = [
      unsealed,
      { ...intent, mac: "" },
      { ...intent, mac: "AAAA" },
      { ...intent, requestedAt: "2026-11-23T09:00:00.000Z" }, // moved to an older object's creation
      { ...intent, name: "someone-elses-bucket" },
      { ...intent, ownerAccountID: "222222222222" },
      sealIntent(otherKey, self, at, new Date(requested)), // another key (a rotated one, or a guess)
    ];
    for (const f of forged) {
      const r = recordedIntent({ intent: f }, key, self);
      assert.equal(r.kind, "ignored", JSON.stringify(f));
      assert.match(r.kind === "ignored" ? r.why : "", /not sealed by this controller's key/);
    }
  });

  test("an intent copied from another object (another uid, name or kind) is ignored", () => {
    for (const owner of [
      { ...self, uid: "uid-other" },
      { ...self, name: "other" },
      { ...self, namespace: "other" },
      { ...self, kind: "Queue" },
    ]) {
      assert.equal(recordedIntent({ intent }, key, owner).kind, "ignored", JSON.stringify(owner));
    }
  });

  test("nothing recorded is none; anything malformed is ignored", () => {
    for (const status of [undefined, null, "x", {}, { intent: null }]) {
      assert.equal(recordedIntent(status, key, self).kind, "none", JSON.stringify(status));
    }
    for (const status of [
      { intent: "create" },
      { intent: { ...intent, action: "delete" } },
      { intent: { ...intent, name: "" } },
      { intent: { ...intent, ownerAccountID: 1 } },
    ]) {
      assert.equal(recordedIntent(status, key, self).kind, "ignored", JSON.stringify(status));
    }
  });
});

describe("unfinishedCreate: an untagged object our own recorded create made", () => {
  const createdAt = (offsetMs: number) => new Date(requested + offsetMs);

  test("created just after the intent, same name, account and region → yes", () => {
    assert.equal(unfinishedCreate(intent, at, createdAt(150)), true);
    assert.equal(unfinishedCreate(intent, at, createdAt(-intentSkewMs)), true, "within clock skew");
    assert.equal(unfinishedCreate(intent, at, createdAt(intentWindowMs)), true, "an answer after a timeout");
  });

  test("an object that existed before the intent was recorded is never ours (no accidental takeover)", () => {
    assert.equal(unfinishedCreate(intent, at, createdAt(-intentSkewMs - 1)), false);
    assert.equal(unfinishedCreate(intent, at, createdAt(-86_400_000)), false);
  });

  test("long after the intent → no; the window is a setting", () => {
    assert.equal(unfinishedCreate(intent, at, createdAt(intentWindowMs + 1)), false);
    assert.equal(unfinishedCreate(intent, at, createdAt(20_001), 20_000), false);
    assert.equal(unfinishedCreate(intent, at, createdAt(20_000), 20_000), true);
  });

  test("another name, account or region, no intent or no creation time → no", () => {
    assert.equal(unfinishedCreate(intent, { ...at, name: "other" }, createdAt(1)), false);
    assert.equal(unfinishedCreate(intent, { ...at, account: "222222222222" }, createdAt(1)), false);
    assert.equal(unfinishedCreate(intent, { ...at, region: "eu-west-1" }, createdAt(1)), false);
    assert.equal(unfinishedCreate(undefined, at, createdAt(1)), false);
    assert.equal(unfinishedCreate(intent, at, undefined), false);
    assert.equal(unfinishedCreate({ ...intent, requestedAt: "yesterday" }, at, createdAt(1)), false);
  });
});

describe("createdSinceAbsent: our own create answered for an object the read before it did not find", () => {
  const t = (offsetMs: number) => new Date(requested + offsetMs);

  test("absent just before the intent, answered just after → made in between: ours, as unfinishedCreate says", () => {
    assert.equal(createdSinceAbsent(intent, at, t(-20), t(150)), true);
    assert.equal(
      createdSinceAbsent(intent, at, t(-intentSkewMs), t(intentWindowMs)),
      true,
      "the window's edges",
    );
    // Whatever the creation time between the two, unfinishedCreate agrees.
    for (const made of [-intentSkewMs, -20, 0, 150, intentWindowMs])
      assert.equal(unfinishedCreate(intent, at, t(made)), true);
  });

  test("a read more than the skew before the intent proves nothing: an older object may be between them", () => {
    assert.equal(createdSinceAbsent(intent, at, t(-intentSkewMs - 1), t(150)), false);
    assert.equal(unfinishedCreate(intent, at, t(-intentSkewMs - 1)), false, "which unfinishedCreate refuses");
  });

  test("an answer after the window, or a read after the answer → no", () => {
    assert.equal(createdSinceAbsent(intent, at, t(-20), t(intentWindowMs + 1)), false);
    assert.equal(createdSinceAbsent(intent, at, t(200), t(150)), false);
  });

  test("another name, account or region, no intent, a malformed one → no", () => {
    assert.equal(createdSinceAbsent(intent, { ...at, name: "other" }, t(-20), t(150)), false);
    assert.equal(createdSinceAbsent(intent, { ...at, account: "222222222222" }, t(-20), t(150)), false);
    assert.equal(createdSinceAbsent(intent, { ...at, region: "eu-west-1" }, t(-20), t(150)), false);
    assert.equal(createdSinceAbsent(undefined, at, t(-20), t(150)), false);
    assert.equal(createdSinceAbsent({ ...intent, requestedAt: "yesterday" }, at, t(-20), t(150)), false);
  });
});

describe("pendingCreate: a create that may still land", () => {
  const t = (offsetMs: number) => new Date(requested + offsetMs);

  test("inside the window: pending until the window closes", () => {
    assert.deepEqual(pendingCreate(intent, at, t(1_000), 20_000), {
      requestedAt: t(0),
      until: t(20_000),
    });
  });

  test("once the window has closed, or for another target or no intent: not pending", () => {
    assert.equal(pendingCreate(intent, at, t(20_000), 20_000), undefined);
    assert.equal(pendingCreate(intent, { ...at, name: "other" }, t(1_000), 20_000), undefined);
    assert.equal(pendingCreate(intent, { ...at, account: "222222222222" }, t(1_000), 20_000), undefined);
    assert.equal(pendingCreate(undefined, at, t(1_000), 20_000), undefined);
  });
});
