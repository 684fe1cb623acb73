// Actual reaches: for every namespace and served kind, the resolver's decision for a plain
// resource (no identityRef, no annotations, no labels) — exactly what the controller would do
// with a resource created there today. `use` → an actual reach through the grant it used;
// `conflict` → recorded for the findings; every decision → the namespace's `defaults`.

import { namespaceAnnotations } from "../api/annotations.ts";
import type { Decision } from "../resolver/types.ts";
import { compareText } from "../toolkit/compare-text.ts";
import { type AuditContext, decide, grantOfDecision } from "./context.ts";
import type { Grant } from "./grants.ts";
import type { AuditNamespace } from "./model.ts";

export type Defaults = AuditNamespace["defaults"];

/** Per namespace: what a plain resource of each kind (by index) got. */
export interface PlainNamespace {
  readonly defaults: Defaults;
  /** Grant id of the `use` decision (after naming a region if none was set), else null. */
  readonly grantIds: readonly (string | null)[];
  /** Whether IAMRoleSelectors decided (one matched, or several conflicted). */
  readonly selectorDecided: readonly boolean[];
}

/** One group of `conflict` decisions with the same message (the same contenders). */
export interface ConflictGroup {
  readonly message: string;
  readonly source: Decision["source"];
  readonly namespaces: Set<string>;
  kinds: number;
  readonly resources: string[];
}

export class Conflicts {
  readonly #groups = new Map<string, ConflictGroup>();

  record(decision: Decision, namespace: string, kindBits: number, resource?: string): void {
    let group = this.#groups.get(decision.message);
    if (group === undefined) {
      group = {
        message: decision.message,
        source: decision.source,
        namespaces: new Set(),
        kinds: 0,
        resources: [],
      };
      this.#groups.set(decision.message, group);
    }
    group.namespaces.add(namespace);
    group.kinds |= kindBits;
    if (resource !== undefined) group.resources.push(resource);
  }

  all(): ConflictGroup[] {
    return [...this.#groups.values()].sort((a, b) => compareText(a.message, b.message));
  }
}

/**
 * The same text as one flat string. Messages are built by concatenation, and a kept
 * concatenation keeps every piece alive: for 50,000 messages that is half the report's memory
 * and much of its garbage-collection time. Replacing a character with itself changes nothing
 * but makes V8 flatten the string.
 */
function flat(text: string): string {
  return text.replace("\u0000", "\u0000");
}

/** One string per distinct route, shared: thousands of namespaces reach the same way. */
function sharedText(texts: Map<string, string>, text: string): string {
  const shared = texts.get(text);
  if (shared !== undefined) return shared;
  texts.set(text, text);
  return text;
}

function actualRoute(decision: Decision, ctx: AuditContext, namespace: string, regionNamed: boolean): string {
  const plain = regionNamed ? "a plain resource (once it names a region)" : "a plain resource";
  const ns = ctx.snapshot.namespaces.get(namespace);
  switch (decision.source) {
    case "accountCARM":
      return `${plain}: the namespace is annotated ${namespaceAnnotations.ownerAccountId}=${ns?.ownerAccountId?.raw ?? "?"}`;
    case "teamCARM":
      return `${plain}: the namespace is annotated ${namespaceAnnotations.teamId}=${ns?.teamId?.raw ?? "?"}`;
    case "iamRoleSelector":
      return `${plain}: IAMRoleSelector ${decision.selector?.name ?? "?"} matches it`;
    default:
      return `${plain}: nothing maps the namespace, so the default identity applies`;
  }
}

/** Resolves a plain resource of every kind in every namespace (invalid namespaces included). */
export function probePlainResources(
  ctx: AuditContext,
  conflicts: Conflicts,
): ReadonlyMap<string, PlainNamespace> {
  const out = new Map<string, PlainNamespace>();
  const hows = new Map<string, string>();
  const names = [...ctx.namespaces.all.map((ns) => ns.name), ...ctx.snapshot.invalidNamespaces.keys()];
  for (const name of names) {
    const config = ctx.snapshot.namespaces.get(name);
    const defaults: Defaults[number][] = [];
    const grantIds: (string | null)[] = [];
    const selectorDecided: boolean[] = [];
    let previous: {
      source: Decision["source"];
      hopKind: string | undefined;
      hopName: string | undefined;
      regionNamed: boolean;
      grant: Grant;
      how: string;
    } | null = null;
    ctx.kinds.forEach((kind, index) => {
      const { decision, identity } = decide(ctx, kind, name);
      defaults.push({
        kind: kind.kind,
        outcome: decision.outcome,
        roleARN: decision.roleARN,
        account: decision.account,
        message: flat(decision.message),
      });
      selectorDecided.push(identity.source === "iamRoleSelector" && identity.outcome !== "deny");
      let grantId: string | null = null;
      if (config !== undefined && identity.outcome === "use" && identity.drift === null) {
        // Within one namespace, the same source and final hop is the same grant, reached the
        // same way, whatever the kind (a CARM hop names its data key, service-level or not).
        const last = identity.chain[identity.chain.length - 1];
        const regionNamed = identity !== decision;
        const same =
          previous !== null &&
          previous.source === identity.source &&
          previous.hopKind === last?.kind &&
          previous.hopName === last?.name &&
          previous.regionNamed === regionNamed
            ? previous
            : null;
        const grant = same?.grant ?? grantOfDecision(ctx, identity, config, kind.service, null);
        if (grant !== null) {
          // Placement refused only for want of a region: the resource names one, and gets this.
          const how = same?.how ?? sharedText(hows, actualRoute(identity, ctx, name, regionNamed));
          ctx.reaches.add(name, grant, true, ctx.kindSets.bit(index), how);
          grantId = grant.id;
          previous = {
            source: identity.source,
            hopKind: last?.kind,
            hopName: last?.name,
            regionNamed,
            grant,
            how,
          };
        }
      } else if (identity.outcome === "conflict") {
        conflicts.record(identity, name, ctx.kindSets.bit(index));
      }
      grantIds.push(grantId);
    });
    out.set(name, { defaults, grantIds, selectorDecided });
  }
  return out;
}
