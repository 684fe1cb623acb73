// The grants of an audit: every administrator object that can hand a namespace a role (a CARM
// key, an IAMRoleSelector, an identity chain, the controller's own credentials), with a stable
// id, the role it leads to and each hop of the way. Created once per object and shared by
// every reach through it.

import { namespaceAnnotations } from "../api/annotations.ts";
import type { CarmEntry, CarmSubject } from "../api/carm.ts";
import { accountOfRoleArn } from "../api/validation.ts";
import type { ChainLink } from "../resolver/rule-identity-ref.ts";
import { carmLookupKey } from "../resolver/snapshot-carm.ts";
import type { CarmMapState, SelectorConfig, Snapshot } from "../resolver/snapshot-types.ts";
import type { Settings } from "../resolver/types.ts";
import type { CompiledAllowedNamespaces } from "../selector/allowed-namespaces.ts";
import { compareText } from "../toolkit/compare-text.ts";
import type { AuditGrant, AuditHop, GrantKind } from "./model.ts";

/** The report's grant (model.ts) as the audit builds it, before namespaces are counted. */
export interface Grant extends Omit<AuditGrant, "namespaceCount"> {
  /** Groups reaches into roles: the role ARN, else whose credentials (`credentials`). */
  readonly roleKey: string;
  /** For a null role ARN: `controller` or `AWSStaticIdentity/<name>`. */
  readonly credentials?: string;
  /** The CARM entry behind a map grant (for findings). */
  readonly entry?: CarmEntry;
}

export const controllerCredentials = "controller";
const controllerGrantId = "controller:default";

/** A grant reached through an identity: `identity:AWSRoleIdentity/name`, `identity:Kind/namespace/name`. */
export function identityGrantId(ref: {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string | undefined;
}): string {
  return ref.namespace === undefined
    ? `identity:${ref.kind}/${ref.name}`
    : `identity:${ref.kind}/${ref.namespace}/${ref.name}`;
}

/** `every namespace`, `list [a, b]`, `selector team=a`, `list [a] or selector team=a`. */
function admitsText(allowed: CompiledAllowedNamespaces): string {
  if (allowed.kind === "all") return "allowedNamespaces: {} (every namespace)";
  if (allowed.kind === "none") return allowed.describe();
  const parts: string[] = [];
  if (allowed.namespaces.length > 0) parts.push(`list [${allowed.namespaces.join(", ")}]`);
  if (allowed.selector !== null) parts.push(`selector ${allowed.selector.toString()}`);
  return parts.join(" or ");
}

/** What an IAMRoleSelector applies to, in one line. */
function selectorScopeText(selector: SelectorConfig): string {
  const parts = [
    selector.namespaceNames !== null
      ? `namespaces [${selector.namespaceNames.join(", ")}]`
      : selector.namespaceLabels !== null
        ? `namespaces with labels ${selector.namespaceLabels.toString()}`
        : "every namespace",
  ];
  if (selector.namespaceNames !== null && selector.namespaceLabels !== null) {
    parts[0] += ` with labels ${selector.namespaceLabels.toString()}`;
  }
  if (selector.resourceTypes !== null) {
    const types = selector.resourceTypes.map((t) => `${t.group ?? "*"}/${t.version ?? "*"}/${t.kind ?? "*"}`);
    parts.push(`types [${types.join(", ")}]`);
  }
  if (selector.resourceLabels !== null)
    parts.push(`resources with labels ${selector.resourceLabels.toString()}`);
  return parts.join("; ");
}

function withAccount(hop: AuditHop, account: string | null): AuditHop {
  return account === null ? hop : { ...hop, account };
}

export class GrantBook {
  readonly #grants = new Map<string, Grant>();
  /** The selector grants by compiled selector: one lookup per decision, no id to build. */
  readonly #bySelector = new Map<SelectorConfig, Grant>();
  readonly #snapshot: Snapshot;
  readonly #controllerAccount: string | null;
  /** Services of the served kinds, to read `<service>.<team>` team keys. */
  readonly #services: readonly string[];

  constructor(snapshot: Snapshot, settings: Settings, services: readonly string[]) {
    this.#snapshot = snapshot;
    this.#controllerAccount = settings.controllerAccount;
    this.#services = services;
  }

  get(id: string): Grant | undefined {
    return this.#grants.get(id);
  }

