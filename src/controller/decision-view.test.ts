import assert from "node:assert/strict";
import { test } from "node:test";
import { readResource } from "../resolver/resource-info.ts";
import type { KubeObject } from "../runtime/kube-object.ts";
import { decisionView } from "./decision-view.ts";
import { outcomeOf } from "./resource-outcomes.ts";

const bucket = (extra: object): KubeObject =>
  ({
    apiVersion: "s3.services.k8s.aws/v1alpha1",
    kind: "Bucket",
    metadata: { name: "b", namespace: "team-a", labels: { app: "x" }, annotations: { a: "1" } },
    spec: {
      name: "b",
      tagging: { tagSet: [{ key: "k", value: "v".repeat(500) }] },
      identityRef: { name: "r" },
    },
    ...extra,
  }) as KubeObject;

test("the decision view keeps what the resolver and the outcome read, and nothing else", () => {
  const full = bucket({
    status: {
      ackResourceMetadata: { arn: "arn:aws:s3:::b", ownerAccountID: "111111111111", region: "eu-west-1" },
      conditions: [
        { type: "ACK.ResourceSynced", status: "True", message: "m".repeat(300) },
        { type: "ACK.Terminal", status: "True" },
      ],
      location: "/b",
    },
  });
  const view = decisionView(full);
  assert.deepEqual(readResource(view), readResource(full), "the resolver reads the same");
  assert.equal(outcomeOf(view, { outcome: "use" }), "terminal");
  assert.deepEqual(Object.keys(view.spec as object), ["identityRef"]);
  assert.ok(JSON.stringify(view).length < JSON.stringify(full).length / 2);
});

test("a resource with no identityRef or status has none in its view either", () => {
  const view = decisionView({
    apiVersion: "v1",
    kind: "Bucket",
    metadata: { name: "b" },
    spec: { name: "b" },
  } as KubeObject);
  assert.equal(view.spec, undefined);
  assert.equal((view as { status?: unknown }).status, undefined);
  assert.equal(outcomeOf(view, { outcome: "deny" }), "deny");
});
