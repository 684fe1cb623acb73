// Reconciles one managed AWS resource (any kind with a ServiceModule), ACK-style:
//   1. resolve the identity (pure resolver over the configuration snapshot);
//   2. anything but a clean `use` → conditions + Event, and NOTHING is called in AWS (fail closed);
//   3. otherwise, with credentials for exactly that chain: read, create / adopt / correct drift,
//      late-initialise, and record where the resource lives in status.ackResourceMetadata;
//   4. on deletion: delete in AWS (policy permitting) with the resolved identity, then drop the finalizer.
import type { Logger } from "pino";
import type { DeletionPolicy } from "../api/annotations.ts";
import { CredentialError } from "../credentials/errors.ts";
import type { CredentialService } from "../credentials/service.ts";
import type { ResourceRef } from "../credentials/types.ts";
import { resolve } from "../resolver/resolve.ts";
import type { Decision, ResourceObject, Settings } from "../resolver/types.ts";
import { type Condition, conditionsEqual } from "../runtime/conditions.ts";
import type { EventRecorder } from "../runtime/events.ts";
import { addFinalizer, hasFinalizer, removeFinalizer } from "../runtime/finalizers.ts";
import type { Informer } from "../runtime/informer.ts";
import { type KubeClient, patchTypes } from "../runtime/kubeClient.ts";
import { type KubeObject, objectPath, type ResourceType } from "../runtime/kubeObject.ts";
import { type ReconcileRequest, type Result, TerminalError } from "../runtime/reconcile.ts";
import {
  type FailureState,
  iamRoleSelectedFor,
  nextConditions,
  type SyncState,
  syncStateForDecision,
} from "./ackConditions.ts";
import type { ConfigCache } from "./configCache.ts";
import type { DecisionTracker } from "./decisionTracker.ts";
import { type ResourcePolicies, readPolicies } from "./policies.ts";
import type { ServiceModule } from "./serviceModule.ts";

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
  readonly deletionPolicy: DeletionPolicy;
  readonly logger: Logger;
  /** How soon a `wait` decision is retried (DESIGN §3.3: 15 s). */
  readonly waitRequeueMs?: number;
  readonly now?: () => Date;
}

export const finalizerFor = (rt: ResourceType): string => `finalizers.${rt.group}/${rt.kind}`;

/** An error already written to status; the runtime retries (or not, when terminal) without rewriting it. */
class Reported extends Error {}

/**
 * Whether `wanted` is what the apiserver already stores. The apiserver hands objects back with
 * keys sorted and prunes nulls (the schema declares no nullable status field), so a plain
 * JSON.stringify comparison saw a change on every reconcile and patched status each time.
 */
function sameAsStored(wanted: unknown, stored: unknown): boolean {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical);
    if (v === null || typeof v !== "object") return v;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== null && x !== undefined) out[k] = canonical(x);
    }
    return out;
  };
  return JSON.stringify(canonical(wanted) ?? null) === JSON.stringify(canonical(stored) ?? null);
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

