// The decisions inside a reconcile, as pure functions of what was read: what to do once AWS
// has answered (create, update, adopt, finish an interrupted create, only observe, or refuse),
// whether a deletion may touch AWS, and whether the account drifted. The reconciler does the
// I/O around them; these carry the safety rules (DESIGN §3.4–3.5) and are unit-tested alone.
import { type AdoptionPolicy, type DeletionPolicy, resourceAnnotations } from "../api/annotations.ts";
import type { Decision } from "../resolver/types.ts";
import { type FailureState, type SyncState, syncStateForDecision } from "./ack-conditions.ts";
import type { AckMade } from "./ack-takeover.ts";
import { describeOwnership, type Ownership } from "./ownership.ts";

/** The AWS object a reconcile is about, for messages: `Bucket "x" in account 1111… (us-east-1)`. */
export interface Target {
  /** The kind as users write it ("Bucket", "DBInstance"): messages start with it. */
  readonly noun: string;
  readonly name: string;
  readonly account: string;
  readonly region: string;
  /** The spec field holding the name, e.g. "spec.name". */
  readonly nameField: string;
}

export const describeTarget = (t: Target): string =>
  `${t.noun} "${t.name}" in account ${t.account} (${t.region})`;

/** What AWS had when it was read, judged. */
export type Found =
  /** Nothing of this account's; `heldElsewhere`: the name is another account's (global names). */
  | { readonly found: false; readonly heldElsewhere?: string }
  | {
      readonly found: true;
      readonly ownership: Ownership;
      /** Untagged, but this object's own recorded create made it (ownership.ts, unfinishedCreate). */
      readonly unfinishedCreate: boolean;
      /** Untagged by crossrole, but ACK made it (ack-takeover.ts). */
      readonly ack?: AckMade;
    };

export type SyncPlan =
  | { readonly do: "create" }
  /** Ours: correct drift. */
  | { readonly do: "update" }
  /** Read-only: read and report, never write. */
  | { readonly do: "observe" }
  /**
   * Our own create, untagged: interrupted before its tags were written, or (`justCreated`) made
   * a moment ago by a create call that did not apply the tags it carried. Tag it, then update.
   */
  | { readonly do: "finishCreate"; readonly justCreated?: boolean }
  /**
   * An untagged object (or one an earlier object of this name left): tag it; strict = spec
   * becomes AWS's. `takeover`: ACK made it and an administrator approved its takeover.
   */
  | { readonly do: "adopt"; readonly strict: boolean; readonly takeover?: AckMade }
  /** Nothing found, but this object's own create may still land: no second create; look again. */
  | { readonly do: "awaitCreate"; readonly state: ProgressState; readonly until: Date }
  | { readonly do: "fail"; readonly state: FailureState };

/** A reconcile that is on its way, not failing: what status says meanwhile. */
export type ProgressState = Extract<SyncState, { readonly kind: "progressing" }>;

/** This object's own create, recorded and sealed, that may still land (create-intent.ts, pendingCreate). */
export interface PendingCreate {
  readonly requestedAt: Date;
  readonly until: Date;
}

export interface SyncInput {
  readonly found: Found;
  readonly readOnly: boolean;
  readonly adoptionPolicy: AdoptionPolicy | null;
  readonly target: Target;
  /** This object's own create that may still land: then nothing found is no reason to create. */
  readonly pending?: PendingCreate | undefined;
  /** Why status.intent was not taken as this object's own (create-intent.ts), for messages. */
  readonly ignoredIntent?: string | undefined;
  /** The object has no spec, only adoption fields naming the AWS object (adoption-seed.ts). */
  readonly seeded?: boolean;
}

