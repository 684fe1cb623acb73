// The annotations crossrole reads (DESIGN §2.1 on resources, §2.2 on namespaces), and small
// parsers that turn a raw value into a typed one or into an error that names the annotation
// and says how to fix it. Annotations cannot be validated at admission (they live on objects
// crossrole does not own), so these errors surface in decisions, Events and `explain`.
import { isAccountId, isRegion, matchesPattern } from "./validation.ts";

/** Annotations on a managed resource (Bucket, Queue, ...). */
export const resourceAnnotations = {
  region: "services.k8s.aws/region",
  deletionPolicy: "services.k8s.aws/deletion-policy",
  adoptionPolicy: "services.k8s.aws/adoption-policy",
  /** ACK's: what names the AWS object to adopt when the resource has no spec (a JSON object). */
  adoptionFields: "services.k8s.aws/adoption-fields",
  readOnly: "services.k8s.aws/read-only",
  /** Picks one of several matching IAMRoleSelectors by name (DESIGN §3.1.2). */
  iamRoleSelector: "services.k8s.aws/iam-role-selector",
  /** Resource-level CARM, honoured only with ResourceLevelCARM=true (DESIGN §3.1.3a). */
  ownerAccountId: "services.k8s.aws/owner-account-id",
} as const;

/** Annotations on a Namespace (ACK CARM). */
export const namespaceAnnotations = {
  ownerAccountId: "services.k8s.aws/owner-account-id",
  teamId: "services.k8s.aws/team-id",
  defaultRegion: "services.k8s.aws/default-region",
  endpointUrl: "services.k8s.aws/endpoint-url",
  /** Accounts a resource in the namespace may pick with its own owner-account-id annotation. */
  allowedOwnerAccountIds: "services.k8s.aws/allowed-owner-account-ids",
} as const;

/** `<service>.services.k8s.aws/deletion-policy`, the per-service namespace default. */
export function serviceDeletionPolicyAnnotation(service: string): string {
  return `${service}.services.k8s.aws/deletion-policy`;
}
const serviceDeletionPolicyKey = /^([a-z0-9][a-z0-9-]*)\.services\.k8s\.aws\/deletion-policy$/;

export const deletionPolicies = ["delete", "retain"] as const;
export type DeletionPolicy = (typeof deletionPolicies)[number];
export const adoptionPolicies = ["adopt", "adopt-or-create"] as const;
export type AdoptionPolicy = (typeof adoptionPolicies)[number];

export type ParseResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: string };

const ok = <T>(value: T): ParseResult<T> => ({ ok: true, value });
const fail = <T>(annotation: string, value: string, why: string): ParseResult<T> => ({
  ok: false,
  error: `annotation ${annotation}: ${JSON.stringify(value)} ${why}`,
});

export function parseAccountIdAnnotation(annotation: string, value: string): ParseResult<string> {
  const v = value.trim();
  return isAccountId(v)
    ? ok(v)
    : fail(annotation, value, 'is not a 12-digit AWS account ID; write e.g. "222222222222"');
}

/** A comma-separated list of account IDs, e.g. "111111111111,222222222222" (spaces allowed). */
export function parseAllowedOwnerAccountIds(value: string): ParseResult<readonly string[]> {
  const annotation = namespaceAnnotations.allowedOwnerAccountIds;
  const entries = value.split(",").map((s) => s.trim());
  if (entries.every((s) => s === "")) {
    return fail(
      annotation,
      value,
      'lists no account; write comma-separated 12-digit account IDs, e.g. "111111111111,222222222222"',
    );
  }
  const bad = entries.filter((s) => !isAccountId(s));
  if (bad.length > 0) {
    return fail(
      annotation,
      value,
      `has entries that are not 12-digit AWS account IDs (${bad.map((s) => JSON.stringify(s)).join(", ")}); write comma-separated 12-digit account IDs, e.g. "111111111111,222222222222"`,
    );
  }
  return ok([...new Set(entries)]);
}

