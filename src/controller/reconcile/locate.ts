// Which AWS object is this resource's, for a kind named by an ID AWS assigns at creation (a KMS
// key's: ServiceModule.assigned). Status records the ID (ACK's keyID), but a tenant may write
// status: the ID there is only a hint, taken when it looks like an ID and the object it names
// carries this resource's owner-uid tag. Otherwise the object is the one AWS finds by that tag —
// by the service's tag filter (EC2's), or, where AWS has none (KMS), by reading every object's
// tags — searched only when a create of this resource's may have happened (an ID recorded, a
// create intent, the finalizer that goes on with the first create): a new resource costs no search.
// Nothing another resource owns is ever taken, however status names it; two objects tagged as
// this one's are refused, naming both.
import { ownershipTagKeys } from "../../api/ownership-tags.ts";
import { hasFinalizer } from "../../runtime/finalizers.ts";
import type { AssignedId, Observation } from "../../services/service-module.ts";
import { intentRecordOf } from "../create-intent.ts";
import { taggedOwner } from "../ownership.ts";
import type { Attempt } from "./attempt.ts";
import type { Connection } from "./connect.ts";
import type { Env } from "./env.ts";
import { SeveralTagged } from "./failure.ts";

/** What was read, and the spec naming the object found (unchanged when none was). */
export interface Located<Spec, Observed> {
  readonly observation: Observation<Observed>;
  readonly spec: Spec;
}

/** The ID status records, when it looks like one (anything else is never sent to AWS). */
export function recordedId(
  status: unknown,
  assigned: Pick<AssignedId<unknown, unknown>, "statusField" | "pattern">,
) {
  const value = (status as Record<string, unknown> | undefined)?.[assigned.statusField];
  return typeof value === "string" && assigned.pattern.test(value) ? value : undefined;
}

export async function locate<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  conn: Connection<Client>,
  spec: Spec,
  assigned: AssignedId<Spec, Client>,
): Promise<Located<Spec, Observed>> {
  const m = env.module;
  const ours = (o: Observation<Observed>): boolean =>
    o.found && taggedOwner(m.tagsOf(o.observed)).uid === a.owner.uid;
  const status = a.obj.status as Record<string, unknown> | undefined;
  const hint = recordedId(status, assigned);
  if (hint !== undefined) {
    const named = assigned.withId(spec, hint);
    const observation = await readHint(() => m.read(conn.client, named, conn.call));
    if (observation !== undefined && ours(observation)) return { observation, spec: named };
  }
  const recorded = status?.[assigned.statusField] !== undefined && status[assigned.statusField] !== null;
  const mayExist = recorded || intentRecordOf(a.obj) !== undefined || hasFinalizer(a.obj, env.finalizer);
  if (!mayExist) return { observation: { found: false }, spec };
  const ids = await assigned.findTagged(conn.client, ownershipTagKeys.ownerUid, a.owner.uid, conn.call);
  const found: Located<Spec, Observed>[] = [];
  for (const id of ids) {
    const named = assigned.withId(spec, id);
    const observation = await m.read(conn.client, named, conn.call);
    // Tagged when listed, but gone (being deleted) or retagged since: not this one's.
    if (ours(observation)) found.push({ observation, spec: named });
  }
  const [only, ...more] = found;
  if (only === undefined) return { observation: { found: false }, spec };
  if (more.length > 0) {
    const both = found.map((f) => m.identifier(f.spec)).join(", ");
    throw new SeveralTagged({
      kind: "recoverable",
      reason: "SeveralTagged",
      message: `${found.length} ${env.kindName} objects in account ${conn.account} carry this resource's ${ownershipTagKeys.ownerUid} tag (${both}): crossrole acts on exactly one; delete the extra ones in AWS (or remove that tag from them)`,
    });
  }
  return only;
}

/**
 * The object a hint names, read; undefined when AWS refused the read (a key whose policy keeps it
 * from this caller, one in a state that cannot be described): a hint that cannot be read is no
 * hint, and the search decides. Anything else (throttled, a server error, no answer) is retried.
 */
async function readHint<O>(read: () => Promise<O>): Promise<O | undefined> {
  try {
    return await read();
  } catch (err) {
    const { httpStatus, code } = err as { httpStatus?: unknown; code?: unknown };
    const refused =
      typeof httpStatus === "number" &&
      httpStatus >= 400 &&
      httpStatus < 500 &&
      !/throttl|toomany|limitexceeded/i.test(String(code ?? ""));
    if (refused) return undefined;
    throw err;
  }
}
