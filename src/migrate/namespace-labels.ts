// `--select-by labels`: the labels the namespaces need before the selectors are applied (one
// per namespace a label selector takes over from CARM, unless it already carries it), and the
// namespaces as they will be once labelled, which the proof decides with.

import { compareText } from "../toolkit/compare-text.ts";
import type { GeneratedSelector, NamespaceLabel } from "./types.ts";

function labelsOf(raw: unknown): Readonly<Record<string, unknown>> {
  const metadata = (raw as { metadata?: { labels?: unknown } } | null)?.metadata;
  const labels = metadata?.labels;
  return typeof labels === "object" && labels !== null ? (labels as Record<string, unknown>) : {};
}

function nameOf(raw: unknown): unknown {
  return (raw as { metadata?: { name?: unknown } } | null)?.metadata?.name;
}

/** Each label a generated selector needs on a namespace that lacks it, by namespace then key. */
export function labelsToAdd(
  generated: readonly GeneratedSelector[],
  namespaces: readonly unknown[],
): NamespaceLabel[] {
  // By namespace and key: a team's plain and service-level selectors ask for the same label.
  const wanted = new Map<string, NamespaceLabel>();
  for (const { label, namespaces: names } of generated) {
    if (label === undefined) continue;
    for (const namespace of names) {
      const raw = namespaces.find((ns) => nameOf(ns) === namespace);
      if (labelsOf(raw)[label.key] === label.value) continue;
      wanted.set(`${namespace}\u0000${label.key}`, { namespace, key: label.key, value: label.value });
    }
  }
  return [...wanted.values()].sort(
    (a, b) => compareText(a.namespace, b.namespace) || compareText(a.key, b.key),
  );
}

/** The namespaces with `labels` put on (copies; the others as they are). */
export function withNamespaceLabels(
  namespaces: readonly unknown[],
  labels: readonly NamespaceLabel[],
): unknown[] {
  if (labels.length === 0) return [...namespaces];
  return namespaces.map((raw) => {
    const mine = labels.filter((l) => l.namespace === nameOf(raw));
    if (mine.length === 0) return raw;
    const object = raw as { metadata: Record<string, unknown> };
    const added = Object.fromEntries(mine.map((l) => [l.key, l.value]));
    return { ...object, metadata: { ...object.metadata, labels: { ...labelsOf(raw), ...added } } };
  });
}
