// Reconciles one managed AWS resource (any kind with a ServiceModule), ACK-style, as a sequence
// of named steps that each return an Outcome (the decisions between them are pure, in
// reconcile-plan.ts and ownership.ts):
//
//   sync:     decide → read policies and spec → ensure finalizer → connect (credentials,
//             account) → check the recorded account → [per AWS object, one at a time]
//             observe → judge ownership → create (intent recorded first) / adopt / finish an
//             interrupted create / update → late-initialise → record status
//             (after its own create only what AWS decides is read, module.readCreated; after an
//             update nothing is read back where AWS applies writes at once, module.afterUpdate)
//   finalize: plan (read-only and retain need no identity) → connect → observe → delete only
//             what this object owns → drop the finalizer
//
// Safety rules (DESIGN §3.4–3.5): nothing is called in AWS unless the decision is a clean
// `use`; status is a record, never an input (it can only stop a reconcile); the tags on the AWS
// object, not status, decide whether it is ours to update or delete.
import type { Logger } from "pino";
import type { DeletionPolicy } from "../api/annotations.ts";
import { CredentialError } from "../credentials/errors.ts";
import type { CredentialService } from "../credentials/service.ts";
import type { ResourceRef } from "../credentials/types.ts";
import type { Decision, Settings } from "../resolver/types.ts";
import { type Condition, conditionsEqual } from "../runtime/conditions.ts";
import type { EventRecorder } from "../runtime/events.ts";
import { addFinalizer, hasFinalizer, removeFinalizer } from "../runtime/finalizers.ts";
import type { Informer } from "../runtime/informer.ts";
import { KeyedMutex } from "../runtime/keyed-mutex.ts";
import {
  getIfExists,
  isConflict,
  isNotFound,
  KubeApiError,
  type KubeClient,
  patchTypes,
} from "../runtime/kube-client.ts";
import { type KubeObject, objectPath, type ResourceType } from "../runtime/kube-object.ts";
import {
  type ReconcileContext,
  type ReconcileRequest,
  type Result,
  TerminalError,
} from "../runtime/reconcile.ts";
import type { CallContext } from "../services/call-context.ts";
import {
  noSecrets,
  type Observation,
  type OwnerTags,
  type SecretValues,
  type ServiceModule,
} from "../services/service-module.ts";
import { canonicalJson } from "../toolkit/canonical-json.ts";
import { causeOfType } from "../toolkit/cause-chain.ts";
import {
  type FailureState,
  iamRoleSelectedFor,
  nextConditions,
  type SyncState,
  syncStateForDecision,
} from "./ack-conditions.ts";
import type { ConfigCache } from "./config-cache.ts";
import { secretType } from "./config-types.ts";
import { type ControllerKey, ControllerKeyError, type ControllerKeyStore } from "./controller-key.ts";
import {
  type CreateIntent,
  createdSinceAbsent,
  createRefused,
  defaultIntentWindowMs,
  hasIntent,
  pendingCreate,
  type RecordedIntent,
  recordedIntent,
  sealIntent,
  unfinishedCreate,
} from "./create-intent.ts";
import { DecisionMemo } from "./decision-memo.ts";
import type { DecisionTracker } from "./decision-tracker.ts";
import { kubeApiErrorIn, kubeFailureState } from "./kube-failure.ts";
import { judgeOwnership, type Owner, ownershipTags } from "./ownership.ts";
import { type ResourcePolicies, readPolicies } from "./policies.ts";
import {
  checkAccount,
  checkRegion,
  describeTarget,
  type Found,
  planAfterCreate,
  planDelete,
  planFinalize,
  planSync,
  type SyncPlan,
  type Target,
} from "./reconcile-plan.ts";
import {
  appliedSecretsField,
  changedSecretPaths,
  readSecretInputs,
  type SecretGetter,
  type SecretObject,
  secretFingerprint,
} from "./secret-inputs.ts";
import type { SelfWrites } from "./self-writes.ts";
import { checkSpecWrite, checkStatusWrite, WriteRefused } from "./write-check.ts";

/** A managed resource as it sits in the informer cache. */
export type ManagedObject = KubeObject & {
  spec?: Record<string, unknown>;
  status?: {
    ackResourceMetadata?: AckResourceMetadata;
    conditions?: Condition[];
    [k: string]: unknown;
  };
};

export interface AckResourceMetadata {
  arn?: string;
  ownerAccountID?: string;
  region?: string;
  iamRoleSelector?: { selectorName: string; resourceVersion: string };
  identity?: { source: string; roleARN: string | null; sessionName: string | null };
}

export interface ReconcilerDeps<Spec extends object, Observed, Client> {
  readonly module: ServiceModule<Spec, Observed, Client>;
  readonly resourceType: ResourceType;
  readonly kube: KubeClient;
  readonly informer: Informer<ManagedObject>;
  readonly config: ConfigCache;
  readonly credentials: CredentialService;
  readonly events: EventRecorder;
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
  /** Reads a Secret a spec field references (default: a GET through `kube`). */
  readonly getSecret?: SecretGetter;
  /** How soon a `wait` decision is retried (DESIGN §3.3: 15 s). */
  readonly waitRequeueMs?: number;
  /** The key that seals create intents and secret fingerprints in status (controller-key.ts). */
  readonly controllerKey: ControllerKeyStore;
  /** How long a create may land after its intent (--create-intent-window-seconds; create-intent.ts). */
  readonly createIntentWindowMs?: number;
  readonly now?: () => Date;
}

