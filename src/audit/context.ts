// What every step of the audit shares: the snapshot and settings, the served kinds, the grant
// and reach books, and the two calls into the resolver — `decide` (resolve() on a synthetic
// resource) and `grantOfDecision` (which administrator object a `use` decision went through).

import { resourceAnnotations } from "../api/annotations.ts";
import { apiVersionOf, type ResourceKind } from "../api/kinds.ts";
import { resolve } from "../resolver/resolve.ts";
import type { NamespaceConfig, Snapshot } from "../resolver/snapshot-types.ts";
import type { Decision, ResourceObject, Settings } from "../resolver/types.ts";
import { compareText } from "../toolkit/compare-text.ts";
import { controllerCredentials, type Grant, GrantBook, identityGrantId } from "./grants.ts";
import type { AuditInput } from "./input.ts";
import type { AuditMode } from "./model.ts";
import { NamespaceIndex } from "./namespace-index.ts";
import { KindSets, ReachBook } from "./reaches.ts";

/** The name of the synthetic resources the audit asks the resolver about. */
const probeName = "<any>";

/**
 * A region the probes carry only when their namespace and the settings give none: the identity
 * is chosen before the region (DESIGN §3.1), and any resource may name its own region, so a
 * missing default must not hide which role a namespace reaches. Never shown in the report.
 */
const probeRegion = "us-east-1";

export interface AuditContext {
  readonly snapshot: Snapshot;
  readonly settings: Settings;
  readonly mode: AuditMode;
  /** Served kinds sorted by kind name; index i is bit i of a kind mask. */
  readonly kinds: readonly ResourceKind[];
  readonly kindSets: KindSets;
  readonly namespaces: NamespaceIndex;
  readonly grants: GrantBook;
  readonly reaches: ReachBook;
}

function auditModeOf(settings: Settings): AuditMode {
  return settings.featureGates.IAMRoleSelector ? "IAMRoleSelector" : "CARM";
}

/** CARM lookups happen at all (CARM mode with --enable-carm). */
export function carmActive(settings: Settings): boolean {
  return !settings.featureGates.IAMRoleSelector && settings.enableCARM;
}

export function createContext(input: AuditInput): AuditContext {
  const kinds = [...input.kinds].sort((a, b) => compareText(a.kind, b.kind));
  const services = [...new Set(kinds.map((k) => k.service))];
  const kindSets = new KindSets(kinds.map((k) => k.kind));
  return {
    snapshot: input.snapshot,
    settings: input.settings,
    mode: auditModeOf(input.settings),
    kinds,
    kindSets,
    namespaces: new NamespaceIndex(input.snapshot.namespaces.values()),
    grants: new GrantBook(input.snapshot, input.settings, services),
    reaches: new ReachBook(kindSets),
  };
}

export function probe(
  kind: ResourceKind,
  namespace: string,
  annotations?: Readonly<Record<string, string>>,
): ResourceObject {
  return {
    apiVersion: apiVersionOf(kind),
    kind: kind.kind,
    metadata:
      annotations === undefined
        ? { name: probeName, namespace }
        : { name: probeName, namespace, annotations },
    spec: {},
  };
}

export interface Decided {
  /** What the controller decides for the resource as given. */
  readonly decision: Decision;
  /**
   * The decision that shows the identity: the same, unless placement refused only for want of
   * a region, in which case the resource is asked about again naming one.
   */
  readonly identity: Decision;
}

/** resolve() on a synthetic resource of `kind` in `namespace`. */
export function decide(
  ctx: AuditContext,
  kind: ResourceKind,
  namespace: string,
  annotations?: Readonly<Record<string, string>>,
): Decided {
  const { snapshot, settings } = ctx;
  const decision = resolve(probe(kind, namespace, annotations), namespace, snapshot, settings);
  // A well-formed resource in a known namespace is refused with no source only by placement
  // (region, endpoint): the identity was already chosen. Naming a region tells which.
  if (decision.outcome !== "wait" || decision.source !== null || !snapshot.namespaces.has(namespace)) {
    return { decision, identity: decision };
  }
  const again = resolve(
    probe(kind, namespace, { ...annotations, [resourceAnnotations.region]: probeRegion }),
    namespace,
    snapshot,
    settings,
  );
  return { decision, identity: again };
}

/**
 * The grant a `use` decision went through, read from its source and chain. `resourceAccount`:
 * the resource's own owner-account-id annotation, when it carried one.
 */
export function grantOfDecision(
  ctx: AuditContext,
  decision: Decision,
  namespace: NamespaceConfig,
  service: string,
  resourceAccount: string | null,
): Grant | null {
  const { grants, settings } = ctx;
  const last = decision.chain[decision.chain.length - 1];
  switch (decision.source) {
    case "default":
      return grants.controller();
    case "iamRoleSelector": {
      const selector =
        decision.selector === null ? undefined : ctx.snapshot.selectors.byName.get(decision.selector.name);
      return selector === undefined ? null : grants.selector(selector);
    }
    case "accountCARM":
    case "teamCARM": {
      if (last?.kind !== "CARM") return null;
      const subject = decision.source === "accountCARM" ? "account" : "team";
      // Rule 3a outranks the namespace's annotations whenever the gate lets it apply.
      const resourceLevel =
        subject === "account" && resourceAccount !== null && settings.featureGates.ResourceLevelCARM;
      const id = resourceLevel
        ? resourceAccount
        : subject === "account"
          ? okValue(namespace.ownerAccountId)
          : okValue(namespace.teamId);
      if (id === null) return null;
      const entry = ctx.grants.carmEntryFor(subject, last.name, [`${service}.${id}`, id]);
      return entry === null ? null : grants.carm(entry, resourceLevel);
    }
    case "identityRef": {
      // The requested identity is the last hop (the chain is base first).
      if (last === undefined) return null;
      const id = identityGrantId({
        kind: last.kind,
        name: last.name,
        // Only a service-account identity is namespaced: the hop's, else the resource's namespace.
        namespace: last.kind === "AWSServiceAccountIdentity" ? (last.namespace ?? namespace.name) : undefined,
      });
      return grants.get(id) ?? null;
    }
    default:
      return null;
  }
}

function okValue(value: NamespaceConfig["ownerAccountId"]): string | null {
  return value?.ok ? value.value : null;
}

/** The role ARN, or whose credentials, for text. */
export function roleLabel(roleARN: string | null, credentials: string | undefined): string {
  if (roleARN !== null) return roleARN;
  if (credentials === undefined || credentials === controllerCredentials)
    return "the controller's own credentials";
  return `the static keys of ${credentials.replace("/", " ")}`;
}
