// Readable, deterministic selector names: `carm-account-111111111111`, `carm-team-team-a`,
// `carm-team-s3-team-a` (service-level key `s3.team-a`). The same maps always give the same
// names, so re-running the migration yields the same manifests and `kubectl apply` is a no-op.
//
// An IAMRoleSelector's name must be a DNS subdomain (lowercase letters, digits, '-', '.', at
// most 253). Team IDs may hold capitals, '_' and odd dots (and be 253 long), so such an ID is
// rewritten and suffixed with a hash of the original: rewriting alone could make two collide.

import { dns1123SubdomainErrors } from "../selector/label-syntax.ts";
import type { CarmGrant } from "./types.ts";

const maxNameLength = 253;

/** FNV-1a, 32 bits, as 8 hex digits: short, stable, dependency-free. Not for security. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** The part of a name for an ID: itself when already a DNS subdomain, else rewritten + hash. */
function namePart(id: string): string {
  if (dns1123SubdomainErrors(id).length === 0) return id;
  const rewritten = id
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return `${rewritten === "" ? "x" : rewritten}-${shortHash(id)}`;
}

/** `carm-<subject>[-<service>]-<id>`, shortened (with a hash) when longer than a name may be. */
export function selectorName(grant: CarmGrant): string {
  const base = grant.service === null ? grant.id : grant.id.slice(grant.service.length + 1);
  const parts = ["carm", grant.subject, ...(grant.service === null ? [] : [grant.service]), namePart(base)];
  const name = parts.join("-");
  if (name.length <= maxNameLength) return name;
  const suffix = `-${shortHash(name)}`;
  return name.slice(0, maxNameLength - suffix.length).replace(/[^a-z0-9]+$/, "") + suffix;
}

/** `name`, `name-2`, `name-3`, ... for the parts of a grant that need several selectors. */
export function numbered(name: string, index: number): string {
  if (index === 0) return name;
  const suffix = `-${index + 1}`;
  return name.length + suffix.length <= maxNameLength
    ? name + suffix
    : name.slice(0, maxNameLength - suffix.length).replace(/[^a-z0-9]+$/, "") + suffix;
}