export function planSync(i: SyncInput): SyncPlan {
  const what = describeTarget(i.target);
  if (!i.found.found) {
    if (i.found.heldElsewhere !== undefined) {
      return fail(
        "terminal",
        "NameTaken",
        `${i.target.noun} "${i.target.name}" cannot be used from account ${i.target.account}: ${i.found.heldElsewhere}; crossrole never touches another account's resource: choose another ${i.target.nameField}`,
      );
    }
    if (i.readOnly || i.adoptionPolicy === "adopt") {
      const why = i.readOnly
        ? `it is read-only (${resourceAnnotations.readOnly})`
        : i.seeded
          ? `this object has no spec, only ${resourceAnnotations.adoptionFields} naming what to adopt`
          : `its adoption policy is adopt (${resourceAnnotations.adoptionPolicy})`;
      return fail(
        "recoverable",
        "NotFound",
        `${i.target.noun} "${i.target.name}" does not exist in account ${i.target.account} (${i.target.region}), and crossrole will not create it because ${why}`,
      );
    }
    if (i.pending) {
      return {
        do: "awaitCreate",
        until: i.pending.until,
        state: {
          kind: "progressing",
          reason: "CreatePending",
          message: `Waiting for the create of ${what} requested at ${i.pending.requestedAt.toISOString()}: AWS did not say whether it was made, so it is not sent again; looking for it until ${i.pending.until.toISOString()}, then creating it again if it has not appeared`,
        },
      };
    }
    return { do: "create" };
  }
  const o = i.found.ownership;
  if (i.readOnly) {
    // Reading is not harmless: status would copy another owner's policy, attributes and
    // endpoint into this namespace. The same rule as for writing.
    if (o.kind !== "other") return { do: "observe" };
    return fail(
      "terminal",
      "NameTaken",
      `${what} is ${describeOwnership(o)}; a read-only resource reads only what no other Kubernetes object owns (untagged, or its own): choose another ${i.target.nameField}`,
    );
  }
  switch (o.kind) {
    case "ours":
      return { do: "update" };
    case "other":
      return fail(
        "terminal",
        "NameTaken",
        `${what} is ${describeOwnership(o)}; crossrole never updates, adopts or deletes another object's AWS resource: choose another ${i.target.nameField}`,
      );
    case "untagged":
    case "earlier": {
      if (o.kind === "untagged" && i.found.unfinishedCreate) return { do: "finishCreate" };
      const ack = i.found.ack;
      // What ACK made for another namespace is that namespace's: never adopted from here.
      if (ack?.forOtherNamespace)
        return fail(
          "terminal",
          "NameTaken",
          `${what} is not crossrole's: ${ack.why}; choose another ${i.target.nameField}`,
        );
      if (i.adoptionPolicy !== null) return { do: "adopt", strict: i.adoptionPolicy === "adopt" };
      if (ack?.approved) return { do: "adopt", strict: false, takeover: ack };
      if (ack)
        return fail(
          "terminal",
          "TakeoverNotApproved",
          `${what} is not crossrole's yet: ${ack.why}. Nothing was changed in AWS`,
        );
      return fail(
        "terminal",
        "AlreadyExists",
        `${what} already exists and is ${describeOwnership(o)}; to take it over set the annotation ${resourceAnnotations.adoptionPolicy}: adopt (import it as it is) or adopt-or-create (make it match this spec); otherwise choose another ${i.target.nameField}${i.ignoredIntent ? `. (${i.ignoredIntent}: it was ignored)` : ""}`,
      );
    }
  }
}

/**
 * After our own create call the object must be ours: tagged (or an untagged one our recorded
 * intent made). Anything else means the name was taken between the read and the create.
 */
export function planAfterCreate(found: Found, target: Target): SyncPlan {
  if (!found.found) return { do: "create" };
  if (found.ownership.kind === "ours") return { do: "update" };
  if (found.ownership.kind === "untagged" && found.unfinishedCreate)
    return { do: "finishCreate", justCreated: true };
  return planSync({ found, readOnly: false, adoptionPolicy: null, target });
}

export type FinalizePlan =
  /** Leave AWS alone and release the resource (read-only, retain). */
  | { readonly do: "release"; readonly why: string }
  /** The decision does not allow any AWS call: say why, and wait. */
  | { readonly do: "blocked"; readonly state: FailureState; readonly requeue: boolean }
  /** Look the object up in the decided account and delete it if it is ours. */
  | { readonly do: "delete" };

