// The Kubernetes object went away while this attempt's create was in flight (another controller
// released it): what the create made is deleted, unless it is to be retained, so that nothing
// is left in AWS with nobody owning it. Set as the attempt's onGone by create.ts; run by
// reconciler.ts when a write answers that the object is gone.
import type { CreateIntent } from "../create-intent.ts";
import { describeTarget, planDelete, type Target } from "../reconcile-plan.ts";
import type { Attempt } from "./attempt.ts";
import { type Connection, lockKey } from "./connect.ts";
import type { Env } from "./env.ts";
import { errorText } from "./failure.ts";
import { observe } from "./observe.ts";
import { ownedObjectAt } from "./ownership-of.ts";
import { policiesOf } from "./prepare.ts";
import { isOutcome } from "./result.ts";

/**
 * Best effort, once: the object is gone, nothing will reconcile it again, so a failure is logged
 * with what to delete by hand.
 */
export async function deleteWhatWasMade<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  conn: Connection<Client>,
  spec: Spec,
  target: Target,
  intent: CreateIntent,
): Promise<void> {
  const what = describeTarget(target);
  const fields = { event: "resource.gone-during-create", resource: `${env.kindName} ${a.key}`, target: what };
  try {
    const policies = policiesOf(env, a);
    if (isOutcome(policies) || policies.deletionPolicy === "retain") {
      a.log.warn(
        fields,
        "the resource was deleted while its create was in flight; retained as its policy says",
      );
      return;
    }
    await env.locks.run(lockKey(env, target), async () => {
      const { found, spec: named } = await observe(env, a, conn, spec, target, intent);
      if (planDelete(found, target).do !== "delete") {
        a.log.warn(
          fields,
          `the resource was deleted while its create was in flight; nothing of it is in AWS now (should ${what} appear later with this object's tags, delete it by hand)`,
        );
        return;
      }
      await env.module.delete(conn.client, named, conn.call, a.obj.metadata.annotations ?? {});
      // An untaggable object's record of its owner goes with it.
      if (env.module.untaggable === true)
        await env.owned?.forget(a.owner.uid, ownedObjectAt(env, target), a.call.signal);
      a.log.warn(
        fields,
        "the resource was deleted while its create was in flight; deleted what the create made",
      );
    });
  } catch (err) {
    a.log.error(
      { ...fields, err: errorText(env, err, spec) },
      "the resource was deleted while its create was in flight and what the create made could not be deleted: delete it by hand",
    );
  }
}
