// Default tags (default-tags.ts) in a spec, the way ACK's EnsureTags does it: the reconciler
// converges to the spec with the default tags the user's spec lacks added, so that create and
// update write them and the drift comparison expects them (never drift while AWS has them); and
// it never writes them into the Kubernetes object (late initialisation, a strict adoption's
// spec): they are removed again, as ACK's FilterSystemTags does. The user's own tags win: a key
// the spec sets is left as the spec says. Where the spec holds its tags, and in which shape, is the
// kind's module's `specTags`, generated from its declaration and model (src/codegen/spec-tags.ts). Pure.
import type { SpecTagField } from "../codegen/spec-tags.ts";

type TagPair = { key?: string; value?: string };

function pairsOf(value: unknown, f: SpecTagField): TagPair[] {
  if (f.shape === "map") {
    return Object.entries((value ?? {}) as Record<string, string>).map(([key, v]) => ({ key, value: v }));
  }
  const list = f.shape === "tagSet" ? (value as { tagSet?: unknown } | undefined)?.tagSet : value;
  if (!Array.isArray(list)) return [];
  const pair = f.pair;
  // Pairs named otherwise (KMS's tagKey, tagValue) are read as {key, value}.
  return pair === undefined
    ? (list as TagPair[])
    : (list as Record<string, string | undefined>[]).map((t) => ({ key: t[pair.key], value: t[pair.value] }));
}

function withPairs(spec: object, f: SpecTagField, pairs: readonly TagPair[], original: unknown): object {
  const out: Record<string, unknown> = { ...spec };
  if (pairs.length === 0 && original === undefined) {
    delete out[f.field];
    return out;
  }
  if (f.shape === "map") {
    out[f.field] = Object.fromEntries(pairs.map((p): [string, string] => [p.key ?? "", p.value ?? ""]));
  } else if (f.shape === "tagSet") {
    out[f.field] = { ...((original ?? {}) as object), tagSet: pairs };
  } else {
    const pair = f.pair;
    out[f.field] =
      pair === undefined ? pairs : pairs.map((p) => ({ [pair.key]: p.key, [pair.value]: p.value }));
  }
  return out;
}

/**
 * `spec` with the default tags whose keys it does not set added, and the keys added (to take
 * them out again with withoutDefaultTags). A kind without a tag field (`f` undefined) is left alone.
 */
export function withDefaultTags<Spec extends object>(
  f: SpecTagField | undefined,
  spec: Spec,
  defaults: Readonly<Record<string, string>>,
): { readonly spec: Spec; readonly added: readonly string[] } {
  if (f === undefined || Object.keys(defaults).length === 0) return { spec, added: [] };
  const original = (spec as Record<string, unknown>)[f.field];
  const pairs = pairsOf(original, f);
  const have = new Set(pairs.map((p) => p.key));
  const added = Object.keys(defaults).filter((k) => !have.has(k));
  if (added.length === 0) return { spec, added };
  const all = [...pairs, ...added.map((key) => ({ key, value: defaults[key] }))];
  return { spec: withPairs(spec, f, all, original) as Spec, added };
}

/** `spec` without the tags of `keys` (the default tags), e.g. AWS's spec after a strict adoption. */
export function withoutDefaultTags<Spec extends object>(
  f: SpecTagField | undefined,
  spec: Spec,
  keys: readonly string[],
): Spec {
  if (f === undefined || keys.length === 0) return spec;
  const original = (spec as Record<string, unknown>)[f.field];
  if (original === undefined) return spec;
  const pairs = pairsOf(original, f);
  const kept = pairs.filter((p) => !keys.includes(p.key ?? ""));
  if (kept.length === pairs.length) return spec;
  // Nothing of the user's left: the field goes, as it was before the defaults were added.
  return withPairs(spec, f, kept, kept.length === 0 ? undefined : original) as Spec;
}
