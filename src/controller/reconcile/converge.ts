// Step 3 of a sync: bring the one AWS object the spec names to the spec, under its lock.
//   connect (credentials, the recorded account) → [locked] observe → judge (planSync) →
//   create (intent recorded first) / adopt / finish an interrupted create / update / only
//   observe → late-initialise → record status (Synced)
// After its own create only what AWS decides is read (module.readCreated); after an update
// nothing is read back where AWS applies writes at once (module.afterUpdate). Nothing is
// written to an object in another region than decided, nor while AWS is still working on it.
import { isServedReference } from "../../services/references.ts";
import { crossroleVersion } from "../../version.ts";
import { type CreateIntent, pendingCreate } from "../create-intent.ts";
import { expandDefaultTags } from "../default-tags.ts";
import { ownershipTags } from "../ownership.ts";
import { checkRegion, planSync, type Target } from "../reconcile-plan.ts";
import { withDefaultTags, withoutDefaultTags } from "../spec-default-tags.ts";
import { claim, moveOwnershipTags } from "./adopt.ts";
import type { Attempt } from "./attempt.ts";
import { accountDrift, type Connection, connectInRecordedAccount, lockKey, targetOf } from "./connect.ts";
import { create } from "./create.ts";
import type { Env } from "./env.ts";
import { awsFailure, endsReconcile } from "./failure.ts";
import { clearIntent, holdForDeletion, intentIn, pollUntil, recordsIntent } from "./intent.ts";
import { lateInitialize } from "./late-initialize.ts";
import { observe } from "./observe.ts";
import type { Prepared } from "./prepare.ts";
import { checkReferencesInAws } from "./reference-check.ts";
import { failed, isOutcome, type Outcome, requeue, settled } from "./result.ts";
import { metadataAt, whileBusy } from "./status.ts";
import { update } from "./update.ts";

export async function converge<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  prepared: Prepared<Spec>,
): Promise<Outcome> {
  const conn = await connectInRecordedAccount(env, a, false);
  if (isOutcome(conn)) return conn;
  const target = targetOf(env, a, prepared.spec, conn.account, prepared.region);
  try {
    const refused = await checkReferencesInAws(env, a, conn, prepared.checks);
    if (refused) {
      a.references = "refused";
      return refused;
    }
    await recordReferenceUses(env, a, prepared, target);
    const outcome = await env.locks.run(lockKey(env, target), () =>
      convergeLocked(env, a, conn, prepared, target),
    );
    // Brought to its spec: uses of references it no longer sets hold nothing any more.
    if (outcome.kind === "done" && outcome.status?.state.kind === "synced" && hasServedReferences(env)) {
      const kept = new Set(prepared.checks.map((c) => c.owner.uid));
      await env.references?.uses?.forgetReferrer(a.owner.uid, kept, a.call.signal);
    }
    return outcome;
  } catch (err) {
    // The object is gone, or this replica was fenced: the reconcile ends there, not with a failure to report.
    if (endsReconcile(err)) throw err;
    return awsFailure(env, err, prepared.spec, "AWSError");
  }
}

