import assert from "node:assert/strict";
import { test } from "node:test";
import { Registry } from "prom-client";
import type { Decision } from "../resolver/types.ts";
import { metricsHandler } from "../runtime/http-server.ts";
import type { KubeObject } from "../runtime/kube-object.ts";
import { countOutcomes, outcomeOf, registerResourceOutcomes } from "./resource-outcomes.ts";

const obj = (namespace: string, name: string, terminal = false): KubeObject =>
  ({
    metadata: { namespace, name },
    status: { conditions: [{ type: "ACK.Terminal", status: terminal ? "True" : "False" }] },
  }) as KubeObject;

test("a resource is terminal when ACK.Terminal is True, whatever its decision; else its decision's outcome", () => {
  assert.equal(outcomeOf(obj("a", "x", true), { outcome: "use" }), "terminal");
  assert.equal(outcomeOf(obj("a", "x"), { outcome: "deny" }), "deny");
  assert.equal(outcomeOf({ metadata: { name: "y", namespace: "a" } }, { outcome: "wait" }), "wait");
});

test("counts per kind, namespace and outcome", () => {
  assert.deepEqual(
    countOutcomes([
      { kind: "Bucket", obj: obj("a", "1"), outcome: "use" },
      { kind: "Bucket", obj: obj("a", "2"), outcome: "use" },
      { kind: "Bucket", obj: obj("b", "3"), outcome: "use" },
      { kind: "Queue", obj: obj("a", "4"), outcome: "deny" },
    ]),
    [
      { kind: "Bucket", namespace: "a", outcome: "use", count: 2 },
      { kind: "Bucket", namespace: "b", outcome: "use", count: 1 },
      { kind: "Queue", namespace: "a", outcome: "deny", count: 1 },
    ],
  );
});

test("the gauge is read from the caches when scraped; a state no resource has any more disappears", async () => {
  const registry = new Registry();
  const textFamilies = new Map<string, () => string>();
  let buckets = [obj("a", "1"), obj("a", "2", true)];
  const outcomes = new Map<string, Decision["outcome"]>([
    ["1", "deny"],
    ["2", "use"],
  ]);
  let synced = false;
  registerResourceOutcomes({
    textFamilies,
    resources: [{ kind: "Bucket", informer: { list: () => buckets } }],
    synced: () => synced,
    decide: (o) => ({ outcome: outcomes.get(o.metadata.name ?? "") ?? "use" }) as Decision,
  });
  // As /metrics serves it: the registry's families, then the text ones.
  const scrape = async () => {
    let body = "";
    await metricsHandler(registry, textFamilies)(
      {} as never,
      {
        writeHead: () => undefined,
        end: (b: string) => {
          body = b;
        },
      } as never,
    );
    return body;
  };
  const before = await scrape();
  assert.doesNotMatch(before, /crossrole_resources\{/, "nothing before the caches sync");
  assert.match(before, /# TYPE crossrole_resources gauge/);
  synced = true;
  const first = await scrape();
  assert.match(first, /crossrole_resources\{kind="Bucket",namespace="a",outcome="deny"\} 1/);
  assert.match(first, /crossrole_resources\{kind="Bucket",namespace="a",outcome="terminal"\} 1/);
  outcomes.set("1", "use");
  buckets = [obj("a", "1")];
  const second = await scrape();
  assert.match(second, /crossrole_resources\{kind="Bucket",namespace="a",outcome="use"\} 1/);
  assert.doesNotMatch(second, /outcome="deny"|outcome="terminal"/);
});
