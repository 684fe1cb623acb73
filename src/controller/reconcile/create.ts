// Converge, when nothing of this account's is under the spec's name: the intent recorded first
// (with the finalizer, in one write), then the create call with the ownership tags, then a read of what AWS made, judged like any
// object (in us-east-1 S3 answers 200 for a bucket another writer made a moment before).
import type { Created, Observation, OwnerTags } from "../../services/service-module.ts";
import { type CreateIntent, createRefused } from "../create-intent.ts";
import { describeOwnership, judgeOwnership } from "../ownership.ts";
import {
  describeTarget,
  type Found,
  planAfterCreate,
  type SyncPlan,
  type Target,
} from "../reconcile-plan.ts";
import { ownedTags } from "../records/owned-objects.ts";
import { type Attempt, keyFor } from "./attempt.ts";
import type { Connection } from "./connect.ts";
import type { Env } from "./env.ts";
import { awsFailure } from "./failure.ts";
import { clearIntent, recordIntent } from "./intent.ts";
import { observe } from "./observe.ts";
import { ownedObjectAt, recordedEntry, recordOwner } from "./ownership-of.ts";
import { appliedSecrets, type Inputs } from "./prepare.ts";
import { failed, isOutcome, type Outcome, requeue } from "./result.ts";
import { deleteWhatWasMade } from "./undo-create.ts";

/** What the create left for the rest of converge: the object read back and judged again. */
export interface Made<Spec, Observed> {
  /** With nothing left to send again when the create carried every secret value. */
  readonly inputs: Inputs;
  /** Status fields the create reported (a bucket's location), and the Secret versions it sent. */
  readonly extraStatus: Readonly<Record<string, unknown>>;
  readonly observation: Extract<Observation<Observed>, { readonly found: true }>;
  readonly found: Found;
  readonly plan: SyncPlan;
  /** The spec naming the object made, where AWS assigned its ID (a KMS key's). */
  readonly spec: Spec;
}

export async function create<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  conn: Connection<Client>,
  spec: Spec,
  inputsIn: Inputs,
  target: Target,
  ownerTags: OwnerTags,
  /** The verified intent status held (its window closed), if any. */
  recorded: CreateIntent | undefined,
  /** When the read that found nothing started: a create that follows can only make the object after. */
  readAt: Date,
): Promise<Made<Spec, Observed> | Outcome> {
  let inputs = inputsIn;
  let extraStatus: Readonly<Record<string, unknown>> = {};
  // Synced before, with no create of ours in flight, and now nothing in AWS: it was deleted
  // out of band. (Status is a record: it only changes the wording of the Event below.)
  const vanished =
    recorded === undefined &&
    a.obj.status?.conditions?.some((c) => c.type === "ACK.ResourceSynced" && c.status === "True") === true;
  // An object AWS cannot tag and the records give another resource, gone from AWS meanwhile: that
  // resource still holds its name, as tags would have said had they survived. Nothing is created.
  const heldBy = await recordedOwner(env, a, target);
  if (heldBy) return heldBy;
  const key = await keyFor(env, a);
  if (isOutcome(key)) return key;
  const intent = await recordIntent(env, a, target, key);
  if (isOutcome(intent)) return intent;
  a.onGone = () => deleteWhatWasMade(env, a, conn, spec, target, intent);
  let created: Created;
  try {
    created = await env.module.create(conn.client, spec, target.region, ownerTags, conn.call, inputs.secrets);
  } catch (err) {
    if (!createRefused(err)) throw err;
    // AWS refused it outright: nothing was made, so the intent is settled and a retry may
    // create again. (A timeout or a 5xx proves nothing: the intent's window stays open.)
    await clearIntent(env, a);
    return awsFailure(env, err, spec, "AWSError");
  }
  let named = spec;
  if (created.created && created.id !== undefined && env.module.assigned !== undefined) {
    // AWS named it: every call from here on takes that ID, and so does the cleanup.
    named = env.module.assigned.withId(spec, created.id);
    a.onGone = () => deleteWhatWasMade(env, a, conn, named, target, intent);
  }
  // AWS cannot tag it: the controller records it as this resource's, before anything reads it.
  if (created.created && env.module.untaggable === true) await recordOwner(env, a, target);
  if (created.created) {
    a.createdNow = true;
    extraStatus = { ...created.status, ...appliedSecrets(inputs) };
    // The create carried every secret value: nothing to send again in this reconcile.
    inputs = { ...inputs, secrets: { ...inputs.secrets, changed: [] } };
    // Whatever it held is gone: say so loudly, not as a routine creation.
    const arn = env.module.arn(named, target.region, target.account);
    // The identity it was made with, when this reconcile owes that Event (load.ts): one Event.
    const using = a.identityNote === undefined ? "" : `. ${a.identityNote}`;
    a.identityNote = undefined;
    if (vanished) {
      env.store.event(
        a.obj,
        "Warning",
        "Recreated",
        `${arn} was not found in account ${target.account} (${target.region}): it was deleted outside crossrole; created it again, empty${using}`,
      );
    } else {
      env.store.event(
        a.obj,
        "Normal",
        "Created",
        `Created ${arn} in account ${target.account} (${target.region})${using}`,
      );
    }
  }
  const justCreated = created.created ? { absentAt: readAt, answeredAt: env.now() } : undefined;
  const seen = await observe(env, a, conn, named, target, intent, justCreated);
  const { observation, found } = seen;
  // S3 may not show a new bucket everywhere at once: look again shortly.
  if (!observation.found) return requeue(1_000);
  return { inputs, extraStatus, observation, found, plan: planAfterCreate(found, target), spec: seen.spec };
}

/** Refused, when the controller's records give the name of an untaggable object to another resource. */
async function recordedOwner<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  target: Target,
): Promise<Outcome | undefined> {
  if (env.module.untaggable !== true) return undefined;
  const entry = await recordedEntry(env, a, target);
  // A retained object's record, where the object is gone, is stale: the name is free; so is the
  // record of an earlier object of this name (this one has its name: that one is gone).
  if (entry === undefined || entry.retained !== undefined) return undefined;
  const o = judgeOwnership(ownedTags(entry, ownedObjectAt(env, target)), a.owner);
  if (o.kind !== "other") return undefined;
  return failed({
    kind: "terminal",
    reason: "NameTaken",
    message: `${describeTarget(target)} is ${describeOwnership(o)} in crossrole's records (it was deleted in AWS, and that resource will make it again): choose another ${target.nameField}`,
  });
}
