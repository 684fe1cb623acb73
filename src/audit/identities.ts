// Potential reaches through spec.identityRef: a namespace may name any identity whose whole
// chain admits it. Each chain is walked once with the resolver's own walkIdentityChain, and
// each namespace is tested with admitsNamespace — the functions ruleIdentityRef runs — only
// over the namespaces the most restrictive hop can admit. A chain through an
// AWSServiceAccountIdentity source depends on the namespace (it is looked up there), so it is
// walked again for each namespace holding an identity of that name.

import {
  admitsNamespace,
  type ChainLink,
  type ChainWalk,
  finalRoleOf,
  findIdentity,
  type IdentityRefTarget,
  walkIdentityChain,
} from "../resolver/rule-identity-ref.ts";
import { controllerIdentityKey } from "../resolver/snapshot-identities.ts";
import type { IdentityConfig, NamespaceConfig } from "../resolver/snapshot-types.ts";
import { compareText } from "../toolkit/compare-text.ts";
import type { AuditContext } from "./context.ts";
import type { Grant } from "./grants.ts";
import type { NamespaceIndex } from "./namespace-index.ts";

/** One identity grant and the concrete chains namespaces use through it (requested first). */
export interface IdentityChains {
  readonly grant: Grant;
  readonly chains: readonly (readonly ChainLink[])[];
  readonly namespaces: number;
}

/** No namespace is called this, so an AWSServiceAccountIdentity source is never found. */
const noNamespace = "";

/** A superset of the namespaces `link` admits. */
function candidatesOf(link: ChainLink, index: NamespaceIndex): readonly NamespaceConfig[] {
  if (link === "implicit-controller") return index.all;
  const allowed = link.allowedNamespaces;
  if (allowed === null) return index.named([link.namespace ?? ""]);
  if (allowed.kind === "none") return [];
  if (allowed.kind === "all") return index.all;
  const named = index.named(allowed.namespaces);
  if (allowed.selector === null) return named;
  const selected = index.candidatesFor(allowed.selector);
  if (named.length === 0) return selected;
  return [...new Set([...named, ...selected])];
}

/** The namespaces that may use the whole chain. */
function admitted(links: readonly ChainLink[], index: NamespaceIndex): NamespaceConfig[] {
  let narrowest: readonly NamespaceConfig[] | null = null;
  for (const link of links) {
    const candidates = candidatesOf(link, index);
    if (narrowest === null || candidates.length < narrowest.length) narrowest = candidates;
    if (candidates.length === 0) return [];
  }
  const out: NamespaceConfig[] = [];
  for (const ns of narrowest ?? []) {
    if (links.every((link) => admitsNamespace(link, ns.name, ns.labels))) out.push(ns);
  }
  return out;
}

function refOf(identity: IdentityConfig): IdentityRefTarget {
  return { kind: identity.kind, name: identity.name };
}

/** The requested identities: every cluster-scoped one, and the implicit controller identity. */
function clusterTargets(ctx: AuditContext): IdentityRefTarget[] {
  const { cluster, invalid } = ctx.snapshot.identities;
  const targets = [...cluster.values()].map(refOf);
  if (!cluster.has(controllerIdentityKey) && !invalid.has(controllerIdentityKey)) {
    targets.push({ kind: "AWSControllerIdentity", name: "default" });
  }
  return targets.sort((a, b) => compareText(`${a.kind}/${a.name}`, `${b.kind}/${b.name}`));
}

export function addIdentityReaches(ctx: AuditContext): IdentityChains[] {
  const { snapshot, namespaces: index, reaches, kindSets, grants } = ctx;
  const identities = snapshot.identities;
  const out: IdentityChains[] = [];
  // Namespaces holding an AWSServiceAccountIdentity of each name.
  const saNamespaces = new Map<string, string[]>();
  for (const sa of identities.serviceAccount.values()) {
    const list = saNamespaces.get(sa.name);
    if (list === undefined) saNamespaces.set(sa.name, [sa.namespace ?? ""]);
    else list.push(sa.namespace ?? "");
  }
  const how = (target: IdentityRefTarget) => `spec.identityRef to ${target.kind} ${target.name}`;

  for (const target of clusterTargets(ctx)) {
    const walk = walkIdentityChain(target, (ref) => findIdentity(ref, noNamespace, identities));
    const failure = walk.failure;
    if (failure === null) {
      const grant = grants.identity(target, walk.links, finalRoleOf(walk.links));
      const text = how(target);
      const users = admitted(walk.links, index);
      for (const ns of users) reaches.add(ns.name, grant, false, kindSets.all, text);
      out.push({ grant, chains: [walk.links], namespaces: users.length });
      continue;
    }
    // Only a service-account source can still be found: in the namespace using the chain.
    if (failure.kind !== "missing" || failure.ref.kind !== "AWSServiceAccountIdentity") continue;
    const grant = grants.identity(target, walk.links, finalRoleOf(walk.links), [
      {
        kind: "AWSServiceAccountIdentity",
        name: failure.ref.name,
        admits: "the one in the resource's own namespace (its role's trust policy decides the rest)",
      },
    ]);
    const chains: ChainLink[][] = [];
    const text = how(target);
    let users = 0;
    for (const name of saNamespaces.get(failure.ref.name) ?? []) {
      const ns = index.byName.get(name);
      if (ns === undefined) continue;
      const local: ChainWalk = walkIdentityChain(target, (ref) => findIdentity(ref, name, identities));
      if (local.failure !== null) continue;
      chains.push([...local.links]);
      if (local.links.every((link) => admitsNamespace(link, name, ns.labels))) {
        reaches.add(name, grant, false, kindSets.all, text);
        users++;
      }
    }
    out.push({ grant, chains, namespaces: users });
  }

  // An AWSServiceAccountIdentity requested directly: only from its own namespace.
  const serviceAccounts = [...identities.serviceAccount.values()].sort((a, b) =>
    compareText(`${a.namespace}/${a.name}`, `${b.namespace}/${b.name}`),
  );
  for (const sa of serviceAccounts) {
    const name = sa.namespace ?? "";
    const target = refOf(sa);
    const walk = walkIdentityChain(target, (ref) => findIdentity(ref, name, identities));
    if (walk.failure !== null) continue;
    const grant = grants.identity({ ...target, namespace: name }, walk.links, finalRoleOf(walk.links));
    const ns = index.byName.get(name);
    const admits = ns !== undefined && walk.links.every((link) => admitsNamespace(link, name, ns.labels));
    if (admits) reaches.add(name, grant, false, kindSets.all, how(target));
    out.push({ grant, chains: [walk.links], namespaces: admits ? 1 : 0 });
  }
  return out;
}
