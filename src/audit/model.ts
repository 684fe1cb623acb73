// The audit report: who can act as which role, and through what (issue 11, DESIGN §1's
// auditor). One object, computed by `computeAudit` from the same snapshot and resolver the
// controller runs; `-o json` prints it as is, `-o text` and `-o html` only render it.
// Field names are part of the CLI's JSON contract: add fields, never rename them.

import type { ObjectRef, SnapshotProblem } from "../resolver/types.ts";

/** Which resolution mode the report describes (the current one, or `--mode`). */
export type AuditMode = "CARM" | "IAMRoleSelector";

/** What kind of administrator object grants a reach. */
export type GrantKind =
  | "accountMap" // ack-role-account-map / ack-carm-map `owner-account-id/<account>` key
  | "teamMap" // ack-role-team-map / ack-carm-map `team-id/<team>` key (service-level included)
  | "resourceAccount" // a resource-level owner-account-id the namespace's allowed list admits
  | "IAMRoleSelector"
  | "identity" // an identity chain reached through spec.identityRef
  | "controller"; // the controller's own credentials (default rule, §3.2)

/** One hop of how a namespace reaches a role; the first is what grants it. */
export interface AuditHop {
  /** `AWSRoleIdentity`, `IAMRoleSelector`, `CARM`, `AWSControllerIdentity`, ... as in ChainHop. */
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly roleARN?: string;
  /** Account of roleARN (or of the controller for its own credentials), when known. */
  readonly account?: string;
  /** Human-readable: `allowedNamespaces: {}` (every namespace), `list [a, b]`, `selector env=prod`. */
  readonly admits?: string;
}

/** A grant object (a map key, a selector, an identity) and what it leads to. */
export interface AuditGrant {
  /** Stable id used by reaches, e.g. `accountMap:ack-role-account-map/111111111111`,
   *  `teamMap:ack-role-team-map/s3.team-a`, `IAMRoleSelector:prod-s3`, `identity:AWSRoleIdentity/central-it`,
   *  `identity:AWSServiceAccountIdentity/ns/name`, `controller:default`. */
  readonly id: string;
  readonly kind: GrantKind;
  /** The object it lives in. */
  readonly object: ObjectRef;
  /** The map key, for CARM grants. */
  readonly key?: string;
  /** The final role it leads to; null = the controller's own or static credentials. */
  readonly roleARN: string | null;
  readonly account: string | null;
  /** The whole chain, first hop first (identities with sourceIdentityRef have several). */
  readonly hops: readonly AuditHop[];
  /** Number of namespaces reaching it (actual + potential). */
  readonly namespaceCount: number;
}

/**
 * One namespace reaching one role through one grant.
 * `actual`: a resource of `kinds` created in the namespace today (no identityRef, no
 * resource-level annotation) would use it. `potential`: the namespace could use it by writing
 * something in its own namespace (spec.identityRef, a resource-level owner-account-id its
 * allowed list admits, resource labels a selector matches, the iam-role-selector annotation).
 */
export interface AuditReach {
  readonly namespace: string;
  /** Served kinds this holds for (sorted, e.g. ["Bucket","Queue"]); all served kinds when it does not depend on kind. */
  readonly kinds: readonly string[];
  readonly grant: string; // AuditGrant.id
  readonly roleARN: string | null;
  readonly account: string | null;
  readonly actual: boolean;
  /** One sentence: how, e.g. "resources carrying label tier=web" or "spec.identityRef to AWSRoleIdentity central-it". */
  readonly how: string;
  /** Existing resources that use it today (`Kind namespace/name`, sorted), when resources were read. */
  readonly resources?: readonly string[];
}

export interface AuditRole {
  /** null for the controller's own credentials. */
  readonly roleARN: string | null;
  readonly account: string | null;
  /** When roleARN is null: whose credentials — `controller`, or `AWSStaticIdentity/<name>` for static keys. */
  readonly credentials?: string;
  /** Namespaces reaching it, sorted; each once, with the grants used. */
  readonly namespaces: readonly {
    readonly namespace: string;
    readonly grants: readonly string[];
    readonly actual: boolean;
  }[];
}

export interface AuditNamespace {
  readonly name: string;
  /**
   * When the controller shards across replicas (read from the cluster's member Leases): the
   * replica that reconciles this namespace's resources now; "" when no member Lease is live.
   */
  readonly reconciledBy?: string;
  /** What a plain resource of each served kind gets today (the controller's decision). */
  readonly defaults: readonly {
    readonly kind: string;
    readonly outcome: "use" | "deny" | "conflict" | "wait";
    readonly roleARN: string | null;
    readonly account: string | null;
    readonly message: string;
  }[];
  /** Every role it can reach (actual or potential), sorted by role ARN. */
  readonly roles: readonly {
    readonly roleARN: string | null;
    readonly account: string | null;
    /** As AuditRole.credentials. */
    readonly credentials?: string;
    readonly grants: readonly string[];
    readonly actual: boolean;
  }[];
}

export type FindingCode =
  | "IdentityAdmitsEveryNamespace" // allowedNamespaces: {}
  | "SelectorWithoutNamespaceSelector"
  | "Conflict" // a namespace × kind whose decision is `conflict`
  | "DeniedResource" // existing resources the controller refuses (`deny`), grouped by message
  | "UnusedMapKey" // a CARM key no namespace uses
  | "RoleWiderThanKey" // a role reachable by more namespaces than its map key suggests
  | "CrossAccountChain" // an identity chain whose hops cross into another account
  | "InvalidObject"; // a snapshot problem with severity error (excluded object)

export interface AuditFinding {
  readonly code: FindingCode;
  readonly severity: "high" | "medium" | "low";
  readonly object: ObjectRef;
  /** What is wrong, naming the object, the field and the roles/namespaces involved. */
  readonly message: string;
  /** What to change. */
  readonly fix: string;
  readonly roleARN?: string;
  readonly namespaces?: readonly string[];
}

export interface AuditReport {
  readonly apiVersion: "crossrole.dev/audit/v1";
  readonly mode: AuditMode;
  readonly source: { readonly from: "cluster" | "files"; readonly detail: string };
  readonly controllerAccount: string | null;
  readonly kinds: readonly string[];
  /** Filters applied (`--role`, `--namespace`); the lists below are already filtered. */
  readonly filter: { readonly role?: string; readonly namespace?: string };
  readonly totals: {
    readonly namespaces: number;
    readonly roles: number;
    readonly accounts: number;
    readonly grants: number;
    readonly reaches: number;
    readonly findings: number;
  };
  readonly grants: readonly AuditGrant[];
  readonly reaches: readonly AuditReach[];
  readonly roles: readonly AuditRole[];
  readonly namespaces: readonly AuditNamespace[];
  readonly findings: readonly AuditFinding[];
  readonly problems: readonly SnapshotProblem[];
  /** What the audit had to assume about its input (e.g. a namespace missing from the manifests). */
  readonly notes?: readonly string[];
  /** When the controller shards across replicas: the live members (each namespace's `reconciledBy`). */
  readonly shards?: { readonly members: readonly string[] };
}
