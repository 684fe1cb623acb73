// Intent before action (DESIGN §3.5, create-intent.ts): the create intent read from the object
// and judged with the controller's key, recorded before a create call together with the
// controller's finalizer (one write), cleared once the object is confirmed; the finalizer put on
// before any other write to AWS; and how often a create that may still land is looked for.
import { isConflict } from "../../runtime/kube-client.ts";
import type { ControllerKey } from "../controller-key.ts";
import {
  type CreateIntent,
  intentAnnotation,
  intentAnnotationValue,
  intentRecordOf,
  type RecordedIntent,
  recordedIntent,
  sealIntent,
} from "../create-intent.ts";
import type { Target } from "../reconcile-plan.ts";
import { type Attempt, keyFor } from "./attempt.ts";
import type { Env } from "./env.ts";
import { isOutcome, type Outcome, requeue } from "./result.ts";

/** How often a create that may still land is looked for. */
const pendingPollMs = 2_000;

/** The object's create intent, judged with the controller's key (read only when there is one). */
export async function intentIn<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
): Promise<RecordedIntent | Outcome> {
  const record = intentRecordOf(a.obj);
  if (record === undefined) return { kind: "none" };
  const key = await keyFor(env, a);
  if (isOutcome(key)) return key;
  return recordedIntent({ intent: record.intent }, key, a.owner, record.where);
}

/**
 * The identifier, account and region are recorded on the object before the create call, so an
 * interrupted create is recognised, never assumed to have failed — in the same write as the
 * controller's finalizer, so that its deletion cannot pass the create by.
 */
export async function recordIntent<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  target: Target,
  key: ControllerKey,
): Promise<CreateIntent | Outcome> {
  const intent = sealIntent(key, a.owner, target, env.now());
  try {
    // Only on the object as it was read: one being deleted meanwhile, or changed by another
    // controller, is looked at again instead of getting a create.
    a.obj = await env.store.writeMetadata(
      a.obj,
      { finalizer: env.finalizer, annotations: { [intentAnnotation]: intentAnnotationValue(intent) } },
      a.call.signal,
    );
    env.selfWrites?.record(a.key, a.obj);
  } catch (err) {
    if (isConflict(err)) return requeue(1_000);
    throw err;
  }
  return intent;
}

/** Whether the object still records an intent that this reconcile settles. */
export const recordsIntent = (a: Attempt): boolean =>
  a.obj.metadata.annotations?.[intentAnnotation] !== undefined;

/**
 * The intent cleared once its create is settled (the object confirmed ours, or AWS refused the
 * create outright); `spec` writes go with it where there is one to write.
 */
export async function clearIntent<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
): Promise<void> {
  if (!recordsIntent(a)) return;
  a.obj = await env.store.writeMetadata(a.obj, { annotations: { [intentAnnotation]: null } }, a.call.signal);
  env.selfWrites?.record(a.key, a.obj);
}

/** The controller's finalizer, on before anything of this object's is written in AWS. */
export async function holdForDeletion<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
): Promise<void> {
  const before = a.obj;
  a.obj = await env.store.addFinalizer(a.obj, env.finalizer, a.call.signal);
  if (a.obj !== before) env.selfWrites?.record(a.key, a.obj);
}

/** When to look again for a create that may still land: soon, and once more as its window closes. */
export function pollUntil<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  until: Date,
): number {
  const left = until.getTime() - env.now().getTime();
  return Math.max(250, Math.min(pendingPollMs, left + 50));
}
