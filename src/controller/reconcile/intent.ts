// Intent before action (DESIGN §3.5, create-intent.ts): the create intent read from status and
// judged with the controller's key, recorded before a create call, and how often a create that
// may still land is looked for.
import { isConflict } from "../../runtime/kube-client.ts";
import type { ControllerKey } from "../controller-key.ts";
import {
  type CreateIntent,
  hasIntent,
  type RecordedIntent,
  recordedIntent,
  sealIntent,
} from "../create-intent.ts";
import { describeTarget, type Target } from "../reconcile-plan.ts";
import { type Attempt, keyFor } from "./attempt.ts";
import type { Env } from "./env.ts";
import { isOutcome, type Outcome, requeue } from "./result.ts";
import { metadataAt, writeStatus } from "./status.ts";

/** How often a create that may still land is looked for. */
const pendingPollMs = 2_000;

/** status.intent, judged with the controller's key (which is read only when there is one). */
export async function intentIn<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
): Promise<RecordedIntent | Outcome> {
  if (!hasIntent(a.obj.status)) return { kind: "none" };
  const key = await keyFor(env, a);
  if (isOutcome(key)) return key;
  return recordedIntent(a.obj.status, key, a.owner);
}

/**
 * The identifier, account and region go into status before the create call, so an interrupted
 * create is recognised, never assumed to have failed.
 */
export async function recordIntent<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  spec: Spec,
  target: Target,
  key: ControllerKey,
): Promise<CreateIntent | Outcome> {
  const intent = sealIntent(key, a.owner, target, env.now());
  try {
    await writeStatus(
      env,
      a,
      { kind: "progressing", reason: "Creating", message: `Creating ${describeTarget(target)}` },
      metadataAt(env, a, spec, target),
      { intent },
      // Only on the object as it was read: one being deleted meanwhile, or changed by another
      // controller, is looked at again instead of getting a create.
      true,
    );
  } catch (err) {
    if (isConflict(err)) return requeue(1_000);
    throw err;
  }
  return intent;
}

/** When to look again for a create that may still land: soon, and once more as its window closes. */
export function pollUntil<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  until: Date,
): number {
  const left = until.getTime() - env.now().getTime();
  return Math.max(250, Math.min(pendingPollMs, left + 50));
}
