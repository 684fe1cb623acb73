import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type IdentityFacts, identityFinalizer, isProtectedKind, planIdentity } from "./identity-plan.ts";
import type { UserRef } from "./identity-usage.ts";

const t0 = new Date("2025-01-01T00:00:00Z");
const t1 = new Date("2025-01-01T01:00:00Z");
const bucket = (name: string, namespace = "shop"): UserRef => ({ kind: "Bucket", namespace, name });

function facts(patch: Partial<IdentityFacts> = {}): IdentityFacts {
  return {
    kind: "AWSRoleIdentity",
    name: "billing",
    generation: 1,
    deleting: false,
    hasFinalizer: false,
    status: undefined,
    usageCount: 0,
    users: [],
    problem: null,
    ...patch,
  };
}

/** The identity as stored after the plan was carried out (finalizer and status written). */
function applied(f: IdentityFacts, now = t0): IdentityFacts {
  const plan = planIdentity(f, now);
  const hasFinalizer = plan.finalizer === "add" ? true : plan.finalizer === "remove" ? false : f.hasFinalizer;
  return { ...f, hasFinalizer, status: plan.status ?? f.status };
}

const inUse = (plan: ReturnType<typeof planIdentity>) =>
  plan.status?.conditions.find((c) => c.type === "InUse");

describe("identityFinalizer", () => {
  test("the default install's name, and one per other system namespace", () => {
    assert.equal(identityFinalizer(), "identity.crossrole.dev/in-use");
    assert.equal(identityFinalizer("ack-system"), "identity.crossrole.dev/in-use");
    assert.equal(identityFinalizer("team-x-system"), "team-x-system.identity.crossrole.dev/in-use");
  });
});

