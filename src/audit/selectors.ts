// Potential reaches through IAMRoleSelectors (IAMRoleSelector mode). A resource may pick any
// selector that matches it with the `services.k8s.aws/iam-role-selector` annotation (§3.4),
// and may carry labels, so a namespace can reach every selector whose namespace and type parts
// match it (selectorMatchesNamespace and selectorMatchesType, the resolver's own tests) and whose
// resourceLabelSelector some label set satisfies (checked with the compiled matcher on a
// witness). Those a plain resource already uses are actual, found by probePlainResources.
//
// Not listed separately: reaching the default identity by labelling a resource out of every
// selector. The default identity admits exactly the namespaces that may name
// AWSControllerIdentity default in spec.identityRef, so that role is already listed for them.

import { resourceAnnotations } from "../api/annotations.ts";
import { selectorMatchesNamespace, selectorMatchesType } from "../resolver/selector-match.ts";
import type { CompiledSelector } from "../selector/label-selector.ts";
import type { AuditContext } from "./context.ts";
import type { PlainNamespace } from "./plain.ts";

interface KeyNeeds {
  in: Set<string> | null;
  readonly notIn: Set<string>;
  exists: boolean;
  absent: boolean;
}

/**
 * A label set `selector` matches, or null when none can (e.g. `a in (x)` with `a notin (x)`).
 * Built from the requirements, then confirmed with the compiled matcher itself.
 */
export function witnessLabels(selector: CompiledSelector): Record<string, string> | null {
  const keys = new Map<string, KeyNeeds>();
  for (const r of selector.requirements) {
    let needs = keys.get(r.key);
    if (needs === undefined) {
      needs = { in: null, notIn: new Set(), exists: false, absent: false };
      keys.set(r.key, needs);
    }
    if (r.operator === "In") {
      const previous: Set<string> | null = needs.in;
      needs.in =
        previous === null ? new Set(r.values) : new Set([...previous].filter((v) => r.values.has(v)));
    } else if (r.operator === "NotIn") {
      for (const v of r.values) needs.notIn.add(v);
    } else if (r.operator === "Exists") {
      needs.exists = true;
    } else {
      needs.absent = true;
    }
  }
  const labels: Record<string, string> = {};
  for (const [key, needs] of keys) {
    if (needs.absent) {
      if (needs.in !== null || needs.exists) return null;
      continue;
    }
    if (needs.in !== null) {
      const value = [...needs.in].filter((v) => !needs.notIn.has(v)).sort()[0];
      if (value === undefined) return null;
      labels[key] = value;
    } else if (needs.exists) {
      let value = "x";
      for (let i = 0; needs.notIn.has(value); i++) value = `x${i}`;
      labels[key] = value;
    }
  }
  return selector.matches(labels) ? labels : null;
}

export function addSelectorReaches(ctx: AuditContext, plain: ReadonlyMap<string, PlainNamespace>): void {
  const { snapshot, namespaces: index, kinds, reaches, grants } = ctx;
  const annotation = resourceAnnotations.iamRoleSelector;
  for (const selector of snapshot.selectors.all) {
    const labels = selector.resourceLabels;
    if (labels !== null && witnessLabels(labels) === null) continue;
    // The type part does not depend on the namespace: test it once per kind.
    let typeMask = 0;
    kinds.forEach((kind, k) => {
      if (selectorMatchesType(selector, kind)) typeMask |= 1 << k;
    });
    if (typeMask === 0) continue;
    const needsLabels = labels !== null && !labels.matches(undefined);
    const grant = grants.selector(selector);
    const pick = `${annotation}: ${selector.name}`;
    const byLabels = needsLabels ? `resources with labels matching ${labels.toString()}` : "";
    const annotated = `resources annotated ${pick} (several selectors match)`;
    const labelledAndAnnotated = `${byLabels}, annotated ${pick}`;
    const candidates =
      selector.namespaceNames !== null
        ? index.named(selector.namespaceNames)
        : selector.namespaceLabels !== null
          ? index.candidatesFor(selector.namespaceLabels)
          : index.all;
    for (const ns of candidates) {
      const decided = plain.get(ns.name);
      if (
        decided === undefined ||
        !selectorMatchesNamespace(selector, { namespace: ns.name, namespaceLabels: ns.labels })
      ) {
        continue;
      }
      // Per kind: actual (a plain resource uses it: listed already), or which route reaches it.
      let onlyLabels = 0;
      let withAnnotation = 0;
      for (let k = 0; k < kinds.length; k++) {
        const bit = 1 << k;
        if ((typeMask & bit) === 0 || decided.grantIds[k] === grant.id) continue;
        if (needsLabels && decided.selectorDecided[k] !== true) onlyLabels |= bit;
        else withAnnotation |= bit;
      }
      if (onlyLabels !== 0) reaches.add(ns.name, grant, false, onlyLabels, byLabels);
      if (withAnnotation !== 0) {
        reaches.add(ns.name, grant, false, withAnnotation, needsLabels ? labelledAndAnnotated : annotated);
      }
    }
  }
}
