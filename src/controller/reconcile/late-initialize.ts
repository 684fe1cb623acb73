// Converge, last write before status: AWS's defaults copied into the fields the user left out
// (ACK late initialisation); after a strict adoption, the spec replaced with AWS's. Returns whether
// it wrote the spec (a settled create intent is cleared in that write).
import { pathText } from "../../services/references.ts";
import { intentAnnotation } from "../create-intent.ts";
import { checkSpecWrite, WriteRefused } from "../write-check.ts";
import type { Attempt } from "./attempt.ts";
import type { Env } from "./env.ts";
import type { FilledPath } from "./references.ts";

export async function lateInitialize<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  spec: Spec,
  observed: Observed,
  strictAdoption: boolean,
  /** Plain fields a reference filled: they stay out of the spec (the reference stands for them). */
  referenced: readonly FilledPath[] = [],
  /** The create intent is settled: cleared in the same write, if there is one to make. */
  clearingIntent = false,
): Promise<boolean> {
  const late = withoutReferenced(env.module.lateInitialize(spec, observed), referenced);
  // A strict adoption replaces the spec: fields AWS does not have must go, which a merge
  // patch of the new spec alone would leave in place (and the next reconcile would apply).
  const specPatch = strictAdoption
    ? mergePatchReplacing(a.obj.spec, late.spec)
    : late.initialized.length > 0
      ? late.spec
      : undefined;
  if (specPatch === undefined) return false;
  // AWS's values may not fit the kind's schema: say which, instead of a 422 on every retry.
  const refused = checkSpecWrite({
    kind: env.kindName,
    parseSpec: env.module.parseSpec,
    current: a.obj.spec ?? {},
    next: late.spec,
    filled: late.initialized,
    strictAdoption,
  });
  if (refused) throw new WriteRefused(refused);
  a.obj = await env.store.writeSpec(
    a.obj,
    specPatch,
    a.call.signal,
    clearingIntent ? { [intentAnnotation]: null } : undefined,
  );
  // Its echo needs no reconcile: the status written next records this generation.
  env.selfWrites?.record(a.key, a.obj);
  return true;
}

/**
 * The late-initialised spec without the fields references filled, which the user never set, at
 * any depth (`sseSpecification.kmsMasterKeyID` beside its `kmsMasterKeyRef`): AWS's value there is
 * the reference's, and written back it would sit beside the reference the schema allows alone.
 * A list of references fills its whole list (`policies`).
 */
function withoutReferenced<Spec extends object>(
  late: { readonly spec: Spec; readonly initialized: readonly string[] },
  referenced: readonly FilledPath[],
): { readonly spec: Spec; readonly initialized: readonly string[] } {
  if (referenced.length === 0) return late;
  let spec: unknown = late.spec;
  const dropped: string[] = [];
  for (const at of referenced) {
    const field = typeof at.at(-1) === "number" ? at.slice(0, -1) : at;
    spec = withoutValueAt(spec, field);
    dropped.push(pathText(["spec", ...field]));
  }
  const initialized = late.initialized.filter((path) => !dropped.includes(path));
  return { spec: spec as Spec, initialized };
}

/** `value` without what is at `path` (objects and lists copied on the way, nothing else touched). */
function withoutValueAt(value: unknown, path: FilledPath): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (typeof head === "number") {
    if (!Array.isArray(value) || head >= value.length) return value;
    const list = [...value];
    list[head] = withoutValueAt(list[head], rest);
    return list;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const object = { ...(value as Record<string, unknown>) };
  if (rest.length === 0) delete object[head];
  else if (object[head] !== undefined) object[head] = withoutValueAt(object[head], rest);
  return object;
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
