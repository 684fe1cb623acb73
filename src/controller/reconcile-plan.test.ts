import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Decision } from "../resolver/types.ts";
import type { Ownership } from "./ownership.ts";
import {
  checkAccount,
  checkRegion,
  type Found,
  planAfterCreate,
  planDelete,
  planFinalize,
  planSync,
  type SyncPlan,
  type Target,
} from "./reconcile-plan.ts";

const target: Target = {
  noun: "Bucket",
  name: "shop-assets",
  account: "111111111111",
  region: "us-east-1",
  nameField: "spec.name",
};
const missing: Found = { found: false };
const elsewhere: Found = {
  found: false,
  heldElsewhere: 'bucket name "shop-assets" is owned by another AWS account',
};
const found = (ownership: Ownership, unfinishedCreate = false): Found => ({
  found: true,
  ownership,
  unfinishedCreate,
});
const ours = found({ kind: "ours" });
const untagged = found({ kind: "untagged" });
const earlier = found({ kind: "earlier", uid: "uid-old" });
const other = found({ kind: "other", owner: "Bucket/team-b/assets", uid: "uid-b" });

function sync(f: Found, o: { readOnly?: boolean; adoption?: "adopt" | "adopt-or-create" } = {}): SyncPlan {
  return planSync({ found: f, readOnly: o.readOnly ?? false, adoptionPolicy: o.adoption ?? null, target });
}

function failure(plan: SyncPlan) {
  assert.equal(plan.do, "fail", JSON.stringify(plan));
  return (plan as Extract<SyncPlan, { do: "fail" }>).state;
}

