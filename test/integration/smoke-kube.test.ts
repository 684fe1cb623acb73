// Smoke test of the real control plane: objects written through the API come back through
// a watch, CRDs are served, the TokenRequest API mints service-account tokens, and the client
// times its requests as reads and writes.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type Stack, startStack, waitFor } from "../../src/local-stack/stack.ts";
import { createKubeClient, type KubeClient, type WatchEvent } from "../../src/runtime/kube-client.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { StepTimes, withStepTimes } from "../../src/toolkit/step-times.ts";

let stack: Stack;
let kube: KubeClient;
before(async () => {
  stack = await startStack({ aws: false });
  kube = createKubeClient(stack.kubeConfig);
});
after(() => stack?.stop());

const post = <T = unknown>(path: string, body: unknown) => kube.request<T>({ method: "POST", path, body });

/** Starts a watch on `path` and resolves with the first event for which `match` holds. */
async function watchFor(path: string, match: (type: string, obj: KubeObject) => boolean) {
  const seen: WatchEvent[] = [];
  const stop = new AbortController();
  const watching = kube.watch({ path, signal: stop.signal, onEvent: (e) => seen.push(e) });
  try {
    const e = await waitFor(() => seen.find((e) => match(e.type, e.object)), {
      what: `a watch event on ${path}`,
      timeoutMs: 10_000,
    });
    return { type: e.type, obj: e.object };
  } finally {
    stop.abort();
    await watching.catch(() => {});
  }
}

describe("kube-apiserver + etcd", () => {
  test("a Namespace and a ConfigMap written through the API are seen through a watch", async () => {
    await post("/api/v1/namespaces", {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "smoke", labels: { team: "a" } },
    });
    const nsEvent = await watchFor("/api/v1/namespaces", (_t, o) => o.metadata?.name === "smoke");
    assert.equal(nsEvent.obj.metadata?.labels?.["team"], "a");

    await post("/api/v1/namespaces/smoke/configmaps", {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "ack-role-account-map" },
      data: { "111111111111": "arn:aws:iam::111111111111:role/x" },
    });
    const cmEvent = await watchFor(
      "/api/v1/namespaces/smoke/configmaps",
      (_t, o) => o.metadata?.name === "ack-role-account-map",
    );
    assert.equal(cmEvent.type, "ADDED");
    assert.deepEqual((cmEvent.obj as { data?: Record<string, string> }).data, {
      "111111111111": "arn:aws:iam::111111111111:role/x",
    });
  });

  test("a CustomResourceDefinition becomes Established and serves its kind, seen through a watch", async () => {
    const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    await post(crds, {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: "widgets.smoke.crossrole.dev" },
      spec: {
        group: "smoke.crossrole.dev",
        names: { kind: "Widget", plural: "widgets", singular: "widget" },
        scope: "Namespaced",
        versions: [
          {
            name: "v1",
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: "object",
                properties: { spec: { type: "object", properties: { size: { type: "integer" } } } },
              },
            },
          },
        ],
      },
    });
    await waitFor(
      async () => {
        const crd = await kube.request<{ status?: { conditions?: { type: string; status: string }[] } }>({
          method: "GET",
          path: `${crds}/widgets.smoke.crossrole.dev`,
        });
        return crd.status?.conditions?.some((c) => c.type === "Established" && c.status === "True");
      },
      { what: "CRD widgets.smoke.crossrole.dev Established", timeoutMs: 20_000 },
    );
    // A freshly established CRD can take a moment to be served by discovery; retry the create.
    await waitFor(
      () =>
        post("/apis/smoke.crossrole.dev/v1/namespaces/default/widgets", {
          apiVersion: "smoke.crossrole.dev/v1",
          kind: "Widget",
          metadata: { name: "w1" },
          spec: { size: 3 },
        }),
      { what: "create Widget w1", timeoutMs: 20_000 },
    );
    const ev = await watchFor(
      "/apis/smoke.crossrole.dev/v1/namespaces/default/widgets",
      (_t, o) => o.metadata?.name === "w1",
    );
    assert.equal((ev.obj as { spec?: { size?: number } }).spec?.size, 3);
  });

  test("the TokenRequest API mints a token for a ServiceAccount, and TokenReview accepts it", async () => {
    await post("/api/v1/namespaces/default/serviceaccounts", {
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: "app" },
    });
    const tr = await post<{ status?: { token?: string } }>(
      "/api/v1/namespaces/default/serviceaccounts/app/token",
      {
        apiVersion: "authentication.k8s.io/v1",
        kind: "TokenRequest",
        spec: { audiences: ["sts.amazonaws.com"], expirationSeconds: 600 },
      },
    );
    const token = tr.status?.token;
    assert.ok(token, "TokenRequest returned no token");
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as {
      sub: string;
      aud: string[];
      iss: string;
    };
    assert.equal(payload.sub, "system:serviceaccount:default:app");
    assert.deepEqual(payload.aud, ["sts.amazonaws.com"]);
    assert.equal(payload.iss, stack.controlPlane.serviceAccountIssuer);

    const review = await post<{ status?: { authenticated?: boolean; user?: { username?: string } } }>(
      "/apis/authentication.k8s.io/v1/tokenreviews",
      {
        apiVersion: "authentication.k8s.io/v1",
        kind: "TokenReview",
        spec: { token, audiences: ["sts.amazonaws.com"] },
      },
    );
    assert.equal(review.status?.authenticated, true);
    assert.equal(review.status?.user?.username, "system:serviceaccount:default:app");
  });
  test("the client times its requests as a reconcile's steps: GETs as reads, every other request as a write", async () => {
    const steps = new StepTimes();
    await withStepTimes(steps, async () => {
      await kube.request({ method: "GET", path: "/api/v1/namespaces/default" });
    });
    assert.deepEqual([...steps.totals().keys()], ["kubernetes_read"]);
    await withStepTimes(steps, async () => {
      await post("/api/v1/namespaces/default/configmaps", {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "step-times" },
      });
    });
    const totals = steps.totals();
    assert.deepEqual([...totals.keys()].sort(), ["kubernetes_read", "kubernetes_write"]);
    assert.ok((totals.get("kubernetes_write") ?? 0) > 0, "a request to a real apiserver takes time");
  });
});