describe("planIdentity", () => {
  test("in use → add the finalizer, record the count, the users and InUse", () => {
    const plan = planIdentity(facts({ usageCount: 2, users: [bucket("a"), bucket("b")] }), t0);
    assert.equal(plan.finalizer, "add");
    assert.equal(plan.status?.usageCount, 2);
    assert.deepEqual(plan.status?.users, [bucket("a"), bucket("b")]);
    assert.deepEqual(inUse(plan), {
      type: "InUse",
      status: "True",
      reason: "InUse",
      message: "Used by 2 resources: Bucket shop/a, Bucket shop/b; deleting it is blocked until none is left",
      lastTransitionTime: "2025-01-01T00:00:00Z",
      observedGeneration: 1,
    });
    assert.deepEqual(plan.transition, { usageCount: 2, blocked: false });
    assert.equal(plan.blockedEvent, null);
  });

  test("nothing changed → no write, no log line (no per-loop writes)", () => {
    const stored = applied(facts({ usageCount: 1, users: [bucket("a")] }));
    const again = planIdentity(stored, t1);
    assert.deepEqual(again, { finalizer: "none", status: null, blockedEvent: null, transition: null });
  });

  test("not in use → no finalizer (removed if present), InUse False", () => {
    const stored = applied(facts({ usageCount: 1, users: [bucket("a")] }));
    const plan = planIdentity({ ...stored, usageCount: 0, users: [] }, t1);
    assert.equal(plan.finalizer, "remove");
    assert.equal(inUse(plan)?.status, "False");
    assert.equal(inUse(plan)?.reason, "NotInUse");
    assert.equal(inUse(plan)?.lastTransitionTime, "2025-01-01T01:00:00Z");
    assert.deepEqual(plan.status?.users, []);
    assert.deepEqual(plan.transition, { usageCount: 0, blocked: false });
    assert.equal(planIdentity(facts(), t0).finalizer, "none");
  });

  test("deleted while in use → keep the finalizer, InUse DeletionBlocked, one Warning naming users and the fix", () => {
    const stored = applied(facts({ usageCount: 1, users: [bucket("a")] }));
    const plan = planIdentity({ ...stored, deleting: true }, t1);
    assert.equal(plan.finalizer, "none");
    assert.equal(inUse(plan)?.reason, "DeletionBlocked");
    assert.match(
      plan.blockedEvent ?? "",
      /^Deletion blocked: used by 1 resource: Bucket shop\/a\. Delete these resources or point them at another identity first/,
    );
    assert.deepEqual(plan.transition, { usageCount: 1, blocked: true });
    // Stored as blocked: nothing more, not even the Event, until the users change.
    const blocked = { ...stored, deleting: true, status: plan.status ?? undefined };
    assert.deepEqual(planIdentity(blocked, t1), {
      finalizer: "none",
      status: null,
      blockedEvent: null,
      transition: null,
    });
    const more = planIdentity({ ...blocked, usageCount: 2, users: [bucket("a"), bucket("b")] }, t1);
    assert.match(more.blockedEvent ?? "", /Bucket shop\/a, Bucket shop\/b/);
  });

  test("the last user gone while deleting → remove the finalizer; no status write on an object about to vanish", () => {
    const stored = applied({ ...applied(facts({ usageCount: 1, users: [bucket("a")] })), deleting: true });
    const plan = planIdentity({ ...stored, usageCount: 0, users: [] }, t1);
    assert.deepEqual(plan, {
      finalizer: "remove",
      status: null,
      blockedEvent: null,
      transition: { usageCount: 0, blocked: false },
    });
  });

  test("deleted while in use but without our finalizer (cannot be added any more) → not blocked", () => {
    const plan = planIdentity(facts({ deleting: true, usageCount: 1, users: [bucket("a")] }), t0);
    assert.equal(plan.finalizer, "none");
    assert.equal(plan.blockedEvent, null);
    assert.equal(inUse(plan)?.reason, "InUse");
  });

  test("more users than listed: the message says how many more", () => {
    const users = Array.from({ length: 10 }, (_, i) => bucket(`b${i}`));
    const plan = planIdentity(facts({ usageCount: 12, users }), t0);
    assert.match(
      inUse(plan)?.message ?? "",
      /^Used by 12 resources: Bucket shop\/b0, .*Bucket shop\/b9 and 2 more;/,
    );
  });

  test("AWSControllerIdentity is counted but never held back: its absence strands nobody", () => {
    assert.equal(isProtectedKind("AWSControllerIdentity"), false);
    const f = facts({ kind: "AWSControllerIdentity", name: "default", usageCount: 3, users: [bucket("a")] });
    const plan = planIdentity(f, t0);
    assert.equal(plan.finalizer, "none");
    assert.equal(plan.status?.usageCount, 3);
    assert.match(inUse(plan)?.message ?? "", /Its deletion is not blocked/);
    assert.equal(
      planIdentity({ ...f, hasFinalizer: true }, t0).finalizer,
      "remove",
      "a stray finalizer goes",
    );
    assert.equal(planIdentity({ ...f, deleting: true }, t0).blockedEvent, null);
  });

  test("Ready says whether the identity can be used, with the resolver's reason", () => {
    const ready = (p: ReturnType<typeof planIdentity>) =>
      p.status?.conditions.find((c) => c.type === "Ready");
    assert.equal(ready(planIdentity(facts(), t0))?.status, "True");
    const bad = ready(
      planIdentity(
        facts({ problem: "its spec.sourceIdentityRef names AWSRoleIdentity x, which does not exist" }),
        t0,
      ),
    );
    assert.equal(bad?.status, "False");
    assert.equal(bad?.reason, "Invalid");
    assert.match(bad?.message ?? "", /cannot be used: its spec\.sourceIdentityRef names AWSRoleIdentity x/);
  });

  test("a status written by another writer in another key order is still the same", () => {
    const stored = applied(facts({ usageCount: 1, users: [bucket("a")] }));
    const reordered = {
      ...stored,
      status: { ...stored.status, users: [{ name: "a", namespace: "shop", kind: "Bucket" }] },
    };
    assert.equal(planIdentity(reordered, t1).status, null);
  });
});
