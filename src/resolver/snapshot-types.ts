// The configuration snapshot: every administrator object the resolver may consult, validated,
// compiled and indexed once, so that a decision only looks things up.
// Everything here is immutable after buildSnapshot returns and independent of the order in
// which the objects were listed.

import type { CarmEntry, CarmMapName } from "../api/carm.ts";
import type { GroupVersionKindMatcher } from "../api/iam-role-selector.ts";
import type { CompiledAllowedNamespaces } from "../selector/allowed-namespaces.ts";
import type { CompiledSelector, Labels } from "../selector/label-selector.ts";
import type { HopParameters, SnapshotProblem } from "./types.ts";

/** A namespace annotation value after validation: usable value, or why it is not. */
export type AnnotationValue<T> =
  | { readonly ok: true; readonly raw: string; readonly value: T }
  | { readonly ok: false; readonly raw: string; readonly error: string };

/** What the resolver reads from a Namespace object (DESIGN §2.2). */
export interface NamespaceConfig {
  readonly name: string;
  readonly labels: Labels;
  readonly ownerAccountId: AnnotationValue<string> | null;
  readonly teamId: AnnotationValue<string> | null;
  readonly defaultRegion: AnnotationValue<string> | null;
  readonly endpointUrl: AnnotationValue<string> | null;
  /** `allowed-owner-account-ids`, sorted, duplicates removed. */
  readonly allowedOwnerAccountIds: AnnotationValue<readonly string[]> | null;
}

/** One `resourceTypeSelector` entry, either form normalised; null means "any". */
export type ResourceTypeMatch = GroupVersionKindMatcher;

/** A valid IAMRoleSelector, compiled. */
export interface SelectorConfig {
  readonly name: string;
  readonly resourceVersion: string;
  readonly arn: string;
  /** `namespaceSelector.names`, sorted; null when absent (any name). */
  readonly namespaceNames: readonly string[] | null;
  /** `namespaceSelector.labelSelector`; null when absent (any labels). */
  readonly namespaceLabels: CompiledSelector | null;
  /** null when absent (any type); otherwise OR across entries. */
  readonly resourceTypes: readonly ResourceTypeMatch[] | null;
  /** `resourceLabelSelector`; null when absent (any labels). */
  readonly resourceLabels: CompiledSelector | null;
  /** Session parameters for the hop that assumes `arn` (sessionName defaulted later). */
  readonly parameters: HopParameters;
  /** Whether `sessionName` was set explicitly (otherwise the resolver picks a readable default). */
  readonly explicitSessionName: boolean;
}

/**
 * Candidate selectors bucketed by what a resource's type must be for them to apply, so that a
 * lookup touches only selectors that can match its type.
 */
export interface TypeBuckets {
  /** Key `group/kind`. */
  readonly byGroupKind: ReadonlyMap<string, readonly SelectorConfig[]>;
  readonly byGroup: ReadonlyMap<string, readonly SelectorConfig[]>;
  readonly byKind: ReadonlyMap<string, readonly SelectorConfig[]>;
  /** Selectors whose type part cannot be narrowed (absent, or version-only entries). */
  readonly any: readonly SelectorConfig[];
}

/**
 * Selectors that require equality on the same label keys, keyed by the values they require.
 * `keys` is sorted; a bucket key is the values for those keys joined with NUL, so a label set
 * reaches the bucket of every selector whose equality requirements it meets with ONE lookup.
 */
export interface LabelSetIndex {
  readonly keys: readonly string[];
  readonly buckets: ReadonlyMap<string, TypeBuckets>;
}

/**
 * IAMRoleSelectors indexed by one necessary condition each, so that a decision only re-checks
 * selectors that share that condition with the resource:
 *  - the namespace names it lists (`namespaceSelector.names`), else
 *  - all the equality requirements (matchLabels, `In`) of `namespaceSelector.labelSelector`
 *    together, else
 *  - all the equality requirements of `resourceLabelSelector`, else
 *  - nothing (the "any namespace" bucket).
 * Every bucket is further split by resource type. A selector sits under exactly one condition,
 * and a target reaches it at most once per type key; candidates are always re-checked in full.
 */