export function parseRegionAnnotation(annotation: string, value: string): ParseResult<string> {
  const v = value.trim();
  return isRegion(v)
    ? ok(v)
    : fail(annotation, value, 'is not an AWS region; write a region code like "eu-west-1"');
}

export function parseEndpointUrl(
  value: string,
  annotation: string = namespaceAnnotations.endpointUrl,
): ParseResult<string> {
  const v = value.trim();
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    return fail(
      annotation,
      value,
      'is not a URL; write an http(s) URL like "https://s3.eu-west-1.amazonaws.com"',
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return fail(annotation, value, `uses ${url.protocol.slice(0, -1)}; write an http:// or https:// URL`);
  }
  if (url.hostname === "") return fail(annotation, value, "has no host; write an http(s) URL with a host");
  return ok(v);
}

export function parseDeletionPolicy(annotation: string, value: string): ParseResult<DeletionPolicy> {
  const v = value.trim();
  return (deletionPolicies as readonly string[]).includes(v)
    ? ok(v as DeletionPolicy)
    : fail(annotation, value, 'is not a deletion policy; write "delete" or "retain"');
}

export function parseAdoptionPolicy(value: string): ParseResult<AdoptionPolicy> {
  const v = value.trim();
  return (adoptionPolicies as readonly string[]).includes(v)
    ? ok(v as AdoptionPolicy)
    : fail(
        resourceAnnotations.adoptionPolicy,
        value,
        'is not an adoption policy; write "adopt" or "adopt-or-create"',
      );
}

/**
 * ACK's adoption fields: a JSON object of strings naming the AWS object to adopt, such as
 * `{"name": "my-bucket"}` (which keys a kind takes is the kind's: src/controller/adoption-seed.ts).
 */
