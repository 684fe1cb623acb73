// What the generic resource reconciler needs from one AWS service's module (src/services/*):
// validate the spec, build a client for a usable decision, and CRUD in AWS. The reconciler owns
// identity, ownership (tags), finalizers, policies, conditions and status; the module owns the
// AWS API. Every AWS call gets the reconcile's CallContext (abort signal, logger).
import type { z } from "zod";
import type { ResourceKind } from "../api/kinds.ts";
import { describeIssues } from "../api/rules.ts";
import type { SpecTagField } from "../codegen/spec-tags.ts";
import type { CredentialService } from "../credentials/service.ts";
import type { ResourceRef } from "../credentials/types.ts";
import type { Decision } from "../resolver/types.ts";
import type { CallContext } from "./call-context.ts";
import type { ReferenceField } from "./references.ts";

export type ParseResult<T> =
  | { readonly ok: true; readonly value: T }
  | {
      readonly ok: false;
      readonly message: string;
      /** Where the problems are, below the root ("spec"): to show the values refused. */
      readonly paths?: readonly (readonly PropertyKey[])[];
      /** One message per problem, beside its path in `paths`. */
      readonly issues?: readonly string[];
    };

/** parseSpec for a kind whose spec is one zod schema: errors name the field as the apiserver would. */
export function parseSpecWith<Spec>(schema: z.ZodType<Spec>): (spec: unknown) => ParseResult<Spec> {
  return parseAt(schema, "spec");
}

/** parseStatus from the kind's status schema (the one its CRD is generated from). */
export function parseStatusWith(schema: z.ZodType): (status: unknown) => ParseResult<unknown> {
  return parseAt(schema, "status");
}

function parseAt<T>(schema: z.ZodType<T>, root: string): (value: unknown) => ParseResult<T> {
  return (value) => {
    const r = schema.safeParse(value);
    if (r.success) return { ok: true, value: r.data };
    const issues = describeIssues(r.error, [root]);
    return {
      ok: false,
      message: issues.join("; "),
      paths: r.error.issues.map((issue) => issue.path),
      issues,
    };
  };
}

export type Observation<O> =
  /** Nothing of this account's; `heldElsewhere` says why the name is still unusable (global names). */
  { readonly found: false; readonly heldElsewhere?: string } | { readonly found: true; readonly observed: O };

/** Tags, as a map, that the reconciler wants on every object it owns (DESIGN §3.5). */
export type OwnerTags = Readonly<Record<string, string>>;

/** One key of a Secret (ACK's SecretKeyReference shape); `namespace` is checked, never followed. */
export interface SecretKeyRef {
  readonly namespace?: string;
  readonly name: string;
  readonly key: string;
}

/** A spec field whose value lives in a Secret key, by spec path ("spec.masterUserPassword"). */
export interface SecretField {
  readonly path: string;
  readonly ref: SecretKeyRef;
}

/**
 * The values of a spec's secret fields, read by the reconciler from the resource's own
 * namespace only (DESIGN §3.4: secrets stay in their namespace). Never logged, never copied
 * into status or Events; the error of a call that carried one names its fields as
 * `secretFields` (service-error.ts), so that none of AWS's answer is shown or kept.
 */
export interface SecretValues {
  /** Value by spec path. */
  readonly values: ReadonlyMap<string, string>;
  /** Paths whose Secret changed since its value was last applied in AWS: set them again. */
  readonly changed: readonly string[];
}

export const noSecrets: SecretValues = { values: new Map(), changed: [] };

export type Created =
  /**
   * AWS made it; extra status fields (e.g. a bucket's location); `id`, the ID AWS gave it, for a
   * kind named so (ServiceModule.assigned).
   */
  | { readonly created: true; readonly status: Readonly<Record<string, unknown>>; readonly id?: string }
  /** AWS says the name already exists in this account: the tags must tell whose it is. */
  | { readonly created: false };

/**
 * A kind whose objects are named by an ID AWS gives at creation (a KMS key's), not by the spec.
 * The reconciler finds the object (src/controller/reconcile/locate.ts) and gives the module's calls
 * the spec `withId` it: `identifier(spec)` is "" until then, and nothing is read by it.
 */
