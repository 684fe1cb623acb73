// How many resources are in each state now, per kind and namespace, as a gauge on-call teams can
// alert on: crossrole_resources{kind, namespace, outcome}. `outcome` is the resource's identity
// decision (use, deny, wait, conflict), or `terminal` when its ACK.Terminal condition is True
// (retrying cannot help; that overrides whatever the decision is). Computed at scrape time from
// the shared resource caches and the decision memo (resolved once per configuration snapshot),
// like the other trackers: nothing to keep in step, right after a restart too.
import type { Decision, Outcome } from "../resolver/types.ts";
import type { KubeObject } from "../runtime/kube-object.ts";
import { gaugeText } from "../runtime/metric-text.ts";
import { conditionTypes } from "./ack-conditions.ts";

export type ResourceOutcome = Outcome | "terminal";

interface Conditioned {
  readonly status?: { readonly conditions?: readonly { readonly type: string; readonly status: string }[] };
}

/** A resource's outcome: terminal when ACK.Terminal is True, else its decision's outcome. */
export function outcomeOf(obj: KubeObject, decision: Pick<Decision, "outcome">): ResourceOutcome {
  const terminal = (obj as Conditioned).status?.conditions?.some(
    (c) => c.type === conditionTypes.terminal && c.status === "True",
  );
  return terminal ? "terminal" : decision.outcome;
}

export interface OutcomeCount {
  readonly kind: string;
  readonly namespace: string;
  readonly outcome: ResourceOutcome;
  readonly count: number;
}

/** Counts per (kind, namespace, outcome) of the resources given. */
export function countOutcomes(
  resources: Iterable<{ readonly kind: string; readonly obj: KubeObject; readonly outcome: ResourceOutcome }>,
): OutcomeCount[] {
  // Computed on every scrape over every cached resource: one small key per resource, no copies.
  const counts = new Map<
    string,
    { kind: string; namespace: string; outcome: ResourceOutcome; count: number }
  >();
  for (const { kind, obj, outcome } of resources) {
    const namespace = obj.metadata.namespace ?? "";
    const key = `${kind}\u0000${namespace}\u0000${outcome}`;
    const c = counts.get(key);
    if (c) c.count++;
    else counts.set(key, { kind, namespace, outcome, count: 1 });
  }
  return [...counts.values()];
}

export interface ResourceOutcomeSources {
  /** Where the family is served (RuntimeMetrics.textFamilies: a series per kind and namespace). */
  readonly textFamilies: Map<string, () => string>;
  /** The managed kinds' shared informers. */
  readonly resources: readonly { readonly kind: string; readonly informer: { list(): KubeObject[] } }[];
  /** Whether the caches and the configuration have synced (nothing is reported before). */
  readonly synced: () => boolean;
  /** The decision for a cached object under the current configuration (the decision memo). */
  readonly decide: (obj: KubeObject) => Decision;
}

const name = "crossrole_resources";
const help =
  "Managed resources by kind, namespace and outcome: their identity decision (use, deny, wait, conflict), or terminal when ACK.Terminal is True";

/**
 * Serves crossrole_resources, counted afresh at each scrape (a (kind, namespace, outcome) no
 * resource has any more is gone at once), as text (src/runtime/metric-text.ts): a series per kind
 * and namespace is thousands of series in a large cluster.
 */
export function registerResourceOutcomes(o: ResourceOutcomeSources): void {
  o.textFamilies.set(name, () => {
    if (!o.synced()) return gaugeText(name, help, []);
    const all = function* () {
      for (const { kind, informer } of o.resources) {
        for (const obj of informer.list()) yield { kind, obj, outcome: outcomeOf(obj, o.decide(obj)) };
      }
    };
    return gaugeText(
      name,
      help,
      countOutcomes(all()).map((c) => ({
        labels: { kind: c.kind, namespace: c.namespace, outcome: c.outcome },
        value: c.count,
      })),
    );
  });
}