  /** Every grant created so far, sorted by id. */
  all(): Grant[] {
    return [...this.#grants.values()].sort((a, b) => compareText(a.id, b.id));
  }

  #add(grant: Grant): Grant {
    const existing = this.#grants.get(grant.id);
    if (existing !== undefined) return existing;
    this.#grants.set(grant.id, grant);
    return grant;
  }

  /** The hop that assumes a mapped role: the controller's own credentials. */
  controllerBaseHop(): AuditHop {
    return withAccount({ kind: "AWSControllerIdentity", name: "default" }, this.#controllerAccount);
  }

  /** The default rule (§3.2); null when AWSControllerIdentity/default is invalid (nobody may use it). */
  controller(): Grant | null {
    const existing = this.#grants.get(controllerGrantId);
    if (existing !== undefined) return existing;
    const identities = this.#snapshot.identities;
    const key = "AWSControllerIdentity/default";
    if (identities.invalid.has(key)) return null;
    const identity = identities.cluster.get(key);
    const admits =
      identity?.allowedNamespaces != null
        ? admitsText(identity.allowedNamespaces)
        : "every namespace (no AWSControllerIdentity default exists, as in ACK)";
    return this.#add({
      id: controllerGrantId,
      kind: "controller",
      object: { kind: "AWSControllerIdentity", name: "default" },
      roleARN: null,
      account: this.#controllerAccount,
      hops: [{ ...this.controllerBaseHop(), admits }],
      roleKey: controllerCredentials,
      credentials: controllerCredentials,
    });
  }

  selector(selector: SelectorConfig): Grant {
    const cached = this.#bySelector.get(selector);
    if (cached !== undefined) return cached;
    const id = `IAMRoleSelector:${selector.name}`;
    const existing = this.#grants.get(id);
    if (existing !== undefined) return existing;
    const account = accountOfRoleArn(selector.arn);
    const grant = this.#add({
      id,
      kind: "IAMRoleSelector",
      object: { kind: "IAMRoleSelector", name: selector.name },
      roleARN: selector.arn,
      account,
      hops: [
        withAccount(
          {
            kind: "IAMRoleSelector",
            name: selector.name,
            roleARN: selector.arn,
            admits: selectorScopeText(selector),
          },
          account,
        ),
        this.controllerBaseHop(),
      ],
      roleKey: selector.arn,
    });
    this.#bySelector.set(selector, grant);
    return grant;
  }

  /** Who a CARM key is meant for, from its lookup id. */
  #carmAdmits(entry: CarmEntry, resourceLevel: boolean): string {
    if (resourceLevel) {
      return `resources annotated services.k8s.aws/owner-account-id=${accountPart(entry)} in namespaces whose ${namespaceAnnotations.allowedOwnerAccountIds} lists it${entry.service === null ? "" : ` (${entry.service} resources, ServiceLevelCARM)`}`;
    }
    if (entry.subject === "account") {
      return `namespaces annotated ${namespaceAnnotations.ownerAccountId}=${accountPart(entry)}${entry.service === null ? "" : ` (${entry.service} resources, ServiceLevelCARM)`}`;
    }
    const service = this.#services.find((s) => entry.id.startsWith(`${s}.`));
    const plain = `namespaces annotated ${namespaceAnnotations.teamId}=${entry.id}`;
    return service === undefined
      ? plain
      : `${plain}, or ${namespaceAnnotations.teamId}=${entry.id.slice(service.length + 1)} for ${service} resources (ServiceLevelCARM)`;
  }

  /** A CARM role entry; `resourceLevel` when reached through a resource's own owner-account-id. */
  carm(entry: CarmEntry, resourceLevel: boolean): Grant {
    const kind: GrantKind = resourceLevel
      ? "resourceAccount"
      : entry.subject === "account"
        ? "accountMap"
        : "teamMap";
    const id = `${kind}:${entry.map}/${entry.key}`;
    const existing = this.#grants.get(id);
    if (existing !== undefined) return existing;
    const roleARN = entry.value.trim();
    const account = accountOfRoleArn(roleARN);
    return this.#add({
      id,
      kind,
      object: { kind: "ConfigMap", name: entry.map, namespace: this.#snapshot.systemNamespace },
      key: entry.key,
      roleARN,
      account,
      hops: [
        withAccount(
          { kind: "CARM", name: entry.key, roleARN, admits: this.#carmAdmits(entry, resourceLevel) },
          account,
        ),
        this.controllerBaseHop(),
      ],
      roleKey: roleARN,
      entry,
    });
  }

  /**
   * The CARM entry a decision used: the map entry with the data key its CARM hop names, among
   * the entries filed under one of the lookup ids the rule may have asked for.
   */
  carmEntryFor(subject: CarmSubject, key: string, ids: readonly string[]): CarmEntry | null {
    const carm = this.#snapshot.carm;
    const maps: CarmMapState[] = [subject === "account" ? carm.accountMap : carm.teamMap, carm.carmMap];
    for (const map of maps) {
      for (const id of ids) {
        const found = map.entries.get(carmLookupKey(subject, id, "role-arn"))?.find((e) => e.key === key);
        if (found !== undefined) return found;
      }
    }
    return null;
  }

  /** Every usable role entry of the CARM maps (what the account and team rules can hand out). */
  carmRoleEntries(): CarmEntry[] {
    const carm = this.#snapshot.carm;
    const out: CarmEntry[] = [];
    for (const map of [carm.accountMap, carm.teamMap, carm.carmMap]) {
      if (!map.present || map.unusable !== null) continue;
      for (const list of map.entries.values()) {
        for (const entry of list) if (entry.field === "role-arn" && entry.error === null) out.push(entry);
      }
    }
    return out;
  }

  /** An identity chain reached through spec.identityRef; `links` requested first. */
  identity(
    ref: { readonly kind: string; readonly name: string; readonly namespace?: string },
    links: readonly ChainLink[],
    roleARN: string | null,
    trailing: readonly AuditHop[] = [],
  ): Grant {
    const id = identityGrantId(ref);
    const existing = this.#grants.get(id);
    if (existing !== undefined) return existing;
    const last = links[links.length - 1];
    const staticBase =
      last !== undefined && last !== "implicit-controller" && last.kind === "AWSStaticIdentity";
    const credentials =
      roleARN !== null
        ? undefined
        : staticBase
          ? `AWSStaticIdentity/${(last as { name: string }).name}`
          : controllerCredentials;
    const account =
      roleARN !== null ? accountOfRoleArn(roleARN) : staticBase ? null : this.#controllerAccount;
    return this.#add({
      id,
      kind: "identity",
      object: ref.namespace === undefined ? { kind: ref.kind, name: ref.name } : { ...ref },
      roleARN,
      account,
      hops: [...links.map((link) => this.#identityHop(link)), ...trailing],
      roleKey: roleARN ?? credentials ?? controllerCredentials,
      ...(credentials === undefined ? {} : { credentials }),
    });
  }

  #identityHop(link: ChainLink): AuditHop {
    if (link === "implicit-controller") {
      return {
        ...this.controllerBaseHop(),
        admits: "every namespace (no AWSControllerIdentity default exists, as in ACK)",
      };
    }
    const hop: { -readonly [K in keyof AuditHop]: AuditHop[K] } = { kind: link.kind, name: link.name };
    if (link.namespace !== undefined) hop.namespace = link.namespace;
    if (link.roleARN !== undefined) {
      hop.roleARN = link.roleARN;
      const account = accountOfRoleArn(link.roleARN);
      if (account !== null) hop.account = account;
    } else if (link.kind === "AWSControllerIdentity" && this.#controllerAccount !== null) {
      hop.account = this.#controllerAccount;
    }
    hop.admits =
      link.allowedNamespaces === null
        ? `its own namespace ${link.namespace ?? ""}`
        : admitsText(link.allowedNamespaces);
    return hop;
  }
}

/** The account part of an account key (`111111111111` of `s3.111111111111`). */
function accountPart(entry: CarmEntry): string {
  return entry.service === null ? entry.id : entry.id.slice(entry.service.length + 1);
}

/** For messages: `ConfigMap ack-system/ack-carm-map key team-id.a`. */
export function describeGrantObject(grant: Grant): string {
  const { kind, name, namespace } = grant.object;
  const object = `${kind} ${namespace === undefined ? "" : `${namespace}/`}${name}`;
  return grant.key === undefined ? object : `${object} key ${grant.key}`;
}
