// DESIGN §3.1 step 1: `spec.identityRef`. The named identity must exist (an
// AWSServiceAccountIdentity in the resource's own namespace) and every identity in its chain
// must admit the namespace through allowedNamespaces; otherwise `deny`, naming the hop that
// refused. It outranks selectors and CARM because the administrator granted it explicitly.

import { isIdentityKind } from "../api/identity-ref.ts";
import { accountOfRoleArn } from "../api/validation.ts";
import type { Labels } from "../selector/label-selector.ts";
import { type Choice, type Context, refused } from "./choice.ts";
import { refusal } from "./decision.ts";
import { controllerHop, identityHop } from "./hops.ts";
import {
  clusterIdentityKey,
  controllerIdentityKey,
  identityKey,
  serviceAccountIdentityKey,
} from "./snapshot-identities.ts";
import { isRecord } from "./snapshot-objects.ts";
import type { IdentityConfig, IdentityIndex, IdentityKindName } from "./snapshot-types.ts";
import type { ChainHop } from "./types.ts";

const rule = "identityRef";

/** Longer than any sane chain; a guard in case the snapshot's cycle check is ever bypassed. */
const maxChainLength = 16;

/** An identity named by spec.identityRef or a sourceIdentityRef. */
export interface IdentityRefTarget {
  readonly kind: IdentityKindName;
  readonly name: string;
}

type Ref = IdentityRefTarget;

function readRef(raw: unknown): Ref | string {
  if (!isRecord(raw)) return "spec.identityRef must be {kind, name}";
  const kind = raw["kind"];
  const name = raw["name"];
  if (typeof kind !== "string" || !isIdentityKind(kind)) {
    return `spec.identityRef.kind ${JSON.stringify(kind ?? null)} is not one of AWSControllerIdentity, AWSStaticIdentity, AWSRoleIdentity, AWSServiceAccountIdentity`;
  }
  if (typeof name !== "string" || name === "") return "spec.identityRef.name must be a non-empty string";
  return { kind, name };
}

export type FoundIdentity =
  | { readonly identity: IdentityConfig | "implicit-controller" }
  | { readonly missing: string };

/**
 * Finds one identity the way a chain walk may: an AWSServiceAccountIdentity in `ns` (the
 * resource's own namespace), anything else cluster-scoped. `implicit-controller`: no
 * AWSControllerIdentity/default exists, so every namespace may use the controller's
 * credentials (§3.2).
 */
export function findIdentity(ref: Ref, ns: string, identities: IdentityIndex): FoundIdentity {
  if (ref.kind === "AWSServiceAccountIdentity") {
    const identity = identities.serviceAccount.get(serviceAccountIdentityKey(ns, ref.name));
    if (identity !== undefined) return { identity };
    const why = identities.invalid.get(identityKey(ref.kind, ref.name, ns));
    return {
      missing:
        why === undefined
          ? `AWSServiceAccountIdentity ${ref.name} does not exist in namespace ${ns} (it is looked up in the resource's own namespace)`
          : `AWSServiceAccountIdentity ${ns}/${ref.name} cannot be used: ${why}`,
    };
  }
  if (ref.kind === "AWSControllerIdentity" && ref.name !== "default") {
    return {
      missing: `AWSControllerIdentity ${ref.name} does not exist: the controller identity is a singleton named default`,
    };
  }
  const key = clusterIdentityKey(ref.kind, ref.name);
  const identity = identities.cluster.get(key);
  if (identity !== undefined) {
    const why = identities.invalid.get(key);
    return why === undefined ? { identity } : { missing: `${ref.kind} ${ref.name} cannot be used: ${why}` };
  }
  const why = identities.invalid.get(key);
  if (why !== undefined) return { missing: `${ref.kind} ${ref.name} cannot be used: ${why}` };
  if (key === controllerIdentityKey) return { identity: "implicit-controller" };
  return { missing: `${ref.kind} ${ref.name} does not exist` };
}

/** One identity of a chain, or the controller's credentials when no AWSControllerIdentity exists. */
export type ChainLink = IdentityConfig | "implicit-controller";

/**
 * An identity chain walked from the requested identity to its base credentials, without
 * checking who may use it (that is `admitsNamespace`, per link). The audit walks each chain
 * once and tests namespaces against it; ruleIdentityRef walks it per decision.
 */
export interface ChainWalk {
  /** The identities found, requested first. */
  readonly links: readonly ChainLink[];
  /** `Kind name` of every identity visited, requested first, the one that failed included. */
  readonly path: readonly string[];
  /** Why the walk stopped before reaching base credentials, at identity `ref`; null when it did. */
  readonly failure:
    | { readonly kind: "missing"; readonly ref: Ref; readonly missing: string }
    | { readonly kind: "loop"; readonly ref: Ref }
    | null;
}

