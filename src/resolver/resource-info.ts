// Reads what resolution needs from a resource object without trusting its shape: the type of
// the object says ResourceObject, but explain reads manifests from disk and the property test
// feeds garbage, and a malformed field must become a named decision, never an exception.

import { kindOf } from "../api/kinds.ts";
import { isRecord } from "./snapshot-objects.ts";
import type { ResourceObject } from "./types.ts";

export interface ResourceInfo {
  readonly name: string;
  readonly apiVersion: string;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The service alias CARM keys use (`s3` for s3.services.k8s.aws). */
  readonly service: string;
  readonly labels: Readonly<Record<string, string>> | undefined;
  readonly annotations: Readonly<Record<string, unknown>>;
  /** undefined: no spec.identityRef; otherwise the raw value (validated by the identityRef rule). */
  readonly identityRef: unknown;
  readonly status: {
    readonly arn: string | null;
    readonly ownerAccountID: string | null;
    readonly region: string | null;
  };
}

export type ReadResult =
  | { readonly ok: true; readonly info: ResourceInfo }
  | { readonly ok: false; readonly error: string };

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** `s3` from `s3.services.k8s.aws`; the first DNS label for any other group. */
export function serviceOfGroup(group: string): string {
  const dot = group.indexOf(".");
  return dot < 0 ? group : group.slice(0, dot);
}

function labelsOf(raw: unknown): Readonly<Record<string, string>> | undefined {
  if (!isRecord(raw)) return undefined;
  for (const key in raw) {
    if (typeof raw[key] !== "string") {
      // Labels that are not strings cannot exist in the apiserver; keep only the string ones.
      const clean: Record<string, string> = {};
      for (const k of Object.keys(raw)) if (typeof raw[k] === "string") clean[k] = raw[k] as string;
      return clean;
    }
  }
  return raw as Readonly<Record<string, string>>;
}

export function readResource(resource: ResourceObject | unknown): ReadResult {
  if (!isRecord(resource)) return { ok: false, error: "the resource is not an object" };
  const apiVersion = resource["apiVersion"];
  const kind = resource["kind"];
  if (typeof apiVersion !== "string" || apiVersion === "" || typeof kind !== "string" || kind === "") {
    return { ok: false, error: "the resource has no apiVersion or kind" };
  }
  const meta = isRecord(resource["metadata"]) ? resource["metadata"] : null;
  if (meta === null || typeof meta["name"] !== "string" || meta["name"] === "") {
    return { ok: false, error: `the ${kind} has no metadata.name` };
  }
  const slash = apiVersion.lastIndexOf("/");
  const group = slash < 0 ? "" : apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  const known = kindOf(apiVersion, kind);
  const spec = isRecord(resource["spec"]) ? resource["spec"] : {};
  const status = isRecord(resource["status"]) ? resource["status"] : {};
  const ackMeta = isRecord(status["ackResourceMetadata"]) ? status["ackResourceMetadata"] : {};
  const identityRef = spec["identityRef"];
  return {
    ok: true,
    info: {
      name: meta["name"],
      apiVersion,
      group,
      version,
      kind,
      service: known?.service ?? serviceOfGroup(group),
      labels: labelsOf(meta["labels"]),
      annotations: isRecord(meta["annotations"]) ? meta["annotations"] : {},
      identityRef: identityRef === null ? undefined : identityRef,
      status: {
        arn: stringOrNull(ackMeta["arn"]),
        ownerAccountID: stringOrNull(ackMeta["ownerAccountID"]),
        region: stringOrNull(ackMeta["region"]),
      },
    },
  };
}

/**
 * A resource annotation's value: null when absent or empty; non-strings are reported as text.
 * Takes a ResourceInfo or raw metadata, whose annotations may be anything in a manifest.
 */
export function annotationOf(
  info: { readonly annotations?: Readonly<Record<string, unknown>> | null },
  key: string,
): string | null {
  const annotations = info.annotations;
  if (annotations === undefined || annotations === null || !Object.hasOwn(annotations, key)) return null;
  const value = annotations[key];
  if (typeof value === "string") return value.trim() === "" ? null : value.trim();
  return value === undefined || value === null ? null : String(value);
}
