// What computeAudit reads: the snapshot the controller would build, the settings of the mode
// being audited, the kinds the controller serves, and optionally the resources that exist.
// Everything is passed in, so the audit stays a pure function like the resolver it calls.

import type { ResourceKind } from "../api/kinds.ts";
import type { Snapshot } from "../resolver/snapshot-types.ts";
import type { ResourceObject, Settings } from "../resolver/types.ts";
import type { AuditReport } from "./model.ts";

/** `--role` (a role ARN, or an account ID for every role in it) and `--namespace`. */
export interface AuditFilter {
  readonly role?: string;
  readonly namespace?: string;
}

export interface AuditInput {
  readonly snapshot: Snapshot;
  /** The audited mode already applied (IAMRoleSelector gate, enableCARM). */
  readonly settings: Settings;
  /** The kinds the controller reconciles; a plain resource of each is resolved per namespace. */
  readonly kinds: readonly ResourceKind[];
  /** Resources that exist today: which reaches are in use, and their own conflicts. */
  readonly resources?: readonly ResourceObject[];
  readonly filter?: AuditFilter;
  readonly source: AuditReport["source"];
  /** What the caller had to assume (e.g. a namespace missing from the manifests). */
  readonly notes?: readonly string[];
}

/**
 * A filter names nothing the audit knows. Thrown by computeAudit (still pure: no I/O); the CLI
 * turns it into a bad-input error that names the flag and lists what exists.
 */
export class AuditFilterError extends Error {
  readonly flag: "role" | "namespace";
  readonly value: string;
  /** What exists, sorted; the caller bounds how many it shows. */
  readonly known: readonly string[];

  constructor(flag: "role" | "namespace", value: string, known: readonly string[]) {
    super(`--${flag} ${value}: not found`);
    this.name = "AuditFilterError";
    this.flag = flag;
    this.value = value;
    this.known = known;
  }
}
