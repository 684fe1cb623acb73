// Objects ACK made, and when crossrole may take them over (docs/migrate-from-ack.md). Pure.
//
// An ACK service controller tags what it creates with `services.k8s.aws/controller-version:
// <service>-<version>` and `services.k8s.aws/namespace: <namespace>` (its runtime's default
// resourceTags) — but not with crossrole's owner tags, so to crossrole such an object is
// "untagged". Its Kubernetes object already exists when crossrole replaces ACK, in the state ACK
// left it (Synced, ACK's finalizer, status from AWS). Taking it over means adding crossrole's
// ownership tags; it happens only:
// - when an administrator approved that very object (its UID) in the system namespace's
//   ConfigMap `crossrole-ack-takeover` (`crossrole takeover --from-ack --apply` writes it after
//   printing its proof); a tenant cannot write there, so a tenant cannot take anything over;
// - and the AWS object, read now in the account the resource is decided into now, carries ACK's
//   tags naming the object's own namespace. An ACK object made for another namespace is never
//   taken — not even with an adoption policy, which would otherwise take any untagged object.
import { ownershipTagKeys } from "../api/ownership-tags.ts";
import { type Owner, taggedOwner } from "./ownership.ts";

/** The system-namespace ConfigMap of approved takeovers: `<Kind>.<namespace>.<name>` → UID. */
export const takeoverConfigMapName = "crossrole-ack-takeover";

/** The key of an object in the takeover ConfigMap (ConfigMap keys allow `[-._a-zA-Z0-9]`). */
export const takeoverKey = (o: {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}): string => `${o.kind}.${o.namespace}.${o.name}`;

/** What the tags say about an object ACK made. */
export interface AckMade {
  /** `services.k8s.aws/controller-version`, e.g. `s3-v1.10.0`. */
  readonly controllerVersion: string;
  /** `services.k8s.aws/namespace`: the namespace ACK made it for (empty when missing). */
  readonly namespace: string;
  /** ACK made it for another namespace: never taken from this object, not even by adoption. */
  readonly forOtherNamespace: boolean;
  /** Whether this object may take it over now; when not, why (a sentence). */
  readonly approved: boolean;
  readonly why: string;
}

/**
 * Whether `tags` are ACK's own for `service` (and not crossrole's, which writes the same keys),
 * and whether `self` may take the object over given the approved UID for it (if any).
 * Undefined: ACK did not make it (as far as the tags say).
 */
export function judgeAckMade(
  tags: Readonly<Record<string, string>>,
  self: Owner,
  service: string,
  approvedUid: string | undefined,
): AckMade | undefined {
  const controllerVersion = tags[ownershipTagKeys.controllerVersion];
  if (controllerVersion === undefined || !controllerVersion.startsWith(`${service}-`)) return undefined;
  const crossroles = taggedOwner(tags);
  if (crossroles.owner !== undefined || crossroles.uid !== undefined) return undefined;
  const namespace = tags[ownershipTagKeys.namespace] ?? "";
  const made = { controllerVersion, namespace, forOtherNamespace: namespace !== self.namespace };
  if (made.forOtherNamespace) {
    return {
      ...made,
      approved: false,
      why: `ACK (${controllerVersion}) made it for ${namespace === "" ? "no namespace (its namespace tag is missing)" : `namespace ${namespace}`}, not for ${self.namespace}: it is never taken over from here`,
    };
  }
  if (approvedUid === undefined) {
    return {
      ...made,
      approved: false,
      why: `ACK (${controllerVersion}) made it for namespace ${namespace}; crossrole takes it over only once an administrator approves it: run crossrole takeover --from-ack (see docs/migrate-from-ack.md)`,
    };
  }
  if (approvedUid !== self.uid) {
    return {
      ...made,
      approved: false,
      why: `ACK (${controllerVersion}) made it; the takeover approved in ConfigMap ${takeoverConfigMapName} is for another object of this name (uid ${approvedUid}, this one is ${self.uid}): run crossrole takeover --from-ack again`,
    };
  }
  return {
    ...made,
    approved: true,
    why: `ACK (${controllerVersion}) made it for namespace ${namespace}, and its takeover is approved in ConfigMap ${takeoverConfigMapName}`,
  };
}

/** The approvals a takeover ConfigMap holds (`data`: key → UID); empty when there is none. */
export function takeoverApprovals(configMap: object | undefined): ReadonlyMap<string, string> {
  const data = (configMap as { data?: unknown } | undefined)?.data;
  if (typeof data !== "object" || data === null) return new Map();
  return new Map(Object.entries(data).filter((e): e is [string, string] => typeof e[1] === "string"));
}

/**
 * The `<namespace>/<name>` keys of `kind`'s objects whose approval was added, changed or
 * withdrawn between `before` and `after`.
 */
export function changedApprovals(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
  kind: string,
): string[] {
  const out: string[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    if (before.get(key) === after.get(key)) continue;
    // `<Kind>.<namespace>.<name>`: namespaces have no dots; names may.
    const [k, namespace, ...name] = key.split(".");
    if (k === kind && namespace && name.length > 0) out.push(`${namespace}/${name.join(".")}`);
  }
  return out;
}
