// Which managed resources use which identity objects (DESIGN §2.5: "an identity in use is
// protected from deletion"). Pure bookkeeping: the caller says what each resource's current
// decision goes through; the index answers "who uses identity X" and says which identities'
// answers changed, so only those are reconciled again.
import { isIdentityKind } from "../api/identity-ref.ts";
import { identityKey } from "../resolver/snapshot-identities.ts";
import type { Decision } from "../resolver/types.ts";

/** A managed resource that uses an identity. */
export interface UserRef {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

export const userKey = (u: UserRef): string => `${u.kind}/${u.namespace}/${u.name}`;
export const describeUser = (u: UserRef): string => `${u.kind} ${u.namespace}/${u.name}`;

function compareUsers(a: UserRef, b: UserRef): number {
  return (
    a.kind.localeCompare(b.kind) || a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name)
  );
}

/**
 * The identity objects (keys as snapshot-identities' identityKey) a decision acts through: every
 * identity hop of a `use` decision's chain, drifted or not. Non-`use` decisions use nothing —
 * deliberately: a tenant who references an identity it is not allowed (deny) must not be able
 * to pin that identity and block the administrator from deleting it. IAMRoleSelector and CARM
 * hops are not identity objects and are left out.
 */
export function identitiesUsedBy(decision: Decision): string[] {
  if (decision.outcome !== "use") return [];
  const keys = new Set<string>();
  for (const hop of decision.chain) {
    if (isIdentityKind(hop.kind)) keys.add(identityKey(hop.kind, hop.name, hop.namespace));
  }
  return [...keys].sort();
}

export class UsageIndex {
  /** user key → the user and the identity keys it uses. */
  readonly #byUser = new Map<string, { readonly user: UserRef; readonly identities: readonly string[] }>();
  /** identity key → user key → user. */
  readonly #byIdentity = new Map<string, Map<string, UserRef>>();

  /**
   * Records what `user` uses now (replacing what it used before); returns the identity keys
   * whose set of users changed.
   */
  set(user: UserRef, identities: readonly string[]): string[] {
    const key = userKey(user);
    const before = this.#byUser.get(key)?.identities ?? [];
    const after = [...new Set(identities)].sort();
    if (after.length === 0) this.#byUser.delete(key);
    else this.#byUser.set(key, { user, identities: after });
    const changed: string[] = [];
    for (const id of before) {
      if (after.includes(id)) continue;
      const users = this.#byIdentity.get(id);
      users?.delete(key);
      if (users?.size === 0) this.#byIdentity.delete(id);
      changed.push(id);
    }
    for (const id of after) {
      if (before.includes(id)) continue;
      let users = this.#byIdentity.get(id);
      if (!users) {
        users = new Map();
        this.#byIdentity.set(id, users);
      }
      users.set(key, user);
      changed.push(id);
    }
    return changed.sort();
  }

  /** Forgets a resource (deleted, or no longer watched); returns the identity keys it used. */
  remove(user: UserRef): string[] {
    return this.set(user, []);
  }

  /**
   * Replaces everything with `entries` (a full recomputation); returns the identity keys whose
   * users changed. Identities whose users are the same are not reported.
   */
  replaceAll(
    entries: Iterable<{ readonly user: UserRef; readonly identities: readonly string[] }>,
  ): string[] {
    const changed = new Set<string>();
    const seen = new Set<string>();
    for (const { user, identities } of entries) {
      seen.add(userKey(user));
      for (const id of this.set(user, identities)) changed.add(id);
    }
    for (const { user } of [...this.#byUser.values()]) {
      if (seen.has(userKey(user))) continue;
      for (const id of this.remove(user)) changed.add(id);
    }
    return [...changed].sort();
  }

  /** How many resources use the identity. */
  count(identity: string): number {
    return this.#byIdentity.get(identity)?.size ?? 0;
  }

  /** The resources that use the identity, sorted by kind, namespace, name; at most `limit`. */
  usersOf(identity: string, limit = Number.POSITIVE_INFINITY): UserRef[] {
    const users = [...(this.#byIdentity.get(identity)?.values() ?? [])].sort(compareUsers);
    return users.slice(0, limit);
  }

  /** Identity keys with at least one user. */
  identities(): string[] {
    return [...this.#byIdentity.keys()].sort();
  }
}
