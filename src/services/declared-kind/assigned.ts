// A declared kind named by an ID AWS assigns at creation (runtime.assigned: a KMS key's), as the
// reconciler finds it (ServiceModule.assigned, src/controller/reconcile/locate.ts): the ID given
// to the runtime's calls in the spec's identifier field (never the spec the user writes), the
// create's answer holding it, and the kind's `findTagged` hook searching AWS by tag.
import type { CallContext } from "../call-context.ts";
import type { AssignedId } from "../service-module.ts";
import { valueAt } from "./answer-paths.ts";
import type { Ask, DeclaredClient, DeclaredKindSource, Fields, SdkClient } from "./source.ts";

export function assignedIdOf<Sdk extends SdkClient>(
  source: DeclaredKindSource<Sdk>,
  idField: string,
  askFor: (client: DeclaredClient<Sdk>, name: string, ctx: CallContext) => Ask,
): AssignedId<Fields, DeclaredClient<Sdk>> | undefined {
  const assigned = source.declaration.runtime.assigned;
  if (assigned === undefined) return undefined;
  const find = source.hooks?.findTagged;
  if (find === undefined)
    throw new Error(`${source.kind.kind}: named by an ID AWS assigns, it needs a findTagged hook`);
  return {
    statusField: assigned.status,
    pattern: new RegExp(assigned.pattern),
    withId: (spec, id) => ({ ...spec, [idField]: id }),
    findTagged: (client, key, value, ctx) => find(askFor(client, `tagged ${key}=${value}`, ctx), key, value),
  };
}

/** The ID the create answered, where the kind is named by one; undefined otherwise. */
export function answeredId<Sdk extends SdkClient>(
  source: DeclaredKindSource<Sdk>,
  answer: Fields,
): string | undefined {
  const at = source.declaration.runtime.assigned?.answer;
  if (at === undefined) return undefined;
  const id = valueAt(answer, at);
  return typeof id === "string" && id !== "" ? id : undefined;
}
