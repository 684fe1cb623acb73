// Converge, when the object is ours: what differs from the spec (and every Secret changed since
// its value was last given to AWS, which never shows it back) is written, and what AWS then has
// is taken as the new observation.
import type { OwnerTags } from "../../services/service-module.ts";
import { timeStepSync } from "../../toolkit/step-times.ts";
import type { Target } from "../reconcile-plan.ts";
import type { Attempt } from "./attempt.ts";
import type { Connection } from "./connect.ts";
import type { Env } from "./env.ts";
import { appliedSecrets, type Inputs } from "./prepare.ts";
import { type Outcome, requeue } from "./result.ts";
import { whileBusy } from "./status.ts";

/** What AWS has after the update, and the status fields to record with it. */
export interface Updated<Observed> {
  readonly observed: Observed;
  readonly extraStatus: Readonly<Record<string, unknown>>;
}

export async function update<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  conn: Connection<Client>,
  spec: Spec,
  observed: Observed,
  inputs: Inputs,
  target: Target,
  ownerTags: OwnerTags,
  extraStatusIn: Readonly<Record<string, unknown>>,
): Promise<Updated<Observed> | Outcome> {
  const m = env.module;
  const drift = [...timeStepSync("comparison", () => m.diff(spec, observed)), ...inputs.secrets.changed];
  if (drift.length === 0) return { observed, extraStatus: extraStatusIn };
  const changed = await m.update(conn.client, spec, observed, ownerTags, conn.call, inputs.secrets);
  const extraStatus = { ...extraStatusIn, ...appliedSecrets(inputs) };
  // Right after this reconcile's own create, it finishes the creation (what the create call
  // cannot carry), which the Created Event has said: nothing was "brought back".
  if (changed.length > 0 && a.createdNow !== true) {
    env.store.event(a.obj, "Normal", "Updated", `Brought ${changed.join(", ")} back to the desired state`);
  }
  // Where AWS applies writes at once, a read would only echo them (module.afterUpdate).
  const after = m.afterUpdate
    ? { found: true as const, observed: m.afterUpdate(spec, observed, ownerTags) }
    : await m.read(conn.client, spec, conn.call);
  if (!after.found) return requeue(1_000);
  // The update may have started a long-running change (an index building, a modify).
  const stillBusy = await whileBusy(env, a, spec, target, after.observed, extraStatus);
  if (stillBusy) return stillBusy;
  return { observed: after.observed, extraStatus };
}
