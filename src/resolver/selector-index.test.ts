import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { role, selector, settingsWith } from "../../test/support/resolver-fixtures.ts";
import { matchingSelectors } from "./selector-match.ts";
import { buildSnapshot } from "./snapshot.ts";
import type { SelectorIndex, TypeBuckets } from "./snapshot-types.ts";

function indexOf(specs: Record<string, Record<string, unknown>>): SelectorIndex {
  const selectors = Object.entries(specs).map(([name, spec]) =>
    selector(name, { arn: role("111111111111"), ...spec }),
  );
  const snapshot = buildSnapshot({ iamRoleSelectors: selectors }, settingsWith());
  assert.deepEqual(snapshot.problems, []);
  return snapshot.selectors;
}

const names = (b: TypeBuckets | undefined) => b?.any.map((s) => s.name);
const nsLabels = (labelSelector: unknown) => ({ namespaceSelector: { labelSelector } });

describe("selector index", () => {
  test("all namespace label equalities together form one bucket key", () => {
    const index = indexOf({ s: nsLabels({ matchLabels: { team: "a", env: "dev" } }) });
    assert.deepEqual(
      index.byNamespaceLabels.map((set) => set.keys),
      [["env", "team"]],
    );
    assert.deepEqual(names(index.byNamespaceLabels[0]!.buckets.get("dev\u0000a")), ["s"]);
  });

  test("In with several values files one bucket per combination; NotIn/Exists are left to re-checking", () => {
    const index = indexOf({
      s: nsLabels({
        matchLabels: { team: "a" },
        matchExpressions: [
          { key: "env", operator: "In", values: ["dev", "stage"] },
          { key: "tier", operator: "NotIn", values: ["gold"] },
          { key: "owner", operator: "Exists" },
        ],
      }),
    });
    assert.deepEqual([...index.byNamespaceLabels[0]!.buckets.keys()].sort(), ["dev\u0000a", "stage\u0000a"]);
  });

  test("two requirements on one key intersect; an empty intersection files nowhere", () => {
    const index = indexOf({
      both: nsLabels({
        matchLabels: { env: "dev" },
        matchExpressions: [{ key: "env", operator: "In", values: ["dev", "qa"] }],
      }),
      never: nsLabels({
        matchLabels: { env: "dev" },
        matchExpressions: [{ key: "env", operator: "In", values: ["qa"] }],
      }),
    });
    assert.deepEqual([...index.byNamespaceLabels[0]!.buckets.keys()], ["dev"]);
    assert.deepEqual(names(index.byNamespaceLabels[0]!.buckets.get("dev")), ["both"]);
  });

  test("too many combinations leave the widest In list out of the key", () => {
    const values = Array.from({ length: 10 }, (_, i) => `v${i}`);
    const index = indexOf({
      wide: nsLabels({
        matchExpressions: [
          { key: "a", operator: "In", values },
          { key: "b", operator: "In", values: [...values, "v10"] },
          { key: "c", operator: "In", values: ["x"] },
        ],
      }),
    });
    assert.deepEqual(
      index.byNamespaceLabels.map((set) => set.keys),
      [["a", "c"]],
    );
  });

  test("names win over labels; resource labels are used when the namespace part has no equality", () => {
    const index = indexOf({
      named: { namespaceSelector: { names: ["n1"], labelSelector: { matchLabels: { team: "a" } } } },
      byResource: {
        namespaceSelector: { labelSelector: { matchExpressions: [{ key: "team", operator: "Exists" }] } },
        resourceLabelSelector: { matchLabels: { app: "web" } },
      },
      anything: {
        resourceLabelSelector: { matchExpressions: [{ key: "app", operator: "NotIn", values: ["x"] }] },
      },
    });
    assert.deepEqual(names(index.byNamespaceName.get("n1")), ["named"]);
    assert.equal(index.byNamespaceLabels.length, 0);
    assert.deepEqual(names(index.byResourceLabels[0]!.buckets.get("web")), ["byResource"]);
    assert.deepEqual(names(index.anyNamespace), ["anything"]);
  });

  test("a selector reachable under two type keys is matched once", () => {
    const index = indexOf({
      twice: {
        resourceTypeSelector: [
          { group: "s3.services.k8s.aws", version: "", kind: "Bucket" },
          { group: "", version: "", kind: "Bucket" },
        ],
      },
      distinct: {
        resourceTypeSelector: [
          { apiVersion: "s3.services.k8s.aws/v1alpha1", kind: "Bucket" },
          { apiVersion: "sqs.services.k8s.aws/v1alpha1", kind: "Queue" },
        ],
      },
    });
    assert.deepEqual(
      [...index.inSeveralTypeBuckets].map((s) => s.name),
      ["twice"],
    );
    const matched = matchingSelectors(index, {
      namespace: "n",
      namespaceLabels: {},
      group: "s3.services.k8s.aws",
      version: "v1alpha1",
      kind: "Bucket",
      resourceLabels: {},
    });
    assert.deepEqual(
      matched.map((s) => s.name),
      ["distinct", "twice"],
    );
  });

  test("a namespace lacking one of the keys does not reach the bucket, and a label named like a prototype member is safe", () => {
    const index = indexOf({ s: nsLabels({ matchLabels: { constructor: "x", team: "a" } }) });
    const target = { namespace: "n", group: "g", version: "v", kind: "K", resourceLabels: {} };
    assert.deepEqual(matchingSelectors(index, { ...target, namespaceLabels: { team: "a" } }), []);
    assert.deepEqual(
      matchingSelectors(index, { ...target, namespaceLabels: { team: "a", constructor: "x" } }).map(
        (s) => s.name,
      ),
      ["s"],
    );
  });
});
