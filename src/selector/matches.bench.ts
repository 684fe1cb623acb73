// Micro-benchmark (a dev script, not imported by the library, not a test): the cost of one
// CompiledSelector.matches() and CompiledAllowedNamespaces.allows() call, which the resolver makes
// for every candidate of every decision. Run: npx node src/selector/matches.bench.ts
// Prints one JSON line: nanoseconds per call (median of several rounds) and the heap growth
// over the measured calls, which should be ~0 because matching allocates nothing.

import { compileAllowedNamespaces } from "./allowed-namespaces.ts";
import { compileLabelSelector, type Labels } from "./label-selector.ts";

const compiled = compileLabelSelector({
  matchLabels: { team: "a" },
  matchExpressions: [
    { key: "env", operator: "In", values: ["prod", "stage", "dev"] },
    { key: "quarantined", operator: "DoesNotExist" },
  ],
});
const allowedResult = compileAllowedNamespaces({
  list: ["billing", "shop"],
  selector: {
    matchLabels: { team: "a" },
    matchExpressions: [{ key: "env", operator: "In", values: ["prod"] }],
  },
});
if (!compiled.ok || !allowedResult.ok) throw new Error("benchmark fixtures must compile");
const selector = compiled.selector;
const allowed = allowedResult.allowed;

// A mix of label sets so the branch predictor cannot learn one answer.
const labelSets: readonly Labels[] = [
  { team: "a", env: "prod", "kubernetes.io/metadata.name": "shop" },
  { team: "a", env: "qa", "kubernetes.io/metadata.name": "web" },
  { team: "b", env: "prod" },
  { team: "a", env: "dev", quarantined: "true" },
  {},
];
const namespaces = ["shop", "web", "api", "billing", "tools"];

function measure(name: string, calls: number, body: (i: number) => boolean): Record<string, number | string> {
  let sink = 0;
  for (let i = 0; i < calls; i++) if (body(i)) sink++; // warm-up, lets the JIT optimise `body`
  const rounds: number[] = [];
  const heapBefore = process.memoryUsage().heapUsed;
  for (let r = 0; r < 7; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) if (body(i)) sink++;
    rounds.push(Number(process.hrtime.bigint() - start) / calls);
  }
  const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
  rounds.sort((a, b) => a - b);
  return { name, nsPerCall: Number(rounds[3]!.toFixed(1)), heapGrowthBytes: heapGrowth, sink };
}

const calls = 2_000_000;
console.log(
  JSON.stringify([
    measure("selector.matches (3 requirements)", calls, (i) => selector.matches(labelSets[i % 5])),
    measure("allowedNamespaces.allows (list + 2-requirement selector)", calls, (i) =>
      allowed.allows(namespaces[i % 5]!, labelSets[i % 5]),
    ),
  ]),
);