describe("planSync: what to do once AWS has answered", () => {
  test("nothing there → create; read-only or adopt → NotFound, nothing created", () => {
    assert.deepEqual(sync(missing), { do: "create" });
    assert.deepEqual(sync(missing, { adoption: "adopt-or-create" }), { do: "create" });
    for (const o of [{ readOnly: true }, { adoption: "adopt" as const }]) {
      const state = failure(sync(missing, o));
      assert.equal(state.kind, "recoverable");
      assert.equal(state.reason, "NotFound");
      assert.match(
        state.message,
        /^Bucket "shop-assets" does not exist in account 111111111111 \(us-east-1\)/,
      );
    }
  });

  test("the name is another account's → NameTaken, whatever the adoption policy; nothing created", () => {
    for (const o of [
      {},
      { adoption: "adopt" as const },
      { adoption: "adopt-or-create" as const },
      { readOnly: true },
    ]) {
      const state = failure(sync(elsewhere, o));
      assert.equal(state.kind, "terminal");
      assert.equal(state.reason, "NameTaken");
      assert.match(state.message, /cannot be used from account 111111111111: .*another AWS account/);
      assert.match(state.message, /choose another spec\.name$/);
    }
  });

  test("messages name the kind as users write it, never re-capitalised", () => {
    const db: Target = {
      ...target,
      noun: "DBInstance",
      name: "shop-db",
      nameField: "spec.dbInstanceIdentifier",
    };
    const plan = (f: Found, o: { readOnly?: boolean } = {}) =>
      planSync({ found: f, readOnly: o.readOnly ?? false, adoptionPolicy: null, target: db });
    assert.match(
      failure(plan(untagged)).message,
      /^DBInstance "shop-db" in account 111111111111 .*already exists/,
    );
    assert.match(failure(plan(other)).message, /^DBInstance "shop-db" in account 111111111111 .*is owned by/);
    assert.match(failure(plan(missing, { readOnly: true })).message, /^DBInstance "shop-db" does not exist/);
    assert.match(failure(plan(elsewhere)).message, /^DBInstance "shop-db" cannot be used/);
  });

  test("ours → update", () => {
    assert.deepEqual(sync(ours), { do: "update" });
    assert.deepEqual(sync(ours, { adoption: "adopt" }), { do: "update" }, "adopted once, ours since");
  });

  test("another object's → NameTaken (terminal) naming the owner, whatever the adoption policy", () => {
    for (const adoption of [undefined, "adopt", "adopt-or-create"] as const) {
      const state = failure(sync(other, adoption ? { adoption } : {}));
      assert.equal(state.kind, "terminal");
      assert.equal(state.reason, "NameTaken");
      assert.match(state.message, /is owned by Bucket\/team-b\/assets \(uid uid-b\)/);
      assert.match(state.message, /choose another spec\.name/);
    }
  });

  test("untagged or an earlier object's, without an adoption policy → AlreadyExists (terminal) saying how to adopt", () => {
    for (const f of [untagged, earlier]) {
      const state = failure(sync(f));
      assert.equal(state.kind, "terminal");
      assert.equal(state.reason, "AlreadyExists");
      assert.match(state.message, /services\.k8s\.aws\/adoption-policy: adopt .* or adopt-or-create/);
    }
    assert.match(failure(sync(earlier)).message, /earlier object of the same name \(uid uid-old\)/);
  });

  test("untagged or earlier, with an adoption policy → adopt (strict only for adopt)", () => {
    assert.deepEqual(sync(untagged, { adoption: "adopt" }), { do: "adopt", strict: true });
    assert.deepEqual(sync(earlier, { adoption: "adopt-or-create" }), { do: "adopt", strict: false });
  });

  test("untagged but made by our own recorded create → finish it, no adoption needed", () => {
    assert.deepEqual(sync(found({ kind: "untagged" }, true)), { do: "finishCreate" });
  });

  test("read-only observes what no other object owns, and never writes", () => {
    for (const f of [ours, untagged, earlier])
      assert.deepEqual(sync(f, { readOnly: true }), { do: "observe" });
  });

  test("read-only on another object's → NameTaken: reading it would copy another tenant's object into status", () => {
    const state = failure(sync(other, { readOnly: true }));
    assert.equal(state.kind, "terminal");
    assert.equal(state.reason, "NameTaken");
    assert.match(state.message, /is owned by Bucket\/team-b\/assets \(uid uid-b\)/);
    assert.match(state.message, /a read-only resource reads only what no other Kubernetes object owns/);
  });

  const pending = {
    requestedAt: new Date("2026-11-24T10:00:00.000Z"),
    until: new Date("2026-11-24T10:10:00.000Z"),
  };

  test("nothing there while our own create may still land → wait for it, never a second create", () => {
    const plan = planSync({ found: missing, readOnly: false, adoptionPolicy: null, target, pending });
    assert.equal(plan.do, "awaitCreate");
    assert.ok(plan.do === "awaitCreate");
    assert.deepEqual(plan.until, pending.until);
    assert.equal(plan.state.kind, "progressing");
    assert.equal(plan.state.reason, "CreatePending");
    assert.match(plan.state.message, /requested at 2026-11-24T10:00:00.000Z/);
    assert.match(plan.state.message, /until 2026-11-24T10:10:00.000Z/);
  });

  test("found, whatever is pending → judged by its tags as ever", () => {
    assert.deepEqual(planSync({ found: ours, readOnly: false, adoptionPolicy: null, target, pending }), {
      do: "update",
    });
  });

  test("an intent that did not count is named in AlreadyExists, so a tenant's forgery is visible", () => {
    const plan = planSync({
      found: untagged,
      readOnly: false,
      adoptionPolicy: null,
      target,
      ignoredIntent: "status.intent is not sealed by this controller's key",
    });
    assert.match(
      failure(plan).message,
      /\(status\.intent is not sealed by this controller's key: it was ignored\)$/,
    );
  });
});

describe("planAfterCreate: after our own create call, only our object may be written", () => {
  test("ours, or our unfinished create → go on", () => {
    assert.deepEqual(planAfterCreate(ours, target), { do: "update" });
    assert.deepEqual(planAfterCreate(found({ kind: "untagged" }, true), target), {
      do: "finishCreate",
      justCreated: true,
    });
  });

  test("untagged and older than our intent (us-east-1's 200 for an existing bucket) → AlreadyExists", () => {
    assert.equal(failure(planAfterCreate(untagged, target)).reason, "AlreadyExists");
  });

  test("someone else's → NameTaken", () => {
    assert.equal(failure(planAfterCreate(other, target)).reason, "NameTaken");
  });
});

const use = (patch: Partial<Decision> = {}): Decision => ({
  outcome: "use",
  source: "accountCARM",
  reason: "Selected",
  roleARN: "arn:aws:iam::111111111111:role/x",
  account: "111111111111",
  region: "us-east-1",
  endpoint: null,
  selector: null,
  chain: [],
  message: "ok",
  trace: [],
  warnings: [],
  drift: null,
  ...patch,
});
const refused = (outcome: "wait" | "deny" | "conflict"): Decision =>
  use({
    outcome,
    reason: outcome === "wait" ? "IdentityUnavailable" : "IdentityNotPermitted",
    message: `it is ${outcome}`,
  });
const policies = (p: { readOnly?: boolean; retain?: boolean } = {}) => ({
  readOnly: p.readOnly ?? false,
  deletionPolicy: p.retain ? ("retain" as const) : ("delete" as const),
  deletionPolicySource: p.retain ? "annotation services.k8s.aws/deletion-policy" : "--deletion-policy",
});

describe("planFinalize: may a deletion touch AWS?", () => {
  test("read-only and retain release at once, even when no identity is usable", () => {
    for (const decision of [use(), refused("wait"), refused("deny")]) {
      assert.deepEqual(planFinalize(policies({ readOnly: true }), decision), {
        do: "release",
        why: "it is read-only",
      });
      assert.deepEqual(planFinalize(policies({ retain: true }), decision), {
        do: "release",
        why: "the deletion policy is retain (annotation services.k8s.aws/deletion-policy)",
      });
    }
  });

  test("a decision that is not a clean use blocks, says how to let the object go, and only wait requeues", () => {
    const wait = planFinalize(policies(), refused("wait"));
    assert.equal(wait.do, "blocked");
    if (wait.do !== "blocked") return;
    assert.equal(wait.requeue, true);
    assert.match(wait.state.message, /^Deletion blocked: it is wait\. .*deletion-policy: retain/);
    const deny = planFinalize(policies(), refused("deny"));
    assert.equal(deny.do === "blocked" && deny.requeue, false);
    const drift = planFinalize(policies(), use({ drift: { kind: "account", message: "moved" } }));
    assert.equal(drift.do === "blocked" && drift.state.kind, "terminal");
  });

  test("a clean use → look it up and delete it if ours", () => {
    assert.deepEqual(planFinalize(policies(), use()), { do: "delete" });
  });
});

describe("planDelete: only what this object owns is deleted", () => {
  test("ours, or our own unfinished create → delete", () => {
    assert.deepEqual(planDelete(ours, target), { do: "delete" });
    assert.deepEqual(planDelete(found({ kind: "untagged" }, true), target), { do: "delete" });
  });

  test("nothing there → gone (never created, or already deleted)", () => {
    assert.deepEqual(planDelete(missing, target), { do: "gone" });
  });

  test("nothing there yet while our own create may still land → hold the object, saying until when", () => {
    const pending = {
      requestedAt: new Date("2026-11-24T10:00:00.000Z"),
      until: new Date("2026-11-24T10:10:00.000Z"),
    };
    const plan = planDelete(missing, target, pending);
    assert.equal(plan.do, "await");
    assert.ok(plan.do === "await");
    assert.equal(plan.state.reason, "DeletePending");
    assert.match(plan.state.message, /may still land until 2026-11-24T10:10:00.000Z/);
    assert.deepEqual(planDelete(ours, target, pending), { do: "delete" }, "found: deleted at once");
  });

  test("the name is another account's → keep (nothing of ours to delete), saying so", () => {
    const keep = planDelete(elsewhere, target);
    assert.ok(keep.do === "keep" && /nothing of account 111111111111 is there/.test(keep.why));
  });

  test("untagged, an earlier object's or another object's → keep, saying whose", () => {
    for (const f of [untagged, earlier, other]) assert.equal(planDelete(f, target).do, "keep");
    const keep = planDelete(other, target);
    assert.ok(keep.do === "keep" && /owned by Bucket\/team-b\/assets/.test(keep.why));
  });
});

describe("checkAccount: a recorded account may stop a reconcile, never steer it", () => {
  const recorded = { ownerAccountID: "222222222222", arn: "arn:aws:s3:::shop-assets" };

  test("nothing recorded, or the same account → proceed", () => {
    assert.deepEqual(checkAccount(undefined, "111111111111", "block", false), { do: "proceed" });
    assert.deepEqual(checkAccount({ ownerAccountID: "" }, "111111111111", "block", false), { do: "proceed" });
    assert.deepEqual(checkAccount({ ownerAccountID: "111111111111" }, "111111111111", "block", true), {
      do: "proceed",
    });
  });

  test("another account with block → AccountDrift with ACK's message", () => {
    const r = checkAccount(recorded, "111111111111", "block", false);
    assert.deepEqual(r, {
      do: "block",
      state: {
        kind: "terminal",
        reason: "AccountDrift",
        message:
          "Resource already exists in account 222222222222, but the role used for reconciliation is in account 111111111111",
      },
    });
  });

  test("another account with recreate → follow the decided account, the old ARN in the Event", () => {
    const r = checkAccount(recorded, "111111111111", "recreate", false);
    assert.equal(r.do, "follow");
    assert.ok(
      r.do === "follow" &&
        r.event.includes("arn:aws:s3:::shop-assets in account 222222222222 is not deleted"),
    );
  });

  test("deleting: another account always blocks, whatever the policy", () => {
    for (const policy of ["block", "recreate"] as const) {
      const r = checkAccount(recorded, "111111111111", policy, true);
      assert.ok(
        r.do === "block" &&
          r.state.message.startsWith("Deletion blocked: Resource already exists in account 222222222222"),
      );
    }
  });
});

describe("checkRegion", () => {
  test("same or unknown → fine; another → RegionDrift with ACK's message", () => {
    assert.equal(checkRegion("us-east-1", "us-east-1"), null);
    assert.equal(checkRegion(undefined, "us-east-1"), null);
    assert.deepEqual(checkRegion("eu-west-1", "us-east-1"), {
      kind: "terminal",
      reason: "RegionDrift",
      message:
        "Resource already exists in region eu-west-1, but the desired state specifies region us-east-1",
    });
  });
});