export function parseAdoptionFields(value: string): ParseResult<Readonly<Record<string, string>>> {
  const annotation = resourceAnnotations.adoptionFields;
  const example = 'write a JSON object of strings, e.g. {"name": "my-bucket"}';
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return fail(annotation, value, `is not JSON; ${example}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return fail(annotation, value, `is not a JSON object; ${example}`);
  }
  const entries = Object.entries(parsed);
  if (entries.length === 0) return fail(annotation, value, `names no field; ${example}`);
  const notText = entries.filter(([, v]) => typeof v !== "string" || v === "").map(([k]) => k);
  if (notText.length > 0) {
    return fail(
      annotation,
      value,
      `has values that are not non-empty strings (${notText.join(", ")}); ${example}`,
    );
  }
  return ok(Object.fromEntries(entries) as Record<string, string>);
}

export function parseReadOnly(value: string): ParseResult<boolean> {
  const v = value.trim();
  if (v === "true") return ok(true);
  if (v === "false") return ok(false);
  return fail(resourceAnnotations.readOnly, value, 'is not a boolean; write "true" or "false"');
}

/** A team ID is a key in the team ConfigMap, so it uses the ConfigMap key alphabet. */
export function parseTeamId(value: string): ParseResult<string> {
  const v = value.trim();
  return matchesPattern("teamId", v)
    ? ok(v)
    : fail(
        namespaceAnnotations.teamId,
        value,
        "is not a team ID; use 1-253 letters, digits, '-', '_' or '.'",
      );
}

export function parseIamRoleSelectorName(value: string): ParseResult<string> {
  const v = value.trim();
  return v.length <= 253 && matchesPattern("dnsSubdomain", v)
    ? ok(v)
    : fail(
        resourceAnnotations.iamRoleSelector,
        value,
        "is not an IAMRoleSelector name; write the metadata.name of one of the selectors that match this resource",
      );
}

// ---- whole-object readers: every annotation at once, values plus all errors ----

export interface NamespaceSettings {
  readonly ownerAccountID?: string;
  readonly teamID?: string;
  readonly defaultRegion?: string;
  readonly endpointURL?: string;
  readonly allowedOwnerAccountIDs?: readonly string[];
  /** `<service>.services.k8s.aws/deletion-policy`, by service. */
  readonly deletionPolicies: Readonly<Record<string, DeletionPolicy>>;
}

export interface ResourceSettings {
  readonly region?: string;
  readonly deletionPolicy?: DeletionPolicy;
  readonly adoptionPolicy?: AdoptionPolicy;
  readonly adoptionFields?: Readonly<Record<string, string>>;
  readonly readOnly?: boolean;
  readonly iamRoleSelector?: string;
  readonly ownerAccountID?: string;
}

export interface AnnotationsReading<T> {
  /** The valid annotations; an invalid one is left out (and reported in `errors`). */
  readonly settings: T;
  readonly errors: readonly string[];
}

type Annotations = Readonly<Record<string, string>> | undefined;

/** Collects parsed values into a settings object and errors into a list. */
function collector<T extends object>() {
  const settings: Record<string, unknown> = {};
  const errors: string[] = [];
  return {
    settings: settings as Partial<T>,
    errors,
    take<V>(field: keyof T & string, value: string | undefined, parse: (v: string) => ParseResult<V>) {
      if (value === undefined) return;
      const result = parse(value);
      if (result.ok) settings[field] = result.value;
      else errors.push(result.error);
    },
  };
}

export function readNamespaceAnnotations(annotations: Annotations): AnnotationsReading<NamespaceSettings> {
  const a = annotations ?? {};
  const c = collector<NamespaceSettings>();
  c.take("ownerAccountID", a[namespaceAnnotations.ownerAccountId], (v) =>
    parseAccountIdAnnotation(namespaceAnnotations.ownerAccountId, v),
  );
  c.take("teamID", a[namespaceAnnotations.teamId], parseTeamId);
  c.take("defaultRegion", a[namespaceAnnotations.defaultRegion], (v) =>
    parseRegionAnnotation(namespaceAnnotations.defaultRegion, v),
  );
  c.take("endpointURL", a[namespaceAnnotations.endpointUrl], (v) => parseEndpointUrl(v));
  c.take(
    "allowedOwnerAccountIDs",
    a[namespaceAnnotations.allowedOwnerAccountIds],
    parseAllowedOwnerAccountIds,
  );
  const policies: Record<string, DeletionPolicy> = {};
  for (const key of Object.keys(a).sort()) {
    const service = serviceDeletionPolicyKey.exec(key)?.[1];
    if (service === undefined) continue;
    const result = parseDeletionPolicy(key, a[key] ?? "");
    if (result.ok) policies[service] = result.value;
    else c.errors.push(result.error);
  }
  return { settings: { ...c.settings, deletionPolicies: policies }, errors: c.errors };
}

export function readResourceAnnotations(annotations: Annotations): AnnotationsReading<ResourceSettings> {
  const a = annotations ?? {};
  const c = collector<ResourceSettings>();
  c.take("region", a[resourceAnnotations.region], (v) =>
    parseRegionAnnotation(resourceAnnotations.region, v),
  );
  c.take("deletionPolicy", a[resourceAnnotations.deletionPolicy], (v) =>
    parseDeletionPolicy(resourceAnnotations.deletionPolicy, v),
  );
  c.take("adoptionPolicy", a[resourceAnnotations.adoptionPolicy], parseAdoptionPolicy);
  c.take("adoptionFields", a[resourceAnnotations.adoptionFields], parseAdoptionFields);
  c.take("readOnly", a[resourceAnnotations.readOnly], parseReadOnly);
  c.take("iamRoleSelector", a[resourceAnnotations.iamRoleSelector], parseIamRoleSelectorName);
  c.take("ownerAccountID", a[resourceAnnotations.ownerAccountId], (v) =>
    parseAccountIdAnnotation(resourceAnnotations.ownerAccountId, v),
  );
  return { settings: c.settings, errors: c.errors };
}
