// ACK's references (`kmsKeyRef: {from: {name, namespace}}` beside `kmsKeyID`), as each kind's
// generated module lists them. The CRD accepts them, so that an ACK manifest applies; the
// spec check here answers them: a reference to a kind crossrole does not serve cannot be
// resolved, so the resource is Terminal, naming the plain field to set instead (DESIGN §2.1).
// Only zod checks this (no CEL): the answer belongs on the resource's conditions.
import type { z } from "zod";
import { type ResourceKind, resourceKinds } from "../api/kinds.ts";

/** The served kind a reference names, if crossrole serves it (then the reconciler resolves it). */
export function servedKindOf(r: Pick<ReferenceField, "service" | "kind">): ResourceKind | undefined {
  return resourceKinds.find((k) => k.service === r.service && k.kind === r.kind);
}

export function isServedReference(r: Pick<ReferenceField, "service" | "kind">): boolean {
  return servedKindOf(r) !== undefined;
}

export interface ReferenceField {
  /** Spec path of the reference (`[]` steps into a list's items). */
  readonly path: readonly string[];
  /** The plain field beside it, which the reference would fill. */
  readonly plain: string;
  readonly service: string;
  readonly kind: string;
  /** AWS requires the plain field: a spec must set it or the reference. */
  readonly required?: boolean;
  /** The plain field takes the referenced object's ARN, not its AWS name. */
  readonly arn?: boolean;
  /** The plain field takes this field of the referenced resource's spec (an IAM Policy's policyDocument). */
  readonly fromSpec?: string;
  /** Needed only by a group written after the create (ReferenceDeclaration.afterCreate). */
  readonly afterCreate?: boolean;
}

/** Where a path is present in a value: one concrete path per list item it crosses. */
export function presentAt(
  value: unknown,
  path: readonly string[],
  at: readonly (string | number)[] = [],
): (string | number)[][] {
  const [head, ...rest] = path;
  if (head === undefined) return value === undefined ? [] : [[...at]];
  if (head === "[]") {
    return Array.isArray(value) ? value.flatMap((item, i) => presentAt(item, rest, [...at, i])) : [];
  }
  if (typeof value !== "object" || value === null) return [];
  return presentAt((value as Record<string, unknown>)[head], rest, [...at, head]);
}

/** A concrete path for messages: `spec.rules[1].role`. */
export const pathText = (at: readonly (string | number)[]): string =>
  at.map((s, i) => (typeof s === "number" ? `[${s}]` : i === 0 ? s : `.${s}`)).join("");

/** The value at a concrete path. */
export function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let v = value;
  for (const p of path)
    v = v === null || typeof v !== "object" ? undefined : (v as Record<string | number, unknown>)[p];
  return v;
}

/** `schema` refusing every reference in `references` that a spec sets (none is served yet). */
export function refusingUnservedReferences<S extends z.ZodType>(
  schema: S,
  references: readonly ReferenceField[],
): S {
  return schema.superRefine((spec, ctx) => {
    for (const r of references) {
      // A top-level field AWS requires, which the CRD leaves optional because a reference may
      // stand for it: without either, say which to set.
      if (r.required && r.path.length === 1 && typeof spec === "object" && spec !== null) {
        const s = spec as Record<string, unknown>;
        if (s[r.plain] === undefined && s[r.path[0] ?? ""] === undefined) {
          ctx.addIssue({ code: "custom", path: [r.plain], message: `Required: set ${r.plain}` });
        }
      }
      for (const path of presentAt(spec, r.path)) {
        const plain = pathText(["spec", ...path.slice(0, -1), r.plain]);
        if (isServedReference(r)) {
          // Resolved by the reconciler (src/controller/references.ts); set one of the two.
          const holder = valueAt(spec, path.slice(0, -1));
          if (holder !== undefined && (holder as Record<string, unknown>)[r.plain] !== undefined) {
            ctx.addIssue({
              code: "custom",
              path,
              message: `and ${plain} are both set: set one of the two`,
            });
          }
          continue;
        }
        ctx.addIssue({
          code: "custom",
          path,
          message: `refers to ${/^[aeiou]/i.test(r.service) ? "an" : "a"} ${r.service}.services.k8s.aws ${r.kind}, a kind crossrole does not serve, so it cannot be resolved: set ${plain} to the ${r.kind}'s identifier instead, and remove the reference`,
        });
      }
    }
  }) as S;
}