export function planFinalize(
  policies: {
    readonly readOnly: boolean;
    readonly deletionPolicy: DeletionPolicy;
    readonly deletionPolicySource: string;
  },
  decision: Decision,
): FinalizePlan {
  // Neither needs an identity: a resource whose identity or map vanished can still go.
  if (policies.readOnly) return { do: "release", why: "it is read-only" };
  if (policies.deletionPolicy === "retain") {
    return { do: "release", why: `the deletion policy is retain (${policies.deletionPolicySource})` };
  }
  const blocked = syncStateForDecision(decision);
  if (blocked) {
    return {
      do: "blocked",
      state: {
        ...blocked,
        message: `Deletion blocked: ${blocked.message}. Restore what is missing, or set ${resourceAnnotations.deletionPolicy}: retain to leave the AWS resource and let the object go`,
      },
      requeue: decision.outcome === "wait",
    };
  }
  return { do: "delete" };
}

export type DeletePlan =
  | { readonly do: "delete" }
  /** Nothing there: it was never created, or is already gone. */
  | { readonly do: "gone" }
  /** Nothing there yet, but this object's own create may still land: hold the object until then. */
  | { readonly do: "await"; readonly state: ProgressState; readonly until: Date }
  /** There, but not ours: never deleted (DESIGN §3.5). */
  | { readonly do: "keep"; readonly why: string };

export function planDelete(found: Found, target: Target, pending?: PendingCreate): DeletePlan {
  if (!found.found) {
    if (found.heldElsewhere !== undefined) {
      return { do: "keep", why: `nothing of account ${target.account} is there: ${found.heldElsewhere}` };
    }
    if (pending === undefined) return { do: "gone" };
    // Released now, a create still on its way would land with nobody left to delete it.
    return {
      do: "await",
      until: pending.until,
      state: {
        kind: "progressing",
        reason: "DeletePending",
        message: `Deletion waits for the create of ${describeTarget(target)} requested at ${pending.requestedAt.toISOString()}: AWS never said whether it was made, and it may still land until ${pending.until.toISOString()}; crossrole deletes it if it appears, and lets the object go then at the latest`,
      },
    };
  }
  if (found.ownership.kind === "ours" || (found.ownership.kind === "untagged" && found.unfinishedCreate)) {
    return { do: "delete" };
  }
  return { do: "keep", why: `${describeTarget(target)} is ${describeOwnership(found.ownership)}` };
}

export type AccountCheck =
  | { readonly do: "proceed" }
  | { readonly do: "block"; readonly state: FailureState }
  /** --account-drift-policy=recreate: follow the new role; the old object stays (its ARN in an Event). */
  | { readonly do: "follow"; readonly event: string };

/**
 * The recorded account (status: a record, possibly forged) against the account the decided
 * credentials act in. It can only stop a reconcile, never steer one.
 */
export function checkAccount(
  recorded: { readonly ownerAccountID?: string; readonly arn?: string } | undefined,
  account: string,
  policy: "block" | "recreate",
  deleting: boolean,
): AccountCheck {
  const was = recorded?.ownerAccountID;
  if (was === undefined || was === "" || was === account) return { do: "proceed" };
  const message = `Resource already exists in account ${was}, but the role used for reconciliation is in account ${account}`;
  if (deleting) {
    return {
      do: "block",
      state: {
        kind: "terminal",
        reason: "AccountDrift",
        message: `Deletion blocked: ${message}. Restore the identity configuration, or set ${resourceAnnotations.deletionPolicy}: retain`,
      },
    };
  }
  if (policy === "block")
    return { do: "block", state: { kind: "terminal", reason: "AccountDrift", message } };
  return {
    do: "follow",
    event: `${message}; --account-drift-policy=recreate: following the new role into account ${account}. The old resource ${recorded?.arn ?? "(no ARN recorded)"} in account ${was} is not deleted.`,
  };
}

/** An observed region other than the decided one (ACK's message). */
export function checkRegion(observed: string | undefined, decided: string): FailureState | null {
  if (observed === undefined || observed === decided) return null;
  return {
    kind: "terminal",
    reason: "RegionDrift",
    message: `Resource already exists in region ${observed}, but the desired state specifies region ${decided}`,
  };
}

function fail(kind: FailureState["kind"], reason: string, message: string): SyncPlan {
  return { do: "fail", state: { kind, reason, message } };
}
