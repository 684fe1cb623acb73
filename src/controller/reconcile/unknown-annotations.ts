// A Warning Event (UnknownAnnotation) for each annotation key on the resource or its namespace
// that misspells one crossrole reads (src/api/misspelt-annotations.ts), saying which key it
// most likely meant: the annotation changes nothing, and nothing else would say so. Said once
// per object, key and value (the reconciler's memory), not at every reconcile.
import { knownAnnotationKeys, misspeltAnnotations } from "../../api/misspelt-annotations.ts";
import type { Attempt } from "./attempt.ts";
import type { Env } from "./env.ts";

const onResource = knownAnnotationKeys("resource");
const onNamespace = knownAnnotationKeys("namespace");

export function warnUnknownAnnotations<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
): void {
  const own = a.obj.metadata.annotations;
  const namespace = env.config.namespaceAnnotations(a.ref.namespace);
  const found = [
    ...misspeltAnnotations(own, onResource).map((m) => ({ ...m, value: own?.[m.key], where: "" })),
    ...misspeltAnnotations(namespace, onNamespace).map((m) => ({
      ...m,
      value: namespace?.[m.key],
      where: `namespace ${a.ref.namespace}'s `,
    })),
  ];
  for (const { key, suggestion, value, where } of found) {
    const once = `${a.obj.metadata.uid}\u0000${where}${key}\u0000${value}`;
    if (env.said.has(once)) continue;
    env.said.set(once, true);
    const message = `${where}annotation "${key}" is not one crossrole reads, so it changes nothing. Did you mean "${suggestion}"?`;
    env.store.event(a.obj, "Warning", "UnknownAnnotation", message);
    a.log.info({ event: "annotation.unknown", annotation: key, suggestion }, message);
  }
}