export interface SelectorIndex {
  /** All valid selectors, sorted by name. */
  readonly all: readonly SelectorConfig[];
  readonly byName: ReadonlyMap<string, SelectorConfig>;
  readonly byNamespaceName: ReadonlyMap<string, TypeBuckets>;
  /** One entry per distinct set of label keys, sorted by keys. */
  readonly byNamespaceLabels: readonly LabelSetIndex[];
  readonly byResourceLabels: readonly LabelSetIndex[];
  readonly anyNamespace: TypeBuckets;
  /** Selectors filed under more than one type key a single resource can reach (need de-duplication). */
  readonly inSeveralTypeBuckets: ReadonlySet<SelectorConfig>;
  /** Names of selectors that exist but were excluded as invalid → why (for annotation lookups). */
  readonly invalid: ReadonlyMap<string, string>;
}

export type ClusterIdentityKind = "AWSControllerIdentity" | "AWSStaticIdentity" | "AWSRoleIdentity";
export type IdentityKindName = ClusterIdentityKind | "AWSServiceAccountIdentity";

/** A valid identity object, compiled. */
export interface IdentityConfig {
  readonly kind: IdentityKindName;
  readonly name: string;
  /** Only for AWSServiceAccountIdentity. */
  readonly namespace?: string;
  readonly resourceVersion: string;
  /** Cluster-scoped identities: who may use it. Null for AWSServiceAccountIdentity (its own namespace). */
  readonly allowedNamespaces: CompiledAllowedNamespaces | null;
  /** AWSRoleIdentity / AWSServiceAccountIdentity. */
  readonly roleARN?: string;
  /** AWSRoleIdentity only. */
  readonly source?: { readonly kind: IdentityKindName; readonly name: string };
  readonly parameters: HopParameters;
  readonly explicitSessionName: boolean;
}

export interface IdentityIndex {
  /** Cluster-scoped identities by `kind/name`. */
  readonly cluster: ReadonlyMap<string, IdentityConfig>;
  /** AWSServiceAccountIdentity by `namespace/name`. */
  readonly serviceAccount: ReadonlyMap<string, IdentityConfig>;
  /**
   * Identities that exist but are unusable (invalid, duplicated, cycle, dangling source) → why,
   * keyed `kind/name` (cluster-scoped) or `kind/namespace/name` (AWSServiceAccountIdentity).
   */
  readonly invalid: ReadonlyMap<string, string>;
}

/** One CARM ConfigMap as the resolver sees it. */
export interface CarmMapState {
  readonly name: CarmMapName;
  /** The ConfigMap exists in the system namespace. */
  readonly present: boolean;
  /** Set when the map cannot be trusted as a whole (e.g. listed twice with different data). */
  readonly unusable: string | null;
  /** Entries by lookup key `subject\u0000id\u0000field`; several when one map says it twice. */
  readonly entries: ReadonlyMap<string, readonly CarmEntry[]>;
}

export interface CarmSnapshot {
  readonly accountMap: CarmMapState;
  readonly teamMap: CarmMapState;
  readonly carmMap: CarmMapState;
}

export interface Snapshot {
  readonly systemNamespace: string;
  readonly namespaces: ReadonlyMap<string, NamespaceConfig>;
  /** Namespaces listed but unusable (e.g. listed twice with different content) → why. */
  readonly invalidNamespaces: ReadonlyMap<string, string>;
  readonly selectors: SelectorIndex;
  readonly identities: IdentityIndex;
  readonly carm: CarmSnapshot;
  /**
   * Everything that was wrong with the input whatever the settings, sorted (object, field,
   * message). `configurationProblems` adds the CARM keys the settings leave unused.
   */
  readonly problems: readonly SnapshotProblem[];
}