export const finalizerFor = (rt: ResourceType): string => `finalizers.${rt.group}/${rt.kind}`;

/** How a step ended. Only `settle` turns it into status, Events and the runtime's Result. */
type Outcome =
  | { readonly kind: "done"; readonly requeueAfterMs?: number }
  | {
      readonly kind: "failed";
      readonly state: FailureState;
      /** backoff: retry with the queue's backoff; none: wait for a change; a number: requeue after. */
      readonly retry: "backoff" | "none" | number;
      readonly cause?: unknown;
      /** Status fields to write with the failure (e.g. a refused create's intent cleared). */
      readonly status?: Readonly<Record<string, unknown>>;
    };

const done: Outcome = { kind: "done" };

type Failed = Extract<Outcome, { readonly kind: "failed" }>;

function failed(state: FailureState, retry?: "backoff" | "none" | number, cause?: unknown): Failed {
  return {
    kind: "failed",
    state,
    retry: retry ?? (state.kind === "terminal" ? "none" : "backoff"),
    ...(cause === undefined ? {} : { cause }),
  };
}

/** An error already written to status; the runtime retries it with backoff without rewriting it. */
class Reported extends Error {}

/** One reconcile of one object: what every step reads. */
interface Attempt {
  /** The object as last written (updated when the finalizer is added or the spec patched). */
  obj: ManagedObject;
  readonly decision: Decision;
  readonly ref: ResourceRef;
  readonly key: string;
  readonly owner: Owner;
  readonly call: CallContext;
  readonly log: Logger;
  /**
   * Whether a write of ours was still unseen when `obj` was taken from the cache, so `obj` may
   * be older than what this controller last wrote. Taken in the same synchronous step as `obj`:
   * an echo that arrives during a later await updates the cache, not `obj`.
   */
  readonly cacheMayLag: boolean;
  /**
   * Set once this attempt called create: deletes what the create made if the Kubernetes object
   * turns out to be gone (another controller released it meanwhile), so nothing is orphaned.
   */
  onGone?: () => Promise<void>;
  /** The controller's key, once this attempt needed it. */
  controllerKey?: ControllerKey;
}

/** The spec's secret field values, and the Secret versions to record once AWS has them. */
interface Inputs {
  readonly secrets: SecretValues;
  readonly versions: Readonly<Record<string, string>>;
}

const noInputs: Inputs = { secrets: noSecrets, versions: {} };

/** Credentials and the account they act in. */
interface Connection<Client> {
  readonly client: Client;
  readonly account: string;
}

/**
 * Whether `wanted` is what the apiserver already stores. The apiserver hands objects back with
 * keys sorted and prunes nulls (the schema declares no nullable status field), so a plain
 * JSON.stringify comparison saw a change on every reconcile and patched status each time.
 */
function sameAsStored(wanted: unknown, stored: unknown): boolean {
  return (
    canonicalJson(wanted, { omitNullMembers: true }) === canonicalJson(stored, { omitNullMembers: true })
  );
}

/**
 * The JSON merge patch (RFC 7386) that turns `from` into `to`: keys `to` lacks become null, so
 * the apiserver removes them instead of keeping them.
 */
function mergePatchReplacing(from: unknown, to: unknown): unknown {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  if (!isObject(from) || !isObject(to)) return to;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(from)) if (to[k] === undefined) out[k] = null;
  for (const [k, v] of Object.entries(to)) if (v !== undefined) out[k] = mergePatchReplacing(from[k], v);
  return out;
}

/** True when `err` (or anything in its cause chain) is a credential failure. */
function credentialFailure(err: unknown): CredentialError | undefined {
  return causeOfType(err, CredentialError);
}

