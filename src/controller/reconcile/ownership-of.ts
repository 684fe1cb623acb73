// The ownership tags of an object, and writing them: on the object where AWS can tag it, in the
// controller's own records where it cannot (records/owned-objects.ts). Every step that judges or
// claims an object goes through here, so that an untaggable kind is judged by the same rules.
import type { OwnerTags } from "../../services/service-module.ts";
import type { Target } from "../reconcile-plan.ts";
import { type OwnedEntry, type OwnedObject, ownedKindOf } from "../records/owned-objects.ts";
import type { Attempt } from "./attempt.ts";
import type { Connection } from "./connect.ts";
import type { Env } from "./env.ts";

/** The object as the controller's records name it. */
export const ownedObjectAt = <Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  target: Target,
): OwnedObject => ({
  kind: ownedKindOf(env.module.kind),
  account: target.account,
  region: target.region,
  identifier: target.name,
});

/** An untaggable kind's records, or why there are none (then nothing is done in AWS). */
function ownedOf<Spec extends object, Observed, Client>(env: Env<Spec, Observed, Client>) {
  if (env.owned === undefined)
    throw new Error(
      `${env.kindName} objects cannot be tagged, and this controller keeps no records of whose they are: nothing is done in AWS`,
    );
  return env.owned;
}

/** The object's ownership tags: its own, or those the controller's records stand for. */
export async function ownershipTagsOf<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  target: Target,
  observed: Observed,
): Promise<Readonly<Record<string, string>>> {
  if (env.module.untaggable !== true) return env.module.tagsOf(observed);
  return recordedTags(env, a, target);
}

/** The ownership tags the controller's records stand for (an untaggable kind's object). */
const recordedTags = <Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  target: Target,
): Promise<Readonly<Record<string, string>>> =>
  ownedOf(env).tagsOf(ownedObjectAt(env, target), a.call.signal);

/** The controller's record of the (untaggable) object, if any. */
export const recordedEntry = <Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  target: Target,
): Promise<OwnedEntry | undefined> => ownedOf(env).entryOf(ownedObjectAt(env, target), a.call.signal);

/** Records the (untaggable) object as this resource's own. */
export const recordOwner = <Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  target: Target,
): Promise<void> => ownedOf(env).claim(a.owner, ownedObjectAt(env, target), a.call.signal);

/** Marks the object as this resource's: its ownership tags added, or the controller's record written. */
export async function claimObject<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  conn: Connection<Client>,
  target: Target,
  observed: Observed,
  ownerTags: OwnerTags,
): Promise<void> {
  if (env.module.untaggable !== true) {
    await env.module.claim(conn.client, observed, ownerTags, conn.call);
    return;
  }
  await recordOwner(env, a, target);
}