export interface AssignedId<Spec, Client> {
  /** The status field recording the ID (ACK's keyID): a hint, taken only for an object tagged as the resource's. */
  readonly statusField: string;
  /** What an ID looks like: a status value otherwise is never sent to AWS. */
  readonly pattern: RegExp;
  /** The spec as the module's calls take it, naming the object `id`. */
  withId(spec: Spec, id: string): Spec;
  /** The IDs of the objects in the client's account and region tagged `key` = `value`. */
  findTagged(client: Client, key: string, value: string, ctx: CallContext): Promise<readonly string[]>;
}

export interface ServiceModule<Spec extends object, Observed, Client> {
  readonly kind: ResourceKind;
  /** Validates `spec` (everything except identityRef matters to AWS); the message names the field. */
  parseSpec(spec: unknown): ParseResult<Spec>;
  /**
   * Validates a status against the kind's status schema, the one its CRD is generated from: the
   * reconciler checks what it is about to write, so that the apiserver never refuses it.
   */
  parseStatus(status: unknown): ParseResult<unknown>;
  /** The SDK client acting with the decision's identity, in its region and endpoint. */
  client(credentials: CredentialService, decision: Decision, resource: ResourceRef): Promise<Client>;
  /** The AWS name the spec gives the object (bucket name, queue name, ...). */
  identifier(spec: Spec): string;
  /** The spec field that holds it, for messages ("choose another spec.queueName"). */
  readonly identifierField: string;
  /** Named by an ID AWS assigns at creation, not by `identifier`'s spec field. Optional. */
  readonly assigned?: AssignedId<Spec, Client>;
  /**
   * Spec fields holding a policy document whose principals let accounts in (a role's trust policy,
   * a resource policy): compared with the accounts the namespace is granted
   * (src/controller/reconcile/principals.ts).
   */
  readonly principalFields?: readonly string[];
  /** The object is in no region (IAM's): placed by account alone, referenced from any region. */
  readonly regionless?: true;
  /**
   * AWS cannot tag the object (a KMS alias): `tagsOf` is always empty, and whose it is, the
   * controller's own records say (src/controller/records/owned-objects.ts). Such a kind needs
   * `createdAt`, so that a create interrupted before its record is found again.
   */
  readonly untaggable?: true;
  /**
   * Where the spec holds its tags, and in which shape (the generated `<prefix>Declared.specTags`):
   * the reconciler adds the default tags there (src/controller/spec-default-tags.ts). None: the
   * kind has no tags.
   */
  readonly specTags?: SpecTagField;
  /**
   * ACK's references in the spec (the generated `<prefix>References`): those to served kinds are
   * resolved by the reconciler (src/controller/references.ts) into their plain fields.
   */
  readonly references?: readonly ReferenceField[];
  /**
   * The spec that names the object ACK's `services.k8s.aws/adoption-fields` point at, for a
   * resource with no spec (src/controller/adoption-seed.ts). Optional: by default the fields
   * must hold the identifier field (`{"name": "my-bucket"}`). Kinds whose ACK key is something
   * else (a queue's URL, a topic's ARN) say how it names the object, and refuse one that names
   * another account or region than `at`.
   */
  adoptionSeed?(
    fields: Readonly<Record<string, string>>,
    at: { readonly region: string; readonly account: string | null },
  ): ParseResult<Record<string, unknown>>;
  /**
   * What AWS has under the spec's name in the client's account. Where names are global (S3), a
   * name another account owns is `found: false` with `heldElsewhere` — never an error the
   * reconciler would retry forever, never something it may touch.
   */
  read(client: Client, spec: Spec, ctx: CallContext): Promise<Observation<Observed>>;
  /** Every tag on the AWS object, ownership tags included. */
  tagsOf(observed: Observed): Readonly<Record<string, string>>;
  /**
   * When AWS made the object, where the service can say. Only needed where create cannot tag
   * atomically (see ownership.ts, unfinishedCreate); otherwise leave it out.
   */
  createdAt?(client: Client, spec: Spec, ctx: CallContext): Promise<Date | undefined>;
  /**
   * Creates the object in `region` carrying `ownerTags` (in the create call itself wherever
   * the API allows). Must not write anything else to an object that may not be ours: the
   * reconciler reads it back, checks the tags, then updates it.
   */
  create(
    client: Client,
    spec: Spec,
    region: string,
    ownerTags: OwnerTags,
    ctx: CallContext,
    secrets: SecretValues,
  ): Promise<Created>;
  /**
   * What AWS has right after this reconcile's own `create` answered `created: true`, asking only
   * what AWS decides: the tags (the answer may be for an object another writer made a moment
   * before, and not every store tags in the create call) and the defaults AWS gives a new object.
   * What the create itself fixed (a new object's empty sub-resources, its region) is filled in,
   * not read back. Optional: without it the reconciler calls `read`.
   */
  readCreated?(client: Client, spec: Spec, region: string, ctx: CallContext): Promise<Observation<Observed>>;
  /**
   * Brings AWS to `desired`, writing `ownerTags` with any tag change, and setting again every
   * secret field in `secrets.changed`; returns the spec paths changed.
   */
  update(
    client: Client,
    desired: Spec,
    observed: Observed,
    ownerTags: OwnerTags,
    ctx: CallContext,
    secrets: SecretValues,
  ): Promise<readonly string[]>;
  /**
   * Spec fields whose values are Secret keys (a DBInstance's masterUserPassword). The reconciler
   * reads them from the resource's own namespace (a ref naming another namespace is refused),
   * re-queues the resource when such a Secret changes, and passes the values to create/update.
   * Optional: kinds without secret inputs leave it out.
   */
  secretFields?(spec: Spec): readonly SecretField[];
  /**
   * What AWS has once `update(desired, observed)` returned, for services that apply every write
   * at once and report no state of their own after it (reading again would only echo the
   * writes). Optional: without it the reconciler reads the object again after an update.
   */
  afterUpdate?(desired: Spec, observed: Observed, ownerTags: OwnerTags): Observed;
  /**
   * Adds `ownerTags` to an object that lacks them, keeping its other tags, and removes the keys
   * earlier versions wrote ownership under (`legacyOwnershipTagKeys`; tag-changes.ts `claimTags`).
   */
  claim(client: Client, observed: Observed, ownerTags: OwnerTags, ctx: CallContext): Promise<void>;
  /**
   * Deletes; "not-found" when it was already gone. `annotations` are the resource's own, for
   * kinds whose deletion ACK tunes with them (an RDS final snapshot).
   */
  delete(
    client: Client,
    spec: Spec,
    ctx: CallContext,
    annotations: Readonly<Record<string, string>>,
  ): Promise<"deleted" | "not-found">;
  /** Spec paths where AWS differs from `desired` (ownership tags never count). */
  diff(desired: Spec, observed: Observed): readonly string[];
  /** The kind has fields `lateInitialize` fills: a synced resource says so (ACK.LateInitialized). */
  readonly lateInitializes?: true;
  /** Fills spec fields the user left out with AWS's values (ACK late initialisation). */
  lateInitialize(
    spec: Spec,
    observed: Observed,
  ): { readonly spec: Spec; readonly initialized: readonly string[] };
  /** The spec that describes what AWS has, without ownership tags (for `adopt`). */
  specFromObserved(observed: Observed, spec: Spec): Spec;
  /** The object's ARN in the decided region and account (S3's ARNs name neither). */
  arn(spec: Spec, region: string, account: string): string;
  /**
   * The ARN AWS answered, for a kind whose ARN cannot be composed (a secret's random suffix):
   * status records it rather than `arn`'s. Optional.
   */
  answeredArn?(observed: Observed): string | undefined;
  /**
   * Kind-specific status fields from what AWS has (a queue's URL, a table's status, an
   * instance's endpoint), written beside ackResourceMetadata at each sync. Optional.
   */
  statusFrom?(observed: Observed): Readonly<Record<string, unknown>>;
  /**
   * While AWS is still working on the object (a table CREATING, an instance modifying): why, in
   * AWS's words. The reconciler then writes nothing to AWS, reports ACK.ResourceSynced=False
   * with this message and looks again after `requeueAfterMs` (default 10 s) — never blocking a
   * worker on a long-running state. Optional: kinds that are ready at once leave it out.
   */
  busy?(
    observed: Observed,
  ): { readonly reason: string; readonly message: string; readonly requeueAfterMs?: number } | undefined;
  /** The region AWS reports the resource in, when it reports one. */
  observedRegion(observed: Observed): string | undefined;
  /** Whether retrying cannot fix this AWS error. */
  isTerminal(err: unknown): boolean;
  /** A one-line, user-facing description of an AWS error (names the field and the fix). */
  describeError(err: unknown, spec: Spec): string;
}
