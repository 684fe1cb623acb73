// What an identity object should look like given who uses it (DESIGN §2.5: "an identity in use
// is protected from deletion (finalizer + usage count in its status); deleting it is blocked
// with a clear reason"): the in-use finalizer, status.usageCount / users, the Ready and InUse
// conditions, and whether a DeletionBlocked Event and a log line are due. Pure: the identity
// controller does the I/O.
import { type IdentityStatus, maxListedIdentityUsers } from "../api/identities.ts";
import { defaultSystemNamespace } from "../resolver/settings.ts";
import {
  type Condition,
  type ConditionUpdate,
  conditionsEqual,
  setConditions,
} from "../runtime/conditions.ts";
import { describeUser, type UserRef } from "./identity-usage.ts";

/** How many users status.users lists (and messages name); the count is always exact. */
export const maxListedUsers = maxListedIdentityUsers;

/**
 * The in-use finalizer. Installs are told apart by their system namespace (as their RBAC
 * objects are), so two namespace-scoped installs sharing a cluster-scoped identity each hold
 * their own finalizer: one with no users never removes the protection the other one needs.
 */
export function identityFinalizer(systemNamespace: string = defaultSystemNamespace): string {
  return systemNamespace === defaultSystemNamespace
    ? "identity.crossrole.dev/in-use"
    : `${systemNamespace}.identity.crossrole.dev/in-use`;
}

export interface IdentityFacts {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly generation?: number;
  readonly deleting: boolean;
  readonly hasFinalizer: boolean;
  readonly status: IdentityStatus | undefined;
  readonly usageCount: number;
  /** The first users (at most maxListedUsers), sorted. */
  readonly users: readonly UserRef[];
  /** Why the identity cannot be used (the resolver snapshot's verdict, a missing Secret); null when usable. */
  readonly problem: string | null;
}

export interface IdentityPlan {
  readonly finalizer: "add" | "remove" | "none";
  /** The status to write, or null when the stored one already says it (or the object is going). */
  readonly status: Required<Pick<IdentityStatus, "usageCount" | "users" | "conditions">> | null;
  /** Message of a Warning DeletionBlocked Event, when one is due (entering or changing the blocked state). */
  readonly blockedEvent: string | null;
  /** Set when the usage count or the blocked state changed: worth one log line. */
  readonly transition: { readonly usageCount: number; readonly blocked: boolean } | null;
}

/**
 * Whether deleting this kind can strand a resource. Without an AWSControllerIdentity every
 * namespace may use the controller's own credentials (DESIGN §3.2): deleting it widens access
 * and strands nobody, so it is counted but never held back.
 */
export function isProtectedKind(kind: string): boolean {
  return kind !== "AWSControllerIdentity";
}

function listUsers(count: number, users: readonly UserRef[]): string {
  const named = users.map(describeUser).join(", ");
  const more = count - users.length;
  return more > 0 ? `${named} and ${more} more` : named;
}

const plural = (n: number) => `${n} resource${n === 1 ? "" : "s"}`;

function inUseCondition(f: IdentityFacts, blocked: boolean): ConditionUpdate {
  const who = `${plural(f.usageCount)}: ${listUsers(f.usageCount, f.users)}`;
  if (f.usageCount === 0) {
    return {
      type: "InUse",
      status: "False",
      reason: "NotInUse",
      message: "No resource uses it; it may be deleted",
    };
  }
  if (blocked) {
    return {
      type: "InUse",
      status: "True",
      reason: "DeletionBlocked",
      message: `Deletion blocked: used by ${who}. Delete these resources or point them at another identity first (spec.identityRef, IAMRoleSelectors, CARM maps); the deletion completes when the last one is gone`,
    };
  }
  if (!isProtectedKind(f.kind)) {
    return {
      type: "InUse",
      status: "True",
      reason: "InUse",
      message: `Used by ${who}. Its deletion is not blocked: without an AWSControllerIdentity every namespace may use the controller's own credentials`,
    };
  }
  return {
    type: "InUse",
    status: "True",
    reason: "InUse",
    message: `Used by ${who}; deleting it is blocked until none is left`,
  };
}

function readyCondition(f: IdentityFacts): ConditionUpdate {
  return f.problem === null
    ? { type: "Ready", status: "True", reason: "Valid", message: "The identity is valid and can be used" }
    : {
        type: "Ready",
        status: "False",
        reason: "Invalid",
        message: `The identity cannot be used: ${f.problem}`,
      };
}

const usersKey = (users: readonly UserRef[] | undefined) =>
  (users ?? []).map((u) => `${u.kind}/${u.namespace}/${u.name}`).join(",");

export function planIdentity(f: IdentityFacts, now: Date): IdentityPlan {
  const needed = isProtectedKind(f.kind) && f.usageCount > 0;
  const finalizer = needed
    ? !f.hasFinalizer && !f.deleting // the apiserver refuses new finalizers on an object being deleted
      ? "add"
      : "none"
    : f.hasFinalizer
      ? "remove"
      : "none";
  const blocked = f.deleting && needed && f.hasFinalizer;
  const wasBlocked =
    f.status?.conditions?.some((c) => c.type === "InUse" && c.reason === "DeletionBlocked") ?? false;
  const transition =
    (f.status?.usageCount ?? 0) !== f.usageCount || wasBlocked !== blocked
      ? { usageCount: f.usageCount, blocked }
      : null;

  // Going away now: nothing to record on an object that is about to disappear.
  if (f.deleting && finalizer === "remove")
    return { finalizer, status: null, blockedEvent: null, transition };

  const stored = f.status?.conditions as Condition[] | undefined;
  const generation = f.generation === undefined ? {} : { observedGeneration: f.generation };
  const inUse = { ...inUseCondition(f, blocked), ...generation };
  const conditions = setConditions(stored, [{ ...readyCondition(f), ...generation }, inUse], now);
  const same =
    conditionsEqual(stored, conditions) &&
    f.status?.usageCount === f.usageCount &&
    usersKey(f.status?.users) === usersKey(f.users);
  const previousInUse = stored?.find((c) => c.type === "InUse");
  const blockedEvent =
    blocked && (previousInUse?.reason !== "DeletionBlocked" || previousInUse.message !== inUse.message)
      ? `${inUse.message}.`
      : null;
  return {
    finalizer,
    status: same ? null : { usageCount: f.usageCount, users: f.users.map((u) => ({ ...u })), conditions },
    blockedEvent,
    transition,
  };
}
