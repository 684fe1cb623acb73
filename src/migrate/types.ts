// The contract of the CARM → IAMRoleSelector migration: what goes in (the raw configuration
// and resources, as listed from a cluster or read from manifests) and what comes out (the
// selectors to apply and the proof that nothing moves). Field names of MigrationResult are the
// `crossrole migrate -o json` contract: add fields, never rename them.

import type { IAMRoleSelector } from "../api/iam-role-selector.ts";
import type { ResourceKind } from "../api/kinds.ts";
import type { ConfigObjects, DecisionSource, Outcome, ResourceObject, Settings } from "../resolver/types.ts";

export interface MigrationInput {
  /** Namespaces, ConfigMaps, IAMRoleSelectors and identities exactly as listed (validated later). */
  readonly objects: ConfigObjects;
  /** The controller's settings today: CARM mode (gate IAMRoleSelector off, --enable-carm on). */
  readonly settings: Settings;
  /** Every existing managed resource; empty → the proof covers every namespace × kind instead. */
  readonly resources: readonly ResourceObject[];
  /** The kinds the controller serves (src/api/kinds.ts ∩ src/services/served.ts). */
  readonly kinds: readonly ResourceKind[];
  /**
   * How selectors pick their namespaces (default `names`): `names` lists today's namespaces
   * (closed: a namespace added later needs the selector edited); `labels` selects by a label
   * this migration asks to put on them (open: labelling a namespace onboards it, as the CARM
   * annotation did). See SelectBy.
   */
  readonly selectBy?: SelectBy;
}

export type SelectBy = "names" | "labels";

/** A label a namespace must carry for a `labels` selector to match it. */
export interface NamespaceLabel {
  readonly namespace: string;
  readonly key: string;
  readonly value: string;
}

/** The CARM map entry a generated selector replaces. */
export interface CarmGrant {
  readonly subject: "account" | "team";
  /** The lookup id: `<account>`, `<team>`, or the service-level `<service>.<id>`. */
  readonly id: string;
  /** The service of a service-level key (`s3` for `s3.team-a`), else null. */
  readonly service: string | null;
  /** `ConfigMap ack-system/ack-role-team-map key s3.team-a`: where the role is written today. */
  readonly origin: string;
  readonly roleARN: string;
  /** The team's `external-id` sub-key of ack-carm-map, carried over to the selector. */
  readonly externalID: string | null;
}

/** One generated selector with what it replaces, for comments and `-o json`. */
export interface GeneratedSelector {
  readonly selector: IAMRoleSelector;
  readonly grant: CarmGrant;
  /** Kinds it matches in its namespaces (all served kinds when it has no resourceTypeSelector). */
  readonly kinds: readonly string[];
  /** The namespaces it takes over from CARM today (its names, or those to label). */
  readonly namespaces: readonly string[];
  /** With `labels`: the label it selects namespaces by; absent when it lists names. */
  readonly label?: { readonly key: string; readonly value: string };
}

/** What one mode decided for one subject, reduced to what the proof compares. */
export interface ModeDecision {
  readonly outcome: Outcome;
  readonly source: DecisionSource | null;
  readonly roleARN: string | null;
  readonly account: string | null;
  readonly region: string | null;
  readonly endpoint: string | null;
  /** The external ID sent with the final AssumeRole, when there is one. */
  readonly externalID: string | null;
  /** The IAMRoleSelector that chose (IAMRoleSelector mode), or null. */
  readonly selector: string | null;
  /** The resolver's one-line message. */
  readonly message: string;
}

/** The fields the proof compares, in the order a change lists them. */
export const comparedFields = ["outcome", "roleARN", "account", "region", "endpoint", "externalID"] as const;
export type ComparedField = (typeof comparedFields)[number];

/** A resource (or, without resources, one namespace × kind) decided in both modes. */
export interface DecidedSubject {
  readonly kind: string;
  readonly namespace: string;
  /** `*` for a namespace × kind stand-in (no resources exist). */
  readonly name: string;
  readonly synthetic: boolean;
  readonly carm: ModeDecision;
  readonly iamRoleSelector: ModeDecision;
  readonly changed: readonly ComparedField[];
}

export interface MigrationChange {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly synthetic: boolean;
  readonly fields: readonly ComparedField[];
  readonly from: ModeDecision;
  readonly to: ModeDecision;
  /** Why IAMRoleSelector mode decides differently, naming the object at the root of it. */
  readonly why: string;
  /** What to do so that it would not change. */
  readonly fix: string;
}

export interface MigrationResult {
  /** Sorted by name; each valid per the IAMRoleSelector schema. */
  readonly selectors: readonly GeneratedSelector[];
  /** What the proof ran over: the existing resources, or every namespace × served kind. */
  readonly proofOver: "resources" | "namespaceKinds";
  /** Every subject, sorted by kind, namespace, name. */
  readonly decided: readonly DecidedSubject[];
  /** The subjects that would change, same order. */
  readonly changes: readonly MigrationChange[];
  /** Things worth knowing that change no decision (unused keys, replaced selectors, ...). */
  readonly notes: readonly string[];
  readonly selectBy: SelectBy;
  /** With `labels`: each label to put on a namespace first (the proof assumes they are on). */
  readonly namespaceLabels: readonly NamespaceLabel[];
}