/** Observe → judge → create / adopt / update → late-initialise → record: one AWS object, locked. */
async function convergeLocked<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  conn: Connection<Client>,
  { spec: specIn, inputs: inputsIn, policies, seeded, referenced, held }: Prepared<Spec>,
  target: Target,
): Promise<Outcome> {
  // What AWS is brought to: the user's spec with the default tags it does not set itself
  // (spec-default-tags.ts); `userSpec` is what may be written back to the Kubernetes object.
  const defaults = defaultTagsFor(env, a, target);
  let userSpec = specIn;
  let spec = withDefaultTags(env.module.specTags, userSpec, defaults).spec;
  let inputs = inputsIn;
  const ownerTags = ownershipTags(a.owner);
  const recorded = await intentIn(env, a);
  if (isOutcome(recorded)) return recorded;
  const intent = recorded.kind === "verified" ? recorded.intent : undefined;
  // A create of this object's was requested elsewhere (the decision moved since): it is a record
  // of where the object may be, as a recorded account or region is (connect.ts).
  const elsewhere = intent && intentElsewhere(env, a, intent, target);
  if (elsewhere) return elsewhere;
  // When the read started: a create that follows can only make the object after this.
  const readAt = env.now();
  let { observation, found, spec: named } = await observe(env, a, conn, spec, target, intent);
  // Named by an ID AWS assigned: the spec the module's calls take names it from here on.
  spec = named;
  let plan = planSync({
    found,
    readOnly: policies.readOnly,
    // With no spec there is nothing to create or to bring AWS to: only AWS's object, adopted as it is.
    adoptionPolicy: seeded ? "adopt" : policies.adoptionPolicy,
    target,
    pending: pendingCreate(intent, target, readAt, env.intentWindowMs),
    ignoredIntent: recorded.kind === "ignored" ? recorded.why : undefined,
    seeded,
  });
  // Already ours (tagged by an adoption whose spec write did not happen): adopt it again, never
  // "update" AWS to a seed that names it only.
  if (seeded && plan.do === "update") plan = { do: "adopt", strict: true };
  let extraStatus: Readonly<Record<string, unknown>> = {};

  if (plan.do === "awaitCreate") {
    return requeue(pollUntil(env, plan.until), {
      state: plan.state,
      metadata: metadataAt(env, a, spec, target),
    });
  }
  // Nothing of this object's is written in AWS before its finalizer is on (a create puts it on
  // with its intent). One refused here (a name taken) holds it too: its deletion then says why
  // nothing was deleted in AWS (Retained). A read-only resource never has anything deleted.
  if (plan.do !== "create" && !policies.readOnly) await holdForDeletion(env, a);
  if (plan.do === "create") {
    const made = await create(env, a, conn, spec, inputs, target, ownerTags, intent, readAt);
    if (isOutcome(made)) return made;
    ({ inputs, extraStatus, observation, found, plan, spec } = made);
  }
  if (plan.do === "fail") return failed(plan.state);
  if (!observation.found) return requeue(1_000);

  // Never write to (tag, adopt, update) an object in another region than decided.
  const regionDrift = checkRegion(env.module.observedRegion(observation.observed), target.region);
  if (regionDrift) return failed(regionDrift);

  // AWS is still working on it (creating, modifying): touch nothing, say so, look again later.
  const busy = whileBusy(env, a, spec, target, observation.observed, extraStatus);
  if (busy) return busy;

  if (plan.do === "finishCreate" || plan.do === "adopt") {
    const claimed = await claim(env, a, conn, plan, spec, observation.observed, found, target, ownerTags);
    if (claimed !== spec) {
      // A strict adoption: AWS's spec, whose default tags are the controller's, not the user's.
      userSpec = withoutDefaultTags(env.module.specTags, claimed, Object.keys(defaults));
      spec = sameObject(env, spec, withDefaultTags(env.module.specTags, userSpec, defaults).spec);
    }
  }

  let observed = observation.observed;
  if (plan.do === "update") {
    await moveOwnershipTags(env, a, conn, observed, target, ownerTags);
  }
  if (plan.do !== "observe") {
    // A field whose reference waits (needed only after the create) is left as AWS has it.
    const desired = heldAsInAws(env, spec, observed, held);
    const updated = await update(env, a, conn, desired, observed, inputs, target, ownerTags, extraStatus);
    if (isOutcome(updated)) return updated;
    ({ observed, extraStatus } = updated);
  }

  // The object is confirmed this one's: the intent is settled, with the spec write if there is one.
  const wroteSpec = await lateInitialize(
    env,
    a,
    userSpec,
    observed,
    plan.do === "adopt" && plan.strict,
    referenced,
    recordsIntent(a),
  );
  if (!wroteSpec) await clearIntent(env, a);
  const [waitingOn] = held;
  if (waitingOn !== undefined) {
    // Made (or kept) as the spec says but for what its references still wait for: status recorded
    // (the ID they may be waiting for among it), not Synced, looked at again.
    return requeue(env.waitRequeueMs, {
      state: {
        kind: "progressing",
        reason: waitingOn.state.reason,
        message: `${held.map((h) => h.state.message).join("; ")}; spec.${[...new Set(held.map((h) => h.field))].join(", spec.")} left as AWS has it until then`,
      },
      metadata: metadataAt(env, a, spec, target, observed),
      extra: { ...extraStatus, ...env.module.statusFrom?.(observed), intent: null },
    });
  }
  return settled({
    state: { kind: "synced" },
    metadata: metadataAt(env, a, spec, target, observed),
    // intent: what earlier versions recorded there, settled too.
    extra: { ...extraStatus, ...env.module.statusFrom?.(observed), intent: null },
  });
}

/** `spec` with each held field as AWS has it (the module's spec form of what it observed). */
function heldAsInAws<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  spec: Spec,
  observed: Observed,
  held: Prepared<Spec>["held"],
): Spec {
  if (held.length === 0) return spec;
  const aws = env.module.specFromObserved(observed, spec) as Record<string, unknown>;
  const out = { ...spec } as Record<string, unknown>;
  for (const { field } of held) {
    if (aws[field] === undefined) delete out[field];
    else out[field] = aws[field];
  }
  return out as Spec;
}

/** `next`, naming the object `spec` names where AWS assigned its ID (a spec never holds it). */
function sameObject<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  spec: Spec,
  next: Spec,
): Spec {
  const assigned = env.module.assigned;
  const id = env.module.identifier(spec);
  return assigned === undefined || id === "" ? next : assigned.withId(next, id);
}

/**
 * The outcome when a verified intent names another account or region than the target (the
 * decision moved between the intent and now): the account drift rule (block, or follow with
 * --account-drift-policy=recreate) and the region drift rule, as for an account or region status
 * recorded. Undefined when the intent is for this target.
 */
function intentElsewhere<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  intent: CreateIntent,
  target: Target,
): Outcome | undefined {
  const region = checkRegion(intent.region, target.region);
  if (region) return failed(region);
  return accountDrift(env, a, { ownerAccountID: intent.ownerAccountID }, target.account, false);
}

/**
 * Before anything is sent to AWS with a referenced object's name, the use is recorded where the
 * tenant cannot write (records/reference-uses.ts): the referenced object's deletion then waits for
 * this referrer, and only for it while it is placed where that object is.
 */
async function recordReferenceUses<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  prepared: Prepared<Spec>,
  target: Target,
): Promise<void> {
  const uses = env.references?.uses;
  if (uses === undefined) return;
  for (const check of prepared.checks) {
    await uses.record(
      check.owner,
      a.owner,
      check.ref.path,
      { account: target.account, region: target.region },
      a.call.signal,
    );
  }
}

const hasServedReferences = <Spec extends object, Observed, Client>(env: Env<Spec, Observed, Client>) =>
  (env.module.references ?? []).some(isServedReference);

/** This object's default tags (--resource-tags), variables expanded for where it lands. */
function defaultTagsFor<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  target: Target,
): Record<string, string> {
  if (!env.defaultTags?.length) return {};
  return expandDefaultTags(env.defaultTags, {
    service: env.module.kind.service,
    controllerVersion: crossroleVersion,
    namespace: a.owner.namespace,
    name: a.owner.name,
    kind: a.owner.kind,
    labels: a.obj.metadata.labels ?? {},
    account: target.account,
    region: target.region,
  });
}
