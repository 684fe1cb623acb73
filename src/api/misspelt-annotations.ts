// Annotation keys one typo away from one crossrole or ACK reads (`services.k8s.aws/owner-acount-id`,
// `s3.services.k8s.aws/deletion-polcy`): an annotation is never validated at admission, so a
// misspelt key would be ignored silently and the resource placed or deleted as if it were not
// there. Only keys under the prefixes crossrole and ACK own are looked at, and only a key near
// exactly one known key is named (a guess between two would mislead). Pure.
import { closestText } from "../toolkit/closest-text.ts";
import { namespaceAnnotations, resourceAnnotations, serviceDeletionPolicyAnnotation } from "./annotations.ts";
import { resourceKinds } from "./kinds.ts";

/** ACK's per-service annotations on a resource that crossrole honours (DBInstance's deletion options). */
const serviceResourceAnnotations = [
  "rds.services.k8s.aws/skip-final-snapshot",
  "rds.services.k8s.aws/final-db-snapshot-identifier",
  "rds.services.k8s.aws/delete-automated-backups",
];

const services = [...new Set(resourceKinds.map((k) => k.service))];

/** The keys read on a resource, or on a namespace (with each served service's deletion policy). */
export function knownAnnotationKeys(where: "resource" | "namespace"): string[] {
  return where === "resource"
    ? [...Object.values(resourceAnnotations), ...serviceResourceAnnotations]
    : [...Object.values(namespaceAnnotations), ...services.map(serviceDeletionPolicyAnnotation)];
}

const owned = /^(?:[a-z0-9-]+\.)?services\.k8s\.aws\/|^crossrole\.dev\//;

export interface MisspeltAnnotation {
  readonly key: string;
  readonly suggestion: string;
}

/** The keys of `annotations` that misspell one of `known`, each with the key it most likely meant. */
export function misspeltAnnotations(
  annotations: Readonly<Record<string, string>> | undefined,
  known: readonly string[],
): MisspeltAnnotation[] {
  const out: MisspeltAnnotation[] = [];
  const knownSet = new Set(known);
  for (const key of Object.keys(annotations ?? {}).sort()) {
    if (knownSet.has(key) || !owned.test(key.toLowerCase())) continue;
    const suggestion = closestText(key.toLowerCase(), known, 2);
    if (suggestion !== null) out.push({ key, suggestion });
  }
  return out;
}