export function createResourceReconciler<Spec extends object, Observed, Client>(
  d: ReconcilerDeps<Spec, Observed, Client>,
): (req: ReconcileRequest, ctx?: ReconcileContext) => Promise<Result> {
  const now = d.now ?? (() => new Date());
  const waitRequeueMs = d.waitRequeueMs ?? 15_000;
  const finalizer = finalizerFor(d.resourceType);
  const kindName = d.module.kind.kind;
  const locks = d.objectLocks ?? new KeyedMutex();
  const intentWindowMs = d.createIntentWindowMs ?? defaultIntentWindowMs;
  const decisions = d.decisions ?? new DecisionMemo(d.settings);
  const getSecret: SecretGetter =
    d.getSecret ??
    ((namespace, name) => getIfExists<SecretObject>(d.kube, objectPath(secretType, namespace, name)));

  // ---- status and Events ----

  /**
   * `ifUnchanged`: only if the object is still the version `a.obj` is (409 Conflict otherwise),
   * for a write that must not land on an object that changed meanwhile (a create intent).
   */
  async function patchStatus(
    a: Attempt,
    status: Record<string, unknown>,
    ifUnchanged = false,
  ): Promise<ManagedObject> {
    const precondition = ifUnchanged ? { metadata: { resourceVersion: a.obj.metadata.resourceVersion } } : {};
    return d.kube.request<ManagedObject>({
      method: "PATCH",
      path: objectPath(d.resourceType, a.ref.namespace, a.ref.name, "status"),
      contentType: patchTypes.merge,
      body: { ...precondition, status },
      ...(a.call.signal ? { signal: a.call.signal } : {}),
    });
  }

  /** Writes conditions (and metadata, extra fields) only when something changed. */
  async function writeStatus(
    a: Attempt,
    state: SyncState,
    metadata?: AckResourceMetadata,
    extra?: Readonly<Record<string, unknown>>,
    ifUnchanged = false,
  ): Promise<void> {
    const obj = a.obj;
    const current = obj.status?.conditions;
    const conditions = nextConditions(
      current,
      state,
      iamRoleSelectedFor(a.decision),
      obj.metadata.generation,
      now(),
      a.decision.warnings,
    );
    const metaChanged = metadata !== undefined && !sameAsStored(metadata, obj.status?.ackResourceMetadata);
    const extraChanged =
      extra !== undefined && Object.entries(extra).some(([k, v]) => !sameAsStored(v, obj.status?.[k]));
    if (conditionsEqual(current, conditions) && !metaChanged && !extraChanged) return;
    const status = { conditions, ...(metadata ? { ackResourceMetadata: metadata } : {}), ...extra };
    // Never send what the kind's own CRD refuses: a 422 would come back on every retry.
    const refused = checkStatusWrite({ kind: kindName, parseStatus: d.module.parseStatus, status });
    if (refused) throw new WriteRefused(refused);
    // The answer carries the new resourceVersion the finalizer patches are checked against.
    a.obj = await patchStatus(a, status, ifUnchanged);
    d.selfWrites?.record(a.key, a.obj);
  }

  /** status.ackResourceMetadata for the decided target: ARN, account, region, identity. */
  function metadataAt(a: Attempt, spec: Spec, target: Target): AckResourceMetadata {
    const decision = a.decision;
    const last = decision.chain.at(-1);
    return {
      arn: d.module.arn(spec, target.region, target.account),
      ownerAccountID: target.account,
      region: target.region,
      ...(decision.selector
        ? {
            iamRoleSelector: {
              selectorName: decision.selector.name,
              resourceVersion: decision.selector.resourceVersion,
            },
          }
        : {}),
      identity: {
        source: decision.source ?? "default",
        roleARN: decision.roleARN,
        sessionName: last?.parameters.sessionName ?? null,
      },
    };
  }

  /** One log line and Events when the decision changed (DESIGN §3.3, §4). */
  function announce(obj: ManagedObject, key: string, decision: Decision): void {
    if (!d.tracker.record(key, decision)) return;
    if (decision.outcome === "use" && !decision.drift) {
      const last = decision.chain.at(-1);
      void d.events.event(
        obj,
        "Normal",
        "IdentitySelected",
        `Using ${decision.roleARN ?? "the controller's own credentials"} (${decision.source}${last ? `: ${last.kind} ${last.name}` : ""}) in account ${decision.account ?? "of the caller"}, region ${decision.region}`,
      );
    }
    for (const warning of decision.warnings)
      void d.events.event(obj, "Warning", warning.reason, warning.message);
  }

  /**
   * The end of every reconcile: a failure is written to status with a Warning Event; the
   * runtime gets a Result, a TerminalError (not retried) or a Reported error (backoff).
   */
  async function settle(a: Attempt, outcome: Outcome): Promise<Result> {
    if (outcome.kind === "done") {
      return outcome.requeueAfterMs === undefined ? {} : { requeueAfter: outcome.requeueAfterMs };
    }
    const { state, retry, cause } = outcome;
    await writeStatus(a, state, undefined, outcome.status);
    void d.events.event(a.obj, "Warning", state.reason, state.message);
    a.log.debug(
      { resource: `${kindName} ${a.key}`, reason: state.reason, err: state.message },
      "reconcile failed (reported in status)",
    );
    if (state.kind === "terminal") throw new TerminalError(state.message, { cause });
    if (retry === "backoff") throw new Reported(state.message, { cause });
    return retry === "none" ? {} : { requeueAfter: retry };
  }

  // ---- steps shared by sync and finalize ----

  function policiesOf(a: Attempt): ResourcePolicies | Outcome {
    const r = readPolicies(
      a.obj.metadata.annotations,
      d.config.namespaceAnnotations(a.ref.namespace),
      d.module.kind.service,
      d.deletionPolicy,
    );
    if (r.ok) return r.value;
    return failed({ kind: "terminal", reason: "InvalidAnnotation", message: r.error });
  }

  function specOf(a: Attempt): Spec | Outcome {
    const r = d.module.parseSpec(a.obj.spec);
    if (r.ok) return r.value;
    return failed({ kind: "terminal", reason: "InvalidSpec", message: r.message });
  }

  /** Secret-backed spec fields, read from the resource's own namespace only (secret-inputs.ts). */
  async function inputsOf(a: Attempt, spec: Spec): Promise<Inputs | Outcome> {
    const fields = d.module.secretFields?.(spec) ?? [];
    if (fields.length === 0) return noInputs;
    const key = await keyFor(a);
    if (isOutcome(key)) return key;
    const r = await readSecretInputs(
      fields,
      a.ref.namespace,
      kindName,
      a.obj.status?.[appliedSecretsField],
      getSecret,
      (path, value) => secretFingerprint(key, a.owner.uid, path, value),
    );
    if (!r.ok) return failed(r.state, r.retry === "wait" ? waitRequeueMs : "none");
    // About to send a Secret's value again: the cache may not hold our own last status write yet
    // (its watch event lags under load), and a stale appliedSecrets would resend a value AWS
    // already has. Only then ask the apiserver for the object, once: exact, and rare. Only the
    // record differs there; the Secrets just read stay as they are.
    if (r.secrets.changed.length > 0 && a.cacheMayLag) {
      const live = await getIfExists<ManagedObject>(
        d.kube,
        objectPath(d.resourceType, a.ref.namespace, a.ref.name),
        a.call.signal,
      );
      if (live !== undefined && live.metadata.resourceVersion !== a.obj.metadata.resourceVersion) {
        const changed = changedSecretPaths(r.versions, live.status?.[appliedSecretsField]);
        return { secrets: { ...r.secrets, changed }, versions: r.versions };
      }
    }
    return { secrets: r.secrets, versions: r.versions };
  }

  /** Credentials for exactly the decided chain, and the account they act in. */
  async function connect(a: Attempt): Promise<Connection<Client> | Outcome> {
    try {
      const client = await d.module.client(d.credentials, a.decision, a.ref);
      const account = a.decision.account ?? (await d.credentials.callerIdentity(a.decision, a.ref)).account;
      return { client, account };
    } catch (err) {
      return failed(
        { kind: "recoverable", reason: "CredentialsUnavailable", message: errorText(err) },
        "backoff",
        err,
      );
    }
  }

  /** Where the spec's object is in AWS: its name, in the account and region decided. */
  function targetOf(spec: Spec, account: string, region: string): Target {
    // Messages name the kind as users write it (DBInstance, not "dbinstance" or "Dbinstance").
    return {
      noun: kindName,
      name: d.module.identifier(spec),
      account,
      region,
      nameField: d.module.identifierField,
    };
  }

  /**
   * connect, then the account it acts in against the one status recorded (checkAccount): a
   * mismatch blocks, or with --account-drift-policy=recreate is followed with a Warning Event
   * (checkAccount never lets a delete follow: the recorded object is the one to delete).
   */
  async function connectInRecordedAccount(
    a: Attempt,
    deleting: boolean,
  ): Promise<Connection<Client> | Outcome> {
    const conn = await connect(a);
    if (isOutcome(conn)) return conn;
    const check = checkAccount(
      a.obj.status?.ackResourceMetadata,
      conn.account,
      d.settings.accountDriftPolicy,
      deleting,
    );
    if (check.do === "block") return failed(check.state);
    if (check.do === "follow") void d.events.event(a.obj, "Warning", "AccountDrift", check.event);
    return conn;
  }

  /**
   * What AWS has under the spec's name, and whose it is. `justCreated`: this reconcile's own
   * create answered that it made the object, after a read found nothing (see ownership.ts,
   * createdSinceAbsent): then only what AWS decides is read, and an untagged object's creation
   * time need not be asked for.
   */
  async function observe(
    a: Attempt,
    conn: Connection<Client>,
    spec: Spec,
    target: Target,
    intent: CreateIntent | undefined,
    justCreated?: { readonly absentAt: Date; readonly answeredAt: Date },
  ): Promise<{ observation: Observation<Observed>; found: Found }> {
    const observation =
      justCreated && d.module.readCreated
        ? await d.module.readCreated(conn.client, spec, target.region, a.call)
        : await d.module.read(conn.client, spec, a.call);
    if (!observation.found) return { observation, found: observation };
    const ownership = judgeOwnership(d.module.tagsOf(observation.observed), a.owner);
    let unfinished = false;
    // Only kinds whose create can leave an untagged object (createdAt) finish one; for the
    // others an untagged object is never their own create's.
    if (ownership.kind === "untagged" && intent !== undefined && d.module.createdAt) {
      unfinished =
        (justCreated !== undefined &&
          createdSinceAbsent(intent, target, justCreated.absentAt, justCreated.answeredAt, intentWindowMs)) ||
        unfinishedCreate(intent, target, await d.module.createdAt(conn.client, spec, a.call), intentWindowMs);
    }
    return { observation, found: { found: true, ownership, unfinishedCreate: unfinished } };
  }

  /**
   * A step among the AWS calls failed: classified and reported as what it was. Credential
   * failures keep their own reason; a value the kind's schema cannot record, and a failed
   * Kubernetes call, are said as such (never as the AWS read they happened beside).
   */
  function awsFailure(err: unknown, spec: Spec, reason: string): Failed {
    if (credentialFailure(err)) {
      return failed(
        { kind: "recoverable", reason: "CredentialsUnavailable", message: errorText(err, spec) },
        "backoff",
        err,
      );
    }
    if (err instanceof WriteRefused) return failed(err.state, "none", err);
    const kube = kubeApiErrorIn(err);
    if (kube) return failed(kubeFailureState(kube, d.resourceType), undefined, err);
    const kind = d.module.isTerminal(err) ? "terminal" : "recoverable";
    return failed({ kind, reason, message: errorText(err, spec) }, undefined, err);
  }

  /** A one-line message for status: credential errors already name the identity, hop and fix. */
  function errorText(err: unknown, spec?: Spec): string {
    const credential = credentialFailure(err);
    if (credential) return credential.message;
    const kube = kubeApiErrorIn(err);
    if (kube) return kubeFailureState(kube, d.resourceType).message;
    if (spec === undefined) return err instanceof Error ? err.message : String(err);
    return d.module.describeError(err, spec);
  }

  const lockKey = (target: Target): string => `${d.module.kind.service}/${target.account}/${target.name}`;

  // ---- sync ----

  async function sync(a: Attempt): Promise<Outcome> {
    const blocked = syncStateForDecision(a.decision);
    if (blocked) {
      if (blocked.kind === "terminal") return failed(blocked);
      return failed(blocked, a.decision.outcome === "wait" ? waitRequeueMs : "none");
    }
    const region = a.decision.region;
    if (region === null) {
      return failed(
        { kind: "recoverable", reason: "IdentityUnavailable", message: "no region decided" },
        waitRequeueMs,
      );
    }
    const policies = policiesOf(a);
    if (isOutcome(policies)) return policies;
    const spec = specOf(a);
    if (isOutcome(spec)) return spec;
    const inputs = await inputsOf(a, spec);
    if (isOutcome(inputs)) return inputs;
    if (!policies.readOnly) {
      const before = a.obj;
      a.obj = await addFinalizer(d.kube, d.resourceType, a.obj, finalizer, a.call.signal);
      if (a.obj !== before) d.selfWrites?.record(a.key, a.obj);
    }
    const conn = await connectInRecordedAccount(a, false);
    if (isOutcome(conn)) return conn;

    const target = targetOf(spec, conn.account, region);
    try {
      return await locks.run(lockKey(target), () => converge(a, conn, spec, inputs, policies, target));
    } catch (err) {
      if (objectGone(err)) throw err;
      return awsFailure(err, spec, "AWSError");
    }
  }

  /** Observe → judge → create / adopt / update → late-initialise → record: one AWS object, locked. */
  async function converge(
    a: Attempt,
    conn: Connection<Client>,
    specIn: Spec,
    inputsIn: Inputs,
    policies: ResourcePolicies,
    target: Target,
  ): Promise<Outcome> {
    let spec = specIn;
    let inputs = inputsIn;
    const ownerTags: OwnerTags = ownershipTags(a.owner);
    const recorded = await intentIn(a);
    if (isOutcome(recorded)) return recorded;
    let intent = recorded.kind === "verified" ? recorded.intent : undefined;
    // When the read started: a create that follows can only make the object after this.
    const readAt = now();
    let { observation, found } = await observe(a, conn, spec, target, intent);
    let plan: SyncPlan = planSync({
      found,
      readOnly: policies.readOnly,
      adoptionPolicy: policies.adoptionPolicy,
      target,
      pending: pendingCreate(intent, target, readAt, intentWindowMs),
      ignoredIntent: recorded.kind === "ignored" ? recorded.why : undefined,
    });
    let extraStatus: Readonly<Record<string, unknown>> = {};

    if (plan.do === "awaitCreate") {
      await writeStatus(a, plan.state, metadataAt(a, spec, target));
      return { kind: "done", requeueAfterMs: pollUntil(plan.until) };
    }
    if (plan.do === "create") {
      // Synced before, with no create of ours in flight, and now nothing in AWS: it was deleted
      // out of band. (Status is a record: it only changes the wording of the Event below.)
      const vanished =
        intent === undefined &&
        a.obj.status?.conditions?.some((c) => c.type === "ACK.ResourceSynced" && c.status === "True") ===
          true;
      const key = await keyFor(a);
      if (isOutcome(key)) return key;
      const sealed = await recordIntent(a, spec, target, key);
      if (isOutcome(sealed)) return sealed;
      intent = sealed;
      a.onGone = () => deleteWhatWasMade(a, conn, spec, target, sealed);
      let created: Awaited<ReturnType<typeof d.module.create>>;
      try {
        created = await d.module.create(conn.client, spec, target.region, ownerTags, a.call, inputs.secrets);
      } catch (err) {
        if (!createRefused(err)) throw err;
        // AWS refused it outright: nothing was made, so the intent is settled and a retry may
        // create again. (A timeout or a 5xx proves nothing: the intent's window stays open.)
        return { ...awsFailure(err, spec, "AWSError"), status: { intent: null } };
      }
      if (created.created) {
        extraStatus = { ...created.status, ...appliedSecrets(inputs) };
        // The create carried every secret value: nothing to send again in this reconcile.
        inputs = { ...inputs, secrets: { ...inputs.secrets, changed: [] } };
        // Whatever it held is gone: say so loudly, not as a routine creation.
        const arn = d.module.arn(spec, target.region, target.account);
        void (vanished
          ? d.events.event(
              a.obj,
              "Warning",
              "Recreated",
              `${arn} was not found in account ${target.account} (${target.region}): it was deleted outside crossrole; created it again, empty`,
            )
          : d.events.event(
              a.obj,
              "Normal",
              "Created",
              `Created ${arn} in account ${target.account} (${target.region})`,
            ));
      }
      const justCreated = created.created ? { absentAt: readAt, answeredAt: now() } : undefined;
      ({ observation, found } = await observe(a, conn, spec, target, intent, justCreated));
      // S3 may not show a new bucket everywhere at once: look again shortly.
      if (!observation.found) return { kind: "done", requeueAfterMs: 1_000 };
      plan = planAfterCreate(found, target);
    }
    if (plan.do === "fail") return failed(plan.state);
    if (!observation.found) return { kind: "done", requeueAfterMs: 1_000 };

    // Never write to (tag, adopt, update) an object in another region than decided.
    const regionDrift = checkRegion(d.module.observedRegion(observation.observed), target.region);
    if (regionDrift) return failed(regionDrift);

    // AWS is still working on it (creating, modifying): touch nothing, say so, look again later.
    const busy = await whileBusy(a, spec, target, observation.observed, extraStatus);
    if (busy) return busy;

    if (plan.do === "finishCreate" || plan.do === "adopt") {
      await d.module.claim(conn.client, observation.observed, ownerTags, a.call);
      if (plan.do === "finishCreate") {
        void d.events.event(
          a.obj,
          "Normal",
          "CreateCompleted",
          `Tagged ${describeTarget(target)} as this object's: its create had been interrupted before the tags were written`,
        );
      } else {
        // adopt is a strict import: the spec becomes what AWS has. adopt-or-create keeps the
        // manifest as the source of truth (ACK): it is applied below like any update.
        if (plan.strict) spec = d.module.specFromObserved(observation.observed, spec);
        void d.events.event(
          a.obj,
          "Normal",
          "Adopted",
          `Adopted ${d.module.arn(spec, target.region, target.account)} in account ${target.account} (${found.found && found.ownership.kind === "earlier" ? "left by an earlier object of this name" : "not tagged by crossrole"})`,
        );
      }
    }

    if (plan.do !== "observe") {
      // A Secret changed since its value was last given to AWS (which never shows it back).
      const drift = [...d.module.diff(spec, observation.observed), ...inputs.secrets.changed];
      if (drift.length > 0) {
        const changed = await d.module.update(
          conn.client,
          spec,
          observation.observed,
          ownerTags,
          a.call,
          inputs.secrets,
        );
        extraStatus = { ...extraStatus, ...appliedSecrets(inputs) };
        if (changed.length > 0) {
          void d.events.event(
            a.obj,
            "Normal",
            "Updated",
            `Brought ${changed.join(", ")} back to the desired state`,
          );
        }
        // Where AWS applies writes at once, a read would only echo them (module.afterUpdate).
        observation = d.module.afterUpdate
          ? { found: true, observed: d.module.afterUpdate(spec, observation.observed, ownerTags) }
          : await d.module.read(conn.client, spec, a.call);
        if (!observation.found) return { kind: "done", requeueAfterMs: 1_000 };
        // The update may have started a long-running change (an index building, a modify).
        const stillBusy = await whileBusy(a, spec, target, observation.observed, extraStatus);
        if (stillBusy) return stillBusy;
      }
    }

    await lateInitialize(a, spec, observation.observed, plan.do === "adopt" && plan.strict);
    await writeStatus(a, { kind: "synced" }, metadataAt(a, spec, target), {
      ...extraStatus,
      ...d.module.statusFrom?.(observation.observed),
      intent: null,
    });
    return done;
  }

  /** While AWS is working on the object: progressing status with AWS's words, a later look. */
  async function whileBusy(
    a: Attempt,
    spec: Spec,
    target: Target,
    observed: Observed,
    extraStatus: Readonly<Record<string, unknown>>,
  ): Promise<Outcome | undefined> {
    const busy = d.module.busy?.(observed);
    if (!busy) return undefined;
    await writeStatus(
      a,
      { kind: "progressing", reason: busy.reason, message: busy.message },
      metadataAt(a, spec, target),
      { ...extraStatus, ...d.module.statusFrom?.(observed) },
    );
    return { kind: "done", requeueAfterMs: busy.requeueAfterMs ?? 10_000 };
  }

  /**
   * Intent before action (DESIGN §3.5): the identifier, account and region go into status
   * before the create call, so an interrupted create is recognised, never assumed to have failed.
   */
  async function recordIntent(
    a: Attempt,
    spec: Spec,
    target: Target,
    key: ControllerKey,
  ): Promise<CreateIntent | Outcome> {
    const intent = sealIntent(key, a.owner, target, now());
    try {
      await writeStatus(
        a,
        { kind: "progressing", reason: "Creating", message: `Creating ${describeTarget(target)}` },
        metadataAt(a, spec, target),
        { intent },
        // Only on the object as it was read: one being deleted meanwhile, or changed by another
        // controller, is looked at again instead of getting a create.
        true,
      );
    } catch (err) {
      if (isConflict(err)) return { kind: "done", requeueAfterMs: 1_000 };
      throw err;
    }
    return intent;
  }

  /**
   * The Kubernetes object went away while this attempt's create was in flight (another
   * controller released it): delete what the create made, unless it is to be retained, so that
   * nothing is left with nobody owning it. Best effort, once: the object is gone, nothing will
   * reconcile it again, so a failure is logged with what to delete by hand.
   */
  async function deleteWhatWasMade(
    a: Attempt,
    conn: Connection<Client>,
    spec: Spec,
    target: Target,
    intent: CreateIntent,
  ): Promise<void> {
    const what = describeTarget(target);
    const fields = { event: "resource.gone-during-create", resource: `${kindName} ${a.key}`, target: what };
    try {
      const policies = policiesOf(a);
      if (isOutcome(policies) || policies.deletionPolicy === "retain") {
        a.log.warn(
          fields,
          "the resource was deleted while its create was in flight; retained as its policy says",
        );
        return;
      }
      await locks.run(lockKey(target), async () => {
        const { found } = await observe(a, conn, spec, target, intent);
        if (planDelete(found, target).do !== "delete") {
          a.log.warn(
            fields,
            `the resource was deleted while its create was in flight; nothing of it is in AWS now (should ${what} appear later with this object's tags, delete it by hand)`,
          );
          return;
        }
        await d.module.delete(conn.client, spec, a.call, a.obj.metadata.annotations ?? {});
        a.log.warn(
          fields,
          "the resource was deleted while its create was in flight; deleted what the create made",
        );
      });
    } catch (err) {
      a.log.error(
        { ...fields, err: errorText(err, spec) },
        "the resource was deleted while its create was in flight and what the create made could not be deleted: delete it by hand",
      );
    }
  }

  /** The controller's key (controller-key.ts), or why it is not available: then nothing is created. */
  async function keyFor(a: Attempt): Promise<ControllerKey | Outcome> {
    if (a.controllerKey) return a.controllerKey;
    try {
      a.controllerKey = await d.controllerKey.get(a.call.signal);
      return a.controllerKey;
    } catch (err) {
      if (!(err instanceof ControllerKeyError)) throw err;
      return failed(
        { kind: "recoverable", reason: "ControllerKeyUnavailable", message: err.message },
        "backoff",
        err,
      );
    }
  }

  /** status.intent, judged with the controller's key (which is read only when there is one). */
  async function intentIn(a: Attempt): Promise<RecordedIntent | Outcome> {
    if (!hasIntent(a.obj.status)) return { kind: "none" };
    const key = await keyFor(a);
    if (isOutcome(key)) return key;
    return recordedIntent(a.obj.status, key, a.owner);
  }

  /** When to look again for a create that may still land: soon, and once more as its window closes. */
  function pollUntil(until: Date): number {
    const left = until.getTime() - now().getTime();
    return Math.max(250, Math.min(pendingPollMs, left + 50));
  }

  /** Copies AWS's defaults into the spec; a strict adoption replaces the spec with AWS's. */
  async function lateInitialize(
    a: Attempt,
    spec: Spec,
    observed: Observed,
    strictAdoption: boolean,
  ): Promise<void> {
    const late = d.module.lateInitialize(spec, observed);
    // A strict adoption replaces the spec: fields AWS does not have must go, which a merge
    // patch of the new spec alone would leave in place (and the next reconcile would apply).
    const specPatch = strictAdoption
      ? mergePatchReplacing(a.obj.spec, late.spec)
      : late.initialized.length > 0
        ? late.spec
        : undefined;
    if (specPatch === undefined) return;
    // AWS's values may not fit the kind's schema: say which, instead of a 422 on every retry.
    const refused = checkSpecWrite({
      kind: kindName,
      parseSpec: d.module.parseSpec,
      current: a.obj.spec ?? {},
      next: late.spec,
      filled: late.initialized,
      strictAdoption,
    });
    if (refused) throw new WriteRefused(refused);
    a.obj = await d.kube.request<ManagedObject>({
      method: "PATCH",
      path: objectPath(d.resourceType, a.ref.namespace, a.ref.name),
      contentType: patchTypes.merge,
      body: { spec: specPatch },
      ...(a.call.signal ? { signal: a.call.signal } : {}),
    });
    // Its echo needs no reconcile: the status written next records this generation.
    d.selfWrites?.record(a.key, a.obj);
  }

  // ---- finalize ----

  async function finalize(a: Attempt): Promise<Outcome> {
    if (!hasFinalizer(a.obj, finalizer)) return done;
    const policies = policiesOf(a);
    if (isOutcome(policies)) return policies;
    const plan = planFinalize(policies, a.decision);
    if (plan.do === "release") {
      void d.events.event(a.obj, "Normal", "Retained", `Not deleted in AWS: ${plan.why}`);
      return release(a);
    }
    if (plan.do === "blocked") {
      if (plan.state.kind === "terminal") return failed(plan.state);
      return failed(plan.state, plan.requeue ? waitRequeueMs : "none");
    }
    const spec = specOf(a);
    if (isOutcome(spec)) return spec;
    const conn = await connectInRecordedAccount(a, true);
    if (isOutcome(conn)) return conn;
    const target = targetOf(spec, conn.account, a.decision.region ?? "");
    try {
      const outcome = await locks.run(lockKey(target), async (): Promise<Outcome | null> => {
        const recorded = await intentIn(a);
        if (isOutcome(recorded)) return recorded;
        const intent = recorded.kind === "verified" ? recorded.intent : undefined;
        const readAt = now();
        // Whether or not an ARN was ever recorded: look the name up in the decided account.
        const { found } = await observe(a, conn, spec, target, intent);
        const del = planDelete(found, target, pendingCreate(intent, target, readAt, intentWindowMs));
        if (del.do === "await") {
          await writeStatus(a, del.state);
          return { kind: "done", requeueAfterMs: pollUntil(del.until) };
        }
        if (del.do === "keep") {
          void d.events.event(a.obj, "Normal", "Retained", `Not deleted in AWS: ${del.why}`);
          return null;
        }
        if (del.do === "gone") return null;
        const result = await d.module.delete(conn.client, spec, a.call, a.obj.metadata.annotations ?? {});
        void d.events.event(
          a.obj,
          "Normal",
          "Deleted",
          `Deleted ${d.module.arn(spec, target.region, target.account)} in account ${target.account}${result === "not-found" ? " (it was already gone)" : ""}`,
        );
        return null;
      });
      if (outcome) return outcome;
    } catch (err) {
      if (objectGone(err)) throw err;
      return awsFailure(err, spec, "DeleteFailed");
    }
    return release(a);
  }

  async function release(a: Attempt): Promise<Outcome> {
    await removeFinalizer(d.kube, d.resourceType, a.obj, finalizer, a.call.signal);
    d.tracker.forget(a.key);
    d.selfWrites?.forget(a.key);
    return done;
  }

  // ---- the reconcile ----

  return async function reconcile(req: ReconcileRequest, ctx?: ReconcileContext): Promise<Result> {
    const obj = d.informer.get(req.namespace, req.name);
    const key = `${req.namespace}/${req.name}`;
    const cacheMayLag = d.selfWrites === undefined || d.selfWrites.awaitingEcho(key);
    if (!obj) {
      d.tracker.forget(key);
      d.selfWrites?.forget(key);
      return {};
    }
    const decision = decisions.decide(obj, d.config.snapshot());
    announce(obj, key, decision);
    const log = ctx?.log ?? d.logger;
    const a: Attempt = {
      obj,
      decision,
      ref: { namespace: req.namespace, kind: kindName, name: req.name },
      key,
      owner: { kind: kindName, namespace: req.namespace, name: req.name, uid: obj.metadata.uid ?? "" },
      call: { ...(ctx?.signal ? { signal: ctx.signal } : {}), log: log as Logger },
      log: log as Logger,
      cacheMayLag,
    };
    if (!a.owner.uid) {
      // Every stored object has a UID; without one nothing could prove an AWS object ours.
      return settle(
        a,
        failed({ kind: "recoverable", reason: "NoUID", message: "the object has no metadata.uid" }),
      );
    }
    try {
      const outcome = obj.metadata.deletionTimestamp ? await finalize(a) : await sync(a);
      return await settle(a, outcome);
    } catch (err) {
      if (!objectGone(err)) throw err;
      // Deleted and released meanwhile (by another controller): nothing left to reconcile, but
      // what this attempt's create made must not stay behind.
      await a.onGone?.();
      d.tracker.forget(key);
      d.selfWrites?.forget(key);
      return {};
    }
  };
}

/** How often a create that may still land is looked for. */
const pendingPollMs = 2_000;

/** The apiserver says the object itself is gone (a write to it answered 404). */
function objectGone(err: unknown): boolean {
  return err instanceof KubeApiError && isNotFound(err);
}

/** The status record of which Secret versions AWS now has (nothing for kinds without secrets). */
function appliedSecrets(inputs: Inputs): Readonly<Record<string, unknown>> {
  return Object.keys(inputs.versions).length === 0 ? {} : { [appliedSecretsField]: inputs.versions };
}

function isOutcome(v: unknown): v is Outcome {
  const kind = (v as { kind?: unknown } | null)?.kind;
  return kind === "done" || kind === "failed";
}
