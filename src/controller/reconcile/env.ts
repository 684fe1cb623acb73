// What a kind's reconciler is made of (its dependencies, ReconcilerDeps) and what every step is
// given: the same, with the defaults filled in once (Env).
import { LRUCache } from "lru-cache";
import type { Logger } from "pino";
import type { DeletionPolicy } from "../../api/annotations.ts";
import type { CredentialService } from "../../credentials/service.ts";
import type { Snapshot } from "../../resolver/snapshot-types.ts";
import type { Settings } from "../../resolver/types.ts";
import { KeyedMutex } from "../../runtime/keyed-mutex.ts";
import type { ResourceType } from "../../runtime/kube-object.ts";
import type { AnyServiceModule } from "../../services/catalog.ts";
import type { ServiceModule } from "../../services/service-module.ts";
import type { ControllerKeyStore } from "../controller-key.ts";
import { defaultIntentWindowMs } from "../create-intent.ts";
import { DecisionMemo } from "../decision-memo.ts";
import type { DecisionTracker } from "../decision-tracker.ts";
import type { DefaultTag } from "../default-tags.ts";
import type { OwnedObjects } from "../records/owned-objects.ts";
import type { ReferenceUses } from "../records/reference-uses.ts";
import type { Tombstone } from "../records/tombstones.ts";
import type { ReferrerOf } from "../references.ts";
import type { SelfWrites } from "../self-writes.ts";
import type { ObjectStore } from "./object-store.ts";

/** What the reconciler reads of the configuration cache (config-cache.ts). */
export interface ConfigView {
  snapshot(): Snapshot;
  namespaceAnnotations(namespace: string): Readonly<Record<string, string>> | undefined;
}

export interface ReconcilerDeps<Spec extends object, Observed, Client> {
  readonly module: ServiceModule<Spec, Observed, Client>;
  readonly resourceType: ResourceType;
  /** Every Kubernetes read and write of a reconcile (object-store.ts). */
  readonly store: ObjectStore;
  readonly config: ConfigView;
  readonly credentials: CredentialService;
  readonly tracker: DecisionTracker;
  readonly settings: Settings;
  /** Each resource's decision, resolved once per snapshot (decision-memo.ts); default: its own. */
  readonly decisions?: DecisionMemo;
  readonly deletionPolicy: DeletionPolicy;
  readonly logger: Logger;
  /** Serialises reconciles on one AWS object across resources (and kinds); shared per process. */
  readonly objectLocks?: KeyedMutex;
  /** Remembers the objects our writes returned, so their informer echoes are not reconciled again. */
  readonly selfWrites?: SelfWrites;
  /** How soon a `wait` decision is retried (DESIGN §3.3: 15 s). */
  readonly waitRequeueMs?: number;
  /** The key that seals create intents and secret fingerprints in status (controller-key.ts). */
  readonly controllerKey: Pick<ControllerKeyStore, "get">;
  /** How long a create may land after its intent (--create-intent-window-seconds; create-intent.ts). */
  readonly createIntentWindowMs?: number;
  /** How ACK's references to served kinds are followed (reconcile/references.ts); none: not at all. */
  readonly references?: ReferencePolicy;
  /** Takeovers from ACK an administrator approved (ack-takeover.ts). */
  readonly takeover?: TakeoverApprovals;
  /** Where a create intent released unconfirmed is remembered while it can land (records/tombstones.ts). */
  readonly tombstones?: { keep(tombstone: Tombstone, signal?: AbortSignal): Promise<void> };
  /** Whose the objects AWS cannot tag are (records/owned-objects.ts): needed by an untaggable kind. */
  readonly owned?: Pick<OwnedObjects, "tagsOf" | "entryOf" | "claim" | "forget" | "retain">;
  /** --resource-tags: written on every object created or adopted (default-tags.ts); none if absent. */
  readonly defaultTags?: readonly DefaultTag[];
  /** --ungranted-principals (principals.ts): default `warn`. */
  readonly ungrantedPrincipals?: UngrantedPrincipalsPolicy;
  readonly now?: () => Date;
}

/** --ungranted-principals (principals.ts): `warn` (a Warning Event) or `refuse` (Terminal, nothing done in AWS). */
export type UngrantedPrincipalsPolicy = "warn" | "refuse";

export interface TakeoverApprovals {
  /** The UID approved for `<Kind>.<namespace>.<name>` in ConfigMap crossrole-ack-takeover, if any. */
  approvedUid(key: string): string | undefined;
}

export interface ReferencePolicy {
  /** --allow-cross-namespace-references. */
  readonly allowCrossNamespace: boolean;
  /** A served kind's module (loaded if not yet), by kind name; undefined for a kind not served. */
  moduleOf(kind: string): Promise<AnyServiceModule | undefined>;
  /** Who references an object now (referrer-index.ts); undefined: not known yet. */
  referrersOf?(kind: string, namespace: string, name: string): readonly ReferrerOf[] | undefined;
  /** The controller's own records of which referrers used a reference in AWS (records/reference-uses.ts). */
  readonly uses?: Pick<ReferenceUses, "record" | "of" | "forgetReferrer" | "forgetReferenced">;
}

/** The dependencies with their defaults, and what every step derives from them. */
export interface Env<Spec extends object, Observed, Client>
  extends Omit<
    ReconcilerDeps<Spec, Observed, Client>,
    "decisions" | "objectLocks" | "waitRequeueMs" | "createIntentWindowMs" | "now"
  > {
  readonly decisions: DecisionMemo;
  readonly locks: KeyedMutex;
  readonly waitRequeueMs: number;
  readonly intentWindowMs: number;
  readonly now: () => Date;
  /** The finalizer this kind's controller puts on its objects. */
  readonly finalizer: string;
  /** The kind as users write it (DBInstance, not "dbinstance"): messages name it so. */
  readonly kindName: string;
  /** Warnings already said, by object and cause (misspelt-annotations.ts): each is said once. */
  readonly said: LRUCache<string, true>;
}

export const finalizerFor = (rt: ResourceType): string => `finalizers.${rt.group}/${rt.kind}`;

export function envOf<Spec extends object, Observed, Client>(
  d: ReconcilerDeps<Spec, Observed, Client>,
): Env<Spec, Observed, Client> {
  return {
    ...d,
    decisions: d.decisions ?? new DecisionMemo(d.settings),
    locks: d.objectLocks ?? new KeyedMutex(),
    waitRequeueMs: d.waitRequeueMs ?? 15_000,
    intentWindowMs: d.createIntentWindowMs ?? defaultIntentWindowMs,
    now: d.now ?? (() => new Date()),
    finalizer: finalizerFor(d.resourceType),
    kindName: d.module.kind.kind,
    said: new LRUCache<string, true>({ max: 10_000 }),
  };
}
