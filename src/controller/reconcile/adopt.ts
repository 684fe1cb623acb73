// Converge, when the object under the spec's name is untagged (or an earlier object's) and this
// object may take it: its own create, interrupted before the tags were written (finishCreate),
// or an adoption the annotation asks for. Either way the ownership tags are added first.
import { legacyOwnershipKeysIn, ownershipTagKeys } from "../../api/ownership-tags.ts";
import type { OwnerTags } from "../../services/service-module.ts";
import type { AckMade } from "../ack-takeover.ts";
import { describeTarget, type Found, type Target } from "../reconcile-plan.ts";
import type { Attempt } from "./attempt.ts";
import type { Connection } from "./connect.ts";
import type { Env } from "./env.ts";
import { claimObject } from "./ownership-of.ts";

export type Claim =
  | { readonly do: "finishCreate"; readonly justCreated?: boolean }
  | { readonly do: "adopt"; readonly strict: boolean; readonly takeover?: AckMade };

/** Tags the object as this one's; returns the spec to converge to (AWS's, for a strict adoption). */
export async function claim<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  conn: Connection<Client>,
  plan: Claim,
  spec: Spec,
  observed: Observed,
  found: Found,
  target: Target,
  ownerTags: OwnerTags,
): Promise<Spec> {
  await claimObject(env, a, conn, target, observed, ownerTags);
  if (plan.do === "finishCreate") {
    env.store.event(
      a.obj,
      "Normal",
      plan.justCreated ? "Tagged" : "CreateCompleted",
      finished(env, target, plan),
    );
    return spec;
  }
  // adopt is a strict import: the spec becomes what AWS has. adopt-or-create keeps the
  // manifest as the source of truth (ACK): it is applied below like any update.
  const adopted = plan.strict ? env.module.specFromObserved(observed, spec) : spec;
  if (plan.takeover) {
    env.store.event(
      a.obj,
      "Normal",
      "TakenOver",
      `Took over ${env.module.arn(adopted, target.region, target.account)} in account ${target.account} from ACK: ${plan.takeover.why}; crossrole's ownership tags were added (services.k8s.aws/controller-version now names crossrole)`,
    );
    return adopted;
  }
  env.store.event(
    a.obj,
    "Normal",
    "Adopted",
    `Adopted ${env.module.arn(adopted, target.region, target.account)} in account ${target.account} (${found.found && found.ownership.kind === "earlier" ? "left by an earlier object of this name" : env.module.untaggable === true ? "not recorded as crossrole's" : "not tagged by crossrole"})`,
  );
  return adopted;
}

/**
 * What finishing a create did. Right after this reconcile's own create, an untagged object is no
 * fault: the store did not apply the tags the create call carried (an emulator's CreateBucket), or,
 * where AWS cannot tag it, the create's answer was lost (a retry answered "already exists"). Later,
 * the create was interrupted before the tags (or the record) were written.
 */
function finished<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  target: Target,
  plan: Extract<Claim, { do: "finishCreate" }>,
): string {
  const what = describeTarget(target);
  if (env.module.untaggable === true)
    return plan.justCreated
      ? `Recorded ${what} as this object's: AWS made it after the create intent, and the create's answer was lost`
      : `Recorded ${what} as this object's: its create had been interrupted before crossrole recorded it`;
  return plan.justCreated
    ? `Tagged ${what} with its ownership tags, which the create call did not apply`
    : `Tagged ${what} as this object's: its create had been interrupted before the tags were written`;
}

/**
 * An object of this one's still tagged under the keys earlier versions wrote (crossrole.dev/owner,
 * crossrole.dev/owner-uid): judged by them as by the current keys, and now re-tagged under
 * services.k8s.aws/ (DESIGN §3.5), once: afterwards it carries only the current keys.
 */
export async function moveOwnershipTags<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  conn: Connection<Client>,
  observed: Observed,
  target: Target,
  ownerTags: OwnerTags,
): Promise<void> {
  const legacy = legacyOwnershipKeysIn(env.module.tagsOf(observed));
  if (legacy.length === 0) return;
  await env.module.claim(conn.client, observed, ownerTags, conn.call);
  env.store.event(
    a.obj,
    "Normal",
    "OwnershipTagsMoved",
    `Moved the ownership tags of ${describeTarget(target)} to ${ownershipTagKeys.owner} and ${ownershipTagKeys.ownerUid} (removed ${legacy.join(", ")}, written by an earlier crossrole)`,
  );
}
