// Identity objects (DESIGN §2.5): validated with the API schemas, allowedNamespaces compiled,
// and the sourceIdentityRef graph checked once for cycles and dangling references, so that a
// decision walking a chain only has to look things up.
//
// What cannot be checked here: a sourceIdentityRef to an AWSServiceAccountIdentity is looked
// up in the namespace of the resource being resolved, so it is checked per decision.

import { identitySchemas } from "../api/identities.ts";
import { isIdentityKind } from "../api/identity-ref.ts";
import { compileAllowedNamespaces } from "../selector/allowed-namespaces.ts";
import {
  deduplicateReporting,
  describeRef,
  invalidReason,
  issueProblems,
  listedTwiceReason,
  objectRefOf,
  problemValue,
} from "./snapshot-objects.ts";
import type { IdentityConfig, IdentityIndex, IdentityKindName } from "./snapshot-types.ts";
import type { HopParameters, ObjectRef, SnapshotProblem } from "./types.ts";

export const controllerIdentityKey = "AWSControllerIdentity/default";

/** Index key of a cluster-scoped identity. */
export function clusterIdentityKey(kind: string, name: string): string {
  return `${kind}/${name}`;
}

/** Index key of an AWSServiceAccountIdentity. */
export function serviceAccountIdentityKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

/** Key of any identity in `IdentityIndex.invalid`: `kind/name`, or `kind/namespace/name` when namespaced. */
export function identityKey(kind: string, name: string, namespace?: string): string {
  return kind === "AWSServiceAccountIdentity" ? `${kind}/${namespace ?? ""}/${name}` : `${kind}/${name}`;
}

const unusable = "until then resources that reference it are denied";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function parameters(spec: Readonly<Record<string, unknown>>): HopParameters {
  const p: Mutable<HopParameters> = {};
  const s = spec as {
    sessionName?: string;
    durationSeconds?: number;
    externalID?: string;
    inlinePolicy?: string;
    policyARNs?: string[];
    sessionTags?: { key: string; value: string }[];
    transitiveTagKeys?: string[];
    sourceIdentity?: string;
    tenantSessionTags?: boolean;
    secretRef?: string;
    serviceAccountName?: string;
    audiences?: string[];
    expirationSeconds?: number;
  };
  if (s.sessionName !== undefined) p.sessionName = s.sessionName;
  if (s.durationSeconds !== undefined) p.durationSeconds = s.durationSeconds;
  if (s.externalID !== undefined) p.externalID = s.externalID;
  if (s.inlinePolicy !== undefined) p.inlinePolicy = s.inlinePolicy;
  if (s.policyARNs !== undefined) p.policyARNs = [...s.policyARNs];
  if (s.sessionTags !== undefined) p.sessionTags = s.sessionTags.map((t) => ({ key: t.key, value: t.value }));
  if (s.transitiveTagKeys !== undefined) p.transitiveTagKeys = [...s.transitiveTagKeys];
  if (s.sourceIdentity !== undefined) p.sourceIdentity = s.sourceIdentity;
  if (s.tenantSessionTags !== undefined) p.tenantSessionTags = s.tenantSessionTags;
  if (s.secretRef !== undefined) p.secretRef = s.secretRef;
  if (s.serviceAccountName !== undefined) p.serviceAccountName = s.serviceAccountName;
  if (s.audiences !== undefined) p.audiences = [...s.audiences];
  if (s.expirationSeconds !== undefined) p.expirationSeconds = s.expirationSeconds;
  return p;
}

function compileIdentity(raw: unknown, problems: SnapshotProblem[]): IdentityConfig | null {
  const ref = objectRefOf(raw, "(identity)");
  if (!isIdentityKind(ref.kind)) {
    problems.push({
      object: ref,
      field: "kind",
      severity: "error",
      message: `${describeRef(ref)}: kind must be one of AWSControllerIdentity, AWSStaticIdentity, AWSRoleIdentity, AWSServiceAccountIdentity; the object is ignored`,
      fix: "set kind to one of the identity kinds",
    });
    return null;
  }
  const kind: IdentityKindName = ref.kind;
  const parsed = identitySchemas[kind].safeParse(raw);
  if (!parsed.success) {
    problems.push(...issueProblems(ref, parsed.error, unusable, raw));
    return null;
  }
  const meta = parsed.data.metadata;
  const spec = (parsed.data.spec ?? {}) as Readonly<Record<string, unknown>>;
  const base = {
    kind,
    name: meta.name,
    resourceVersion: meta.resourceVersion ?? "",
    parameters: parameters(spec),
    explicitSessionName: typeof spec["sessionName"] === "string",
  };
  if (kind === "AWSServiceAccountIdentity") {
    if (meta.namespace === undefined || meta.namespace === "") {
      problems.push({
        object: ref,
        field: "metadata.namespace",
        severity: "error",
        message: `${describeRef(ref)}: an AWSServiceAccountIdentity is namespaced but has no metadata.namespace; it is ignored`,
        fix: "set metadata.namespace to the namespace whose ServiceAccount it uses",
      });
      return null;
    }
    return {
      ...base,
      namespace: meta.namespace,
      allowedNamespaces: null,
      roleARN: spec["roleARN"] as string,
    };
  }
  const allowed = compileAllowedNamespaces(
    spec["allowedNamespaces"] as Parameters<typeof compileAllowedNamespaces>[0],
    "spec.allowedNamespaces",
  );
  if (!allowed.ok) {
    for (const error of allowed.errors) {
      problems.push({
        object: ref,
        field: "spec.allowedNamespaces",
        severity: "error",
        message: `${describeRef(ref)}: ${error}`,
        fix: `correct spec.allowedNamespaces; ${unusable}`,
        value: problemValue(spec["allowedNamespaces"]),
      });
    }
    return null;
  }
  for (const warning of allowed.warnings) {
    problems.push({
      object: ref,
      field: "spec.allowedNamespaces",
      severity: "warning",
      message: `${describeRef(ref)}: ${warning}`,
      fix: "check that spec.allowedNamespaces admits exactly the namespaces you mean",
      value: problemValue(spec["allowedNamespaces"]),
    });
  }
  const identity: IdentityConfig = { ...base, allowedNamespaces: allowed.allowed };
  if (kind === "AWSRoleIdentity") {
    const source = spec["sourceIdentityRef"] as { kind: IdentityKindName; name: string };
    return {
      ...identity,
      roleARN: spec["roleARN"] as string,
      source: { kind: source.kind, name: source.name },
    };
  }
  return identity;
}

