// The per-resource policies ACK reads from annotations (pure): deletion policy (resource
// annotation > namespace `<service>.services.k8s.aws/deletion-policy` > `--deletion-policy`),
// adoption policy and fields, and read-only. An invalid value is an error naming the annotation and the fix,
// never a silent default: a typo in "retain" must not delete a bucket.
import {
  type AdoptionPolicy,
  type DeletionPolicy,
  parseAdoptionFields,
  parseAdoptionPolicy,
  parseDeletionPolicy,
  parseReadOnly,
  resourceAnnotations,
  serviceDeletionPolicyAnnotation,
} from "../api/annotations.ts";

type Annotations = Readonly<Record<string, string>> | undefined;

export interface ResourcePolicies {
  readonly deletionPolicy: DeletionPolicy;
  /** Where the deletion policy came from, for messages ("annotation ...", "--deletion-policy"). */
  readonly deletionPolicySource: string;
  readonly adoptionPolicy: AdoptionPolicy | null;
  /** ACK's adoption fields: what names the object to adopt when the resource has no spec. */
  readonly adoptionFields: Readonly<Record<string, string>> | null;
  readonly readOnly: boolean;
}

export type PoliciesResult =
  | { readonly ok: true; readonly value: ResourcePolicies }
  | { readonly ok: false; readonly error: string };

export function readPolicies(
  resource: Annotations,
  namespace: Annotations,
  service: string,
  flagDeletionPolicy: DeletionPolicy,
): PoliciesResult {
  let deletionPolicy = flagDeletionPolicy;
  let deletionPolicySource = "--deletion-policy";
  const nsKey = serviceDeletionPolicyAnnotation(service);
  for (const [annotations, key, where] of [
    [namespace, nsKey, "namespace annotation"],
    [resource, resourceAnnotations.deletionPolicy, "annotation"],
  ] as const) {
    const raw = annotations?.[key];
    if (raw === undefined) continue;
    const r = parseDeletionPolicy(key, raw);
    if (!r.ok) return { ok: false, error: r.error };
    deletionPolicy = r.value;
    deletionPolicySource = `${where} ${key}`;
  }

  let adoptionPolicy: AdoptionPolicy | null = null;
  const rawAdoption = resource?.[resourceAnnotations.adoptionPolicy];
  if (rawAdoption !== undefined) {
    const r = parseAdoptionPolicy(rawAdoption);
    if (!r.ok) return { ok: false, error: r.error };
    adoptionPolicy = r.value;
  }

  let adoptionFields: Readonly<Record<string, string>> | null = null;
  const rawFields = resource?.[resourceAnnotations.adoptionFields];
  if (rawFields !== undefined) {
    const r = parseAdoptionFields(rawFields);
    if (!r.ok) return { ok: false, error: r.error };
    adoptionFields = r.value;
  }

  let readOnly = false;
  const rawReadOnly = resource?.[resourceAnnotations.readOnly];
  if (rawReadOnly !== undefined) {
    const r = parseReadOnly(rawReadOnly);
    if (!r.ok) return { ok: false, error: r.error };
    readOnly = r.value;
  }
  return {
    ok: true,
    value: { deletionPolicy, deletionPolicySource, adoptionPolicy, adoptionFields, readOnly },
  };
}