export function createResourceReconciler<Spec extends object, Observed, Client>(
  d: ReconcilerDeps<Spec, Observed, Client>,
): (req: ReconcileRequest) => Promise<Result> {
  const now = d.now ?? (() => new Date());
  const waitRequeueMs = d.waitRequeueMs ?? 15_000;
  const finalizer = finalizerFor(d.resourceType);
  const kindName = d.module.kind.kind;

  async function patchStatus(obj: ManagedObject, status: Record<string, unknown>): Promise<void> {
    await d.kube.request({
      method: "PATCH",
      path: objectPath(d.resourceType, obj.metadata.namespace ?? "", obj.metadata.name, "status"),
      contentType: patchTypes.merge,
      body: { status },
    });
  }

  /** Writes conditions (and metadata) only when something changed. */
  async function writeStatus(
    obj: ManagedObject,
    state: SyncState,
    decision: Decision,
    metadata?: AckResourceMetadata,
    extra?: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    const current = obj.status?.conditions;
    const conditions = nextConditions(
      current,
      state,
      iamRoleSelectedFor(decision),
      obj.metadata.generation,
      now(),
    );
    const metaChanged = metadata !== undefined && !sameAsStored(metadata, obj.status?.ackResourceMetadata);
    const extraChanged =
      extra !== undefined && Object.entries(extra).some(([k, v]) => !sameAsStored(v, obj.status?.[k]));
    if (conditionsEqual(current, conditions) && !metaChanged && !extraChanged) return;
    await patchStatus(obj, { conditions, ...(metadata ? { ackResourceMetadata: metadata } : {}), ...extra });
  }

  /** Records a failure in status and returns the error the runtime should see. */
  async function fail(
    obj: ManagedObject,
    decision: Decision,
    state: FailureState,
    cause?: unknown,
  ): Promise<Error> {
    await writeStatus(obj, state, decision);
    if (state.kind === "terminal") {
      void d.events.event(obj, "Warning", state.reason, state.message);
      return new TerminalError(state.message, { cause });
    }
    void d.events.event(obj, "Warning", state.reason, state.message);
    return new Reported(state.message, { cause });
  }

  function metadataFor(
    decision: Decision,
    arn: string,
    account: string,
    region: string,
  ): AckResourceMetadata {
    const last = decision.chain.at(-1);
    return {
      arn,
      ownerAccountID: account,
      region,
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

  /** The resource's policies, or a Terminal condition naming the bad annotation. */
  async function policiesOf(obj: ManagedObject, decision: Decision): Promise<ResourcePolicies> {
    const r = readPolicies(
      obj.metadata.annotations,
      d.config.namespaceAnnotations(obj.metadata.namespace ?? ""),
      d.module.kind.service,
      d.deletionPolicy,
    );
    if (r.ok) return r.value;
    throw await fail(obj, decision, { kind: "terminal", reason: "InvalidAnnotation", message: r.error });
  }

  /** The validated spec, or a Terminal condition naming the bad field. */
  async function specOf(obj: ManagedObject, decision: Decision): Promise<Spec> {
    const r = d.module.parseSpec(obj.spec);
    if (r.ok) return r.value;
    throw await fail(obj, decision, { kind: "terminal", reason: "InvalidSpec", message: r.message });
  }

  /** The account AWS acts in for this decision: the role's, else the caller identity's (cached). */
  async function accountOf(decision: Decision, ref: ResourceRef): Promise<string> {
    if (decision.account) return decision.account;
    return (await d.credentials.callerIdentity(decision, ref)).account;
  }

  async function finalize(obj: ManagedObject, decision: Decision, ref: ResourceRef): Promise<Result> {
    if (!hasFinalizer(obj, finalizer)) return {};
    const policies = await policiesOf(obj, decision);
    const recorded = obj.status?.ackResourceMetadata;
    const skip = policies.readOnly
      ? "it is read-only"
      : policies.deletionPolicy === "retain"
        ? `the deletion policy is retain (${policies.deletionPolicySource})`
        : !recorded?.arn
          ? "it was never created in AWS"
          : undefined;
    if (skip === undefined) {
      // Delete only with a clean decision in the recorded account: never in a wrong account.
      const blocked = syncStateForDecision(decision);
      if (blocked) {
        const message = `Deletion blocked: ${blocked.message}`;
        await fail(obj, decision, { ...blocked, message });
        return decision.outcome === "wait" ? { requeueAfter: waitRequeueMs } : {};
      }
      const spec = await specOf(obj, decision);
      try {
        const client = await d.module.client(d.credentials, decision, ref);
        const account = await accountOf(decision, ref);
        if (recorded?.ownerAccountID && account !== recorded.ownerAccountID) {
          const message = `Deletion blocked: resource exists in account ${recorded.ownerAccountID}, but the role used for reconciliation is in account ${account}`;
          throw await fail(obj, decision, { kind: "terminal", reason: "AccountDrift", message });
        }
        const result = await d.module.delete(client, spec);
        void d.events.event(
          obj,
          "Normal",
          "Deleted",
          `Deleted ${recorded?.arn} in account ${account} (${result})`,
        );
      } catch (err) {
        throw await awsFailure(obj, decision, "DeleteFailed", err, spec);
      }
    } else {
      void d.events.event(obj, "Normal", "Retained", `Not deleted in AWS: ${skip}`);
    }
    await removeFinalizer(d.kube, d.resourceType, obj, finalizer);
    d.tracker.forget(`${ref.namespace}/${ref.name}`);
    return {};
  }

  /** An AWS call failed: already-reported errors pass through; others are classified and reported. */
  async function awsFailure(
    obj: ManagedObject,
    decision: Decision,
    reason: string,
    err: unknown,
    spec: Spec,
  ): Promise<Error> {
    if (err instanceof Reported || err instanceof TerminalError) return err;
    const kind = d.module.isTerminal(err) ? "terminal" : "recoverable";
    return fail(obj, decision, { kind, reason, message: errorText(err, spec) }, err);
  }

  /** A one-line message for status: credential errors already name the identity, hop and fix. */
  function errorText(err: unknown, spec: Spec): string {
    if (err instanceof CredentialError) return err.message;
    return d.module.describeError(err, spec);
  }

  return async function reconcile(req: ReconcileRequest): Promise<Result> {
    const obj = d.informer.get(req.namespace, req.name);
    const key = `${req.namespace}/${req.name}`;
    if (!obj) {
      d.tracker.forget(key);
      return {};
    }
    const ref: ResourceRef = { namespace: req.namespace, kind: kindName, name: req.name };
    const decision = resolve(
      obj as unknown as ResourceObject,
      req.namespace,
      d.config.snapshot(),
      d.settings,
    );
    if (d.tracker.record(key, decision) && decision.outcome === "use" && !decision.drift) {
      const last = decision.chain.at(-1);
      void d.events.event(
        obj,
        "Normal",
        "IdentitySelected",
        `Using ${decision.roleARN ?? "the controller's own credentials"} (${decision.source}${last ? `: ${last.kind} ${last.name}` : ""}) in account ${decision.account ?? "of the caller"}, region ${decision.region}`,
      );
    }

    try {
      if (obj.metadata.deletionTimestamp) return await finalize(obj, decision, ref);

      const blocked = syncStateForDecision(decision);
      if (blocked) {
        await fail(obj, decision, blocked);
        if (blocked.kind === "terminal") throw new TerminalError(blocked.message);
        return decision.outcome === "wait" ? { requeueAfter: waitRequeueMs } : {};
      }
      const region = decision.region;
      if (region === null) {
        throw await fail(obj, decision, {
          kind: "recoverable",
          reason: "IdentityUnavailable",
          message: "no region decided",
        });
      }

      const { readOnly, adoptionPolicy } = await policiesOf(obj, decision);

      let spec: Spec = await specOf(obj, decision);

      let current = obj;
      if (!readOnly) current = (await addFinalizer(d.kube, d.resourceType, obj, finalizer)) as ManagedObject;

      let client: Client;
      let account: string;
      try {
        client = await d.module.client(d.credentials, decision, ref);
        account = await accountOf(decision, ref);
      } catch (err) {
        throw await fail(
          current,
          decision,
          { kind: "recoverable", reason: "CredentialsUnavailable", message: errorText(err, spec) },
          err,
        );
      }
      const recorded = current.status?.ackResourceMetadata;
      if (recorded?.ownerAccountID && recorded.ownerAccountID !== account) {
        const message = `Resource already exists in account ${recorded.ownerAccountID}, but the role used for reconciliation is in account ${account}`;
        if (d.settings.accountDriftPolicy === "block")
          throw await fail(current, decision, { kind: "terminal", reason: "AccountDrift", message });
        // recreate (DESIGN §3.1.5): follow the new role; the old resource is left where it is,
        // so its ARN goes into an Event for whoever cleans up.
        void d.events.event(
          current,
          "Warning",
          "AccountDrift",
          `${message}; --account-drift-policy=recreate: following ${decision.roleARN ?? "the controller's own credentials"} into account ${account}. The old resource ${recorded.arn ?? "(no ARN recorded)"} in account ${recorded.ownerAccountID} is not deleted.`,
        );
      }

      let extraStatus: Readonly<Record<string, unknown>> = {};
      try {
        let observation = await d.module.read(client, spec);
        if (!observation.found) {
          if (readOnly || adoptionPolicy === "adopt") {
            const why = readOnly
              ? "it is read-only (services.k8s.aws/read-only)"
              : "its adoption policy is adopt (services.k8s.aws/adoption-policy)";
            throw await fail(current, decision, {
              kind: "recoverable",
              reason: "NotFound",
              message: `The resource does not exist in account ${account} (${region}), and crossrole will not create it because ${why}`,
            });
          }
          extraStatus = await d.module.create(client, spec, region);
          void d.events.event(
            current,
            "Normal",
            "Created",
            `Created ${d.module.arn(spec, region)} in account ${account} (${region})`,
          );
          observation = await d.module.read(client, spec);
          if (!observation.found) return { requeueAfter: 1_000 };
        } else {
          const observedRegion = d.module.observedRegion(observation.observed);
          if (observedRegion !== undefined && observedRegion !== region) {
            const message = `Resource already exists in region ${observedRegion}, but the desired state specifies region ${region}`;
            throw await fail(current, decision, { kind: "terminal", reason: "RegionDrift", message });
          }
          if (!recorded?.arn && adoptionPolicy !== null) {
            // adopt is a strict import: the spec becomes what AWS has. adopt-or-create keeps the
            // manifest as the source of truth (ACK): it is applied below like any update.
            if (adoptionPolicy === "adopt") spec = d.module.specFromObserved(observation.observed, spec);
            void d.events.event(
              current,
              "Normal",
              "Adopted",
              `Adopted ${d.module.arn(spec, region)} in account ${account}`,
            );
          }
          if (!readOnly) {
            const drift = d.module.diff(spec, observation.observed);
            if (drift.length > 0) {
              const changed = await d.module.update(client, spec, observation.observed);
              void d.events.event(
                current,
                "Normal",
                "Updated",
                `Brought ${changed.join(", ")} back to the desired state`,
              );
              observation = await d.module.read(client, spec);
              if (!observation.found) return { requeueAfter: 1_000 };
            }
          }
        }

        const late = d.module.lateInitialize(spec, observation.observed);
        // A strict adoption replaces the spec: fields AWS does not have must go, which a merge
        // patch of the new spec alone would leave in place (and the next reconcile would apply).
        const specPatch =
          adoptionPolicy === "adopt" && !recorded?.arn
            ? mergePatchReplacing(current.spec, late.spec)
            : late.initialized.length > 0
              ? late.spec
              : undefined;
        if (specPatch) {
          current = await d.kube.request<ManagedObject>({
            method: "PATCH",
            path: objectPath(d.resourceType, req.namespace, req.name),
            contentType: patchTypes.merge,
            body: { spec: specPatch },
          });
        }
      } catch (err) {
        throw await awsFailure(current, decision, "AWSError", err, spec);
      }

      await writeStatus(
        current,
        { kind: "synced" },
        decision,
        metadataFor(decision, d.module.arn(spec, region), account, region),
        extraStatus,
      );
      return {};
    } catch (err) {
      if (err instanceof Reported) {
        d.logger.debug(
          { resource: `${kindName} ${key}`, err: err.message },
          "reconcile failed (reported in status)",
        );
      }
      throw err;
    }
  };
}