/** Follows sourceIdentityRef from `first`; `find` looks each identity up (see findIdentity). */
export function walkIdentityChain(first: Ref, find: (ref: Ref) => FoundIdentity): ChainWalk {
  const links: ChainLink[] = [];
  const path: string[] = [];
  const seen = new Set<string>();
  let current: Ref = first;
  for (;;) {
    const label = `${current.kind} ${current.name}`;
    path.push(label);
    if (seen.has(label) || path.length > maxChainLength) {
      return { links, path, failure: { kind: "loop", ref: current } };
    }
    seen.add(label);
    const found = find(current);
    if ("missing" in found)
      return { links, path, failure: { kind: "missing", ref: current, missing: found.missing } };
    links.push(found.identity);
    const identity = found.identity;
    if (
      identity !== "implicit-controller" &&
      identity.kind === "AWSRoleIdentity" &&
      identity.source !== undefined
    ) {
      current = identity.source;
      continue;
    }
    return { links, path, failure: null };
  }
}

/**
 * Whether one link of a chain lets `namespace` use it: a cluster-scoped identity through its
 * allowedNamespaces; an AWSServiceAccountIdentity (allowedNamespaces null) always, because it
 * was found in the resource's own namespace; the implicit controller identity always (§3.2).
 */
export function admitsNamespace(link: ChainLink, namespace: string, labels: Labels): boolean {
  if (link === "implicit-controller") return true;
  return link.allowedNamespaces === null || link.allowedNamespaces.allows(namespace, labels);
}

/** The role AWS sees at the end of a chain: the one nearest the requested identity; null when none. */
export function finalRoleOf(links: readonly ChainLink[]): string | null {
  for (const link of links) {
    if (link !== "implicit-controller" && link.roleARN !== undefined) return link.roleARN;
  }
  return null;
}

/** ` (reached from spec.identityRef through A → B)` for the identity at `index` of `path`. */
function viaText(path: readonly string[], index: number): string {
  return index > 0 ? ` (reached from spec.identityRef through ${path.slice(0, index + 1).join(" → ")})` : "";
}

export function ruleIdentityRef(ctx: Context): Choice {
  const { trace, namespace } = ctx;
  const ns = namespace.name;
  const first = readRef(ctx.resource.identityRef);
  if (typeof first === "string") {
    trace.failed(rule, `${first}.`);
    return refused(
      refusal(
        "deny",
        "identityRef",
        `${first}; fix spec.identityRef of ${ctx.resource.kind} ${ns}/${ctx.resource.name}`,
      ),
    );
  }
  trace.info(
    rule,
    `spec.identityRef names ${first.kind} ${first.name}; it takes precedence over IAMRoleSelectors and CARM.`,
  );

  // Walk from the requested identity to the base credentials, then check every link in order:
  // the first refusal (a link that does not admit the namespace, else the walk's own failure)
  // is the one reported. `walked` is requested-first.
  const walk = walkIdentityChain(first, (ref) => findIdentity(ref, ns, ctx.snapshot.identities));
  const walked: ChainHop[] = [];
  let base: "controller" | "static" | null = null;
  for (let i = 0; i < walk.links.length; i++) {
    const link = walk.links[i]!;
    const label = walk.path[i]!;
    const via = viaText(walk.path, i);
    if (link === "implicit-controller") {
      trace.taken(
        rule,
        `AWSControllerIdentity default does not exist, so every namespace may use the controller's own credentials (as in ACK).`,
      );
      walked.push(controllerHop);
      base = "controller";
      break;
    }
    const allowed = link.allowedNamespaces;
    if (!admitsNamespace(link, ns, namespace.labels)) {
      const message = `${label} does not allow namespace ${ns}${via}: its allowedNamespaces admits ${allowed?.describe() ?? "nothing"}; an administrator must add ${ns} to ${label}'s spec.allowedNamespaces, or use another identity`;
      trace.failed(rule, `${message}.`);
      return refused(refusal("deny", "identityRef", message));
    }
    if (allowed !== null) {
      trace.taken(rule, `${label} admits namespace ${ns} (allowedNamespaces: ${allowed.describe()}).`);
    } else {
      trace.taken(rule, `${label} is in the resource's own namespace ${ns}, so it may be used.`);
    }
    walked.push(identityHop(link));
    base = link.kind === "AWSStaticIdentity" ? "static" : "controller";
  }
  const failure = walk.failure;
  if (failure !== null) {
    if (failure.kind === "loop") {
      const message = `the identity chain ${walk.path.join(" → ")} loops or is longer than ${maxChainLength} hops; fix the sourceIdentityRef fields`;
      trace.failed(rule, `${message}.`);
      return refused(refusal("deny", "identityRef", message));
    }
    const via = viaText(walk.path, walk.links.length);
    trace.failed(rule, `${failure.missing}${via}.`);
    return refused(
      refusal(
        "deny",
        "identityRef",
        `${failure.missing}${via}; fix or create it, or change spec.identityRef`,
      ),
    );
  }
  const lastRole = finalRoleOf(walk.links);
  const chain = walked.reverse();
  const roleAccount = lastRole === null ? null : accountOfRoleArn(lastRole);
  trace.info(rule, `Chain: ${chain.map((h) => `${h.kind} ${h.name}`).join(" → ")}.`);
  return {
    kind: "chosen",
    source: "identityRef",
    chain,
    roleARN: lastRole,
    account:
      roleAccount !== null
        ? { from: "role", account: roleAccount }
        : base === "static"
          ? { from: "static" }
          : { from: "controller" },
    selector: null,
    teamEndpoint: null,
    via: `${first.kind} ${first.name}`,
  };
}
