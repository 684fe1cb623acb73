// Namespaces as the resolver sees them: labels (for selectors and allowedNamespaces) and the
// CARM annotations of DESIGN §2.2, each validated once. A malformed annotation does not drop
// the namespace; it is kept as an error value so a decision that needs it can name it.

import {
  namespaceAnnotations,
  type ParseResult,
  parseAccountIdAnnotation,
  parseAllowedOwnerAccountIds,
  parseEndpointUrl,
  parseRegionAnnotation,
  parseTeamId,
} from "../api/annotations.ts";
import { dns1123LabelErrors } from "../selector/label-syntax.ts";
import {
  deduplicateReporting,
  describeRef,
  isRecord,
  listedTwiceReason,
  objectRefOf,
  problemValue,
} from "./snapshot-objects.ts";
import type { AnnotationValue, NamespaceConfig } from "./snapshot-types.ts";
import type { ObjectRef, SnapshotProblem } from "./types.ts";

export interface NamespacesResult {
  readonly namespaces: ReadonlyMap<string, NamespaceConfig>;
  readonly invalid: ReadonlyMap<string, string>;
}

type Parse<T> = (raw: string) => ParseResult<T>;

function withRaw<T>(raw: string, parsed: ParseResult<T>): AnnotationValue<T> {
  return parsed.ok ? { ok: true, raw, value: parsed.value } : { ok: false, raw, error: parsed.error };
}

const parseOwner: Parse<string> = (v) => parseAccountIdAnnotation(namespaceAnnotations.ownerAccountId, v);
const parseRegion: Parse<string> = (v) => parseRegionAnnotation(namespaceAnnotations.defaultRegion, v);
const parseEndpoint: Parse<string> = (v) => parseEndpointUrl(v);
/** Sorted so traces and messages do not depend on how the administrator ordered the list. */
const parseAccountList: Parse<readonly string[]> = (v) => {
  const parsed = parseAllowedOwnerAccountIds(v);
  return parsed.ok ? { ok: true, value: [...parsed.value].sort() } : parsed;
};

interface AnnotationSpec<T> {
  readonly key: string;
  readonly parse: Parse<T>;
  readonly fix: string;
}

function readAnnotation<T>(
  ref: ObjectRef,
  annotations: Readonly<Record<string, unknown>>,
  spec: AnnotationSpec<T>,
  problems: SnapshotProblem[],
): AnnotationValue<T> | null {
  if (!Object.hasOwn(annotations, spec.key)) return null;
  const raw = annotations[spec.key];
  const value: AnnotationValue<T> =
    typeof raw === "string"
      ? withRaw(raw, spec.parse(raw))
      : { ok: false, raw: String(raw), error: `annotation ${spec.key}: the value is not a string` };
  if (!value.ok) {
    problems.push({
      object: ref,
      field: `metadata.annotations[${spec.key}]`,
      severity: "error",
      message: `${describeRef(ref)}: ${value.error}`,
      fix: spec.fix,
      value: problemValue(raw),
    });
  }
  return value;
}

/** Keeps string-valued labels; anything else is reported and left out (it could never match). */
function readLabels(
  ref: ObjectRef,
  raw: unknown,
  problems: SnapshotProblem[],
): Readonly<Record<string, string>> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isRecord(raw)) {
    problems.push({
      object: ref,
      field: "metadata.labels",
      severity: "error",
      message: `${describeRef(ref)}: metadata.labels is not a map; the namespace is treated as unlabelled`,
      fix: "write labels as key: value pairs",
    });
    return undefined;
  }
  const labels: Record<string, string> = {};
  for (const key of Object.keys(raw).sort()) {
    const value = raw[key];
    if (typeof value === "string") labels[key] = value;
    else {
      problems.push({
        object: ref,
        field: `metadata.labels[${key}]`,
        severity: "error",
        message: `${describeRef(ref)}: label ${key} has a non-string value; it is ignored`,
        fix: "quote the label value",
        value: problemValue(value),
      });
    }
  }
  return labels;
}

function buildNamespace(raw: unknown, problems: SnapshotProblem[]): NamespaceConfig {
  const ref = objectRefOf(raw, "Namespace");
  const obj = isRecord(raw) ? raw : {};
  const meta = isRecord(obj["metadata"]) ? obj["metadata"] : {};
  const annotations = isRecord(meta["annotations"]) ? meta["annotations"] : {};
  if (meta["annotations"] !== undefined && meta["annotations"] !== null && !isRecord(meta["annotations"])) {
    problems.push({
      object: ref,
      field: "metadata.annotations",
      severity: "error",
      message: `${describeRef(ref)}: metadata.annotations is not a map; it is ignored`,
      fix: "write annotations as key: value pairs",
    });
  }
  const a = namespaceAnnotations;
  return {
    name: ref.name,
    labels: readLabels(ref, meta["labels"], problems),
    ownerAccountId: readAnnotation(
      ref,
      annotations,
      {
        key: a.ownerAccountId,
        parse: parseOwner,
        fix: `set ${a.ownerAccountId} to a 12-digit account ID such as 111111111111`,
      },
      problems,
    ),
    teamId: readAnnotation(
      ref,
      annotations,
      { key: a.teamId, parse: parseTeamId, fix: `set ${a.teamId} to the team's key in ack-role-team-map` },
      problems,
    ),
    defaultRegion: readAnnotation(
      ref,
      annotations,
      {
        key: a.defaultRegion,
        parse: parseRegion,
        fix: `set ${a.defaultRegion} to a region such as eu-west-1`,
      },
      problems,
    ),
    endpointUrl: readAnnotation(
      ref,
      annotations,
      {
        key: a.endpointUrl,
        parse: parseEndpoint,
        fix: `set ${a.endpointUrl} to an https:// URL or remove it`,
      },
      problems,
    ),
    allowedOwnerAccountIds: readAnnotation(
      ref,
      annotations,
      {
        key: a.allowedOwnerAccountIds,
        parse: parseAccountList,
        fix: `set ${a.allowedOwnerAccountIds} to comma-separated 12-digit account IDs`,
      },
      problems,
    ),
  };
}

export function buildNamespaces(objects: readonly unknown[], problems: SnapshotProblem[]): NamespacesResult {
  const readable: unknown[] = [];
  for (const raw of objects) {
    const ref = objectRefOf(raw, "Namespace");
    if (ref.name === "" || dns1123LabelErrors(ref.name).length > 0) {
      problems.push({
        object: ref,
        field: "metadata.name",
        severity: "error",
        message: `${describeRef(ref)}: metadata.name ${JSON.stringify(ref.name)} is not a namespace name; the object is ignored`,
        fix: "name the namespace with lowercase letters, digits and '-' (at most 63 characters)",
      });
      continue;
    }
    readable.push(raw);
  }
  const nameOf = (raw: unknown) => objectRefOf(raw, "Namespace").name;
  const { unique, conflicting } = deduplicateReporting(
    readable,
    nameOf,
    (raw) => ({ kind: "Namespace", name: nameOf(raw) }),
    "its labels and annotations are not trusted until only one remains",
    problems,
  );
  const namespaces = new Map<string, NamespaceConfig>();
  const invalid = new Map<string, string>();
  for (const ref of conflicting) invalid.set(ref.name, listedTwiceReason);
  for (const raw of unique) {
    const ns = buildNamespace(raw, problems);
    namespaces.set(ns.name, ns);
  }
  return { namespaces, invalid };
}