function refOfIdentity(identity: IdentityConfig): ObjectRef {
  return identity.namespace === undefined
    ? { kind: identity.kind, name: identity.name }
    : { kind: identity.kind, name: identity.name, namespace: identity.namespace };
}

/**
 * Marks role identities whose sourceIdentityRef dangles (a cluster-scoped identity that does not
 * exist or is invalid) or that sit on a cycle. The source graph has out-degree one, so following
 * sources from each node finds every cycle; each is reported once, starting at its smallest key.
 */
function checkSources(
  cluster: Map<string, IdentityConfig>,
  excluded: ReadonlySet<string>,
  invalid: Map<string, string>,
  problems: SnapshotProblem[],
): void {
  const keys = [...cluster.keys()].sort();
  for (const key of keys) {
    const identity = cluster.get(key)!;
    const source = identity.source;
    if (source === undefined || source.kind === "AWSServiceAccountIdentity") continue;
    const sourceKey = clusterIdentityKey(source.kind, source.name);
    // AWSControllerIdentity/default may be absent: then everyone may use it (DESIGN §3.2).
    if (cluster.has(sourceKey) || (sourceKey === controllerIdentityKey && !excluded.has(sourceKey))) continue;
    const why = excluded.has(sourceKey) ? "exists but is invalid" : "does not exist";
    const reason = `its spec.sourceIdentityRef names ${source.kind} ${source.name}, which ${why}`;
    invalid.set(key, reason);
    problems.push({
      object: refOfIdentity(identity),
      field: "spec.sourceIdentityRef",
      severity: "error",
      message: `${describeRef(refOfIdentity(identity))}: ${reason}`,
      fix: `create ${source.kind} ${source.name} (or fix it), or point spec.sourceIdentityRef at an existing identity; ${unusable}`,
      value: `${source.kind}/${source.name}`,
    });
  }
  const done = new Set<string>();
  for (const start of keys) {
    const path: string[] = [];
    const onPath = new Map<string, number>();
    let key: string | undefined = start;
    while (key !== undefined && !done.has(key) && !onPath.has(key)) {
      onPath.set(key, path.length);
      path.push(key);
      const source: IdentityConfig["source"] = cluster.get(key)?.source;
      key = source === undefined ? undefined : clusterIdentityKey(source.kind, source.name);
    }
    if (key !== undefined && onPath.has(key)) {
      const cycle = path.slice(onPath.get(key)!);
      const first = cycle.indexOf([...cycle].sort()[0]!);
      const ordered = [...cycle.slice(first), ...cycle.slice(0, first)];
      const text = [...ordered, ordered[0]!].map((k) => k.replace("/", " ")).join(" → ");
      for (const member of ordered) {
        const reason = `its spec.sourceIdentityRef is part of a cycle: ${text}`;
        invalid.set(member, reason);
        const identity = cluster.get(member)!;
        problems.push({
          object: refOfIdentity(identity),
          field: "spec.sourceIdentityRef",
          severity: "error",
          message: `${describeRef(refOfIdentity(identity))}: ${reason}`,
          fix: `break the cycle by pointing one spec.sourceIdentityRef at an identity outside it; ${unusable}`,
          value: identity.source === undefined ? "" : `${identity.source.kind}/${identity.source.name}`,
        });
      }
    }
    for (const k of path) done.add(k);
  }
}

export function buildIdentityIndex(objects: readonly unknown[], problems: SnapshotProblem[]): IdentityIndex {
  const keyOf = (raw: unknown): string => {
    const ref = objectRefOf(raw, "(identity)");
    return identityKey(ref.kind, ref.name, ref.namespace);
  };
  const { unique, conflicting } = deduplicateReporting(
    objects,
    keyOf,
    (raw) => objectRefOf(raw, "(identity)"),
    "it is not used until only one remains",
    problems,
  );
  const cluster = new Map<string, IdentityConfig>();
  const serviceAccount = new Map<string, IdentityConfig>();
  const invalid = new Map<string, string>();
  const excluded = new Set<string>();
  for (const ref of conflicting) {
    const key = identityKey(ref.kind, ref.name, ref.namespace);
    invalid.set(key, listedTwiceReason);
    excluded.add(key);
  }
  for (const raw of unique) {
    const before = problems.length;
    const identity = compileIdentity(raw, problems);
    if (identity === null) {
      const ref = objectRefOf(raw, "(identity)");
      const key = identityKey(ref.kind, ref.name, ref.namespace);
      invalid.set(key, invalidReason(problems, before));
      excluded.add(key);
    } else if (identity.kind === "AWSServiceAccountIdentity") {
      serviceAccount.set(serviceAccountIdentityKey(identity.namespace!, identity.name), identity);
    } else {
      cluster.set(clusterIdentityKey(identity.kind, identity.name), identity);
    }
  }
  checkSources(cluster, excluded, invalid, problems);
  return { cluster, serviceAccount, invalid };
}
