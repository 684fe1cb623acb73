// Smoke test of the real control plane: objects written through the API come back through
// a watch, CRDs are served, and the TokenRequest API mints service-account tokens.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  ApiextensionsV1Api,
  AuthenticationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type KubernetesObject,
  Watch,
} from "@kubernetes/client-node";
import { type Stack, startStack, waitFor } from "../harness/index.ts";

let stack: Stack;
before(async () => {
  stack = await startStack({ aws: false });
});
after(() => stack?.stop());

/** Starts a watch on `path` and resolves with the first object for which `match` holds. */
async function watchFor(path: string, match: (type: string, obj: KubernetesObject) => boolean) {
  const seen: { type: string; obj: KubernetesObject }[] = [];
  const req = await new Watch(stack.kubeConfig).watch(
    path,
    {},
    (type: string, obj: KubernetesObject) => seen.push({ type, obj }),
    () => {},
  );
  try {
    return await waitFor(() => seen.find((e) => match(e.type, e.obj)), {
      what: `a watch event on ${path}`,
      timeoutMs: 10_000,
    });
  } finally {
    req.abort();
  }
}

describe("kube-apiserver + etcd", () => {
  test("a Namespace and a ConfigMap written through the API are seen through a watch", async () => {
    const core = stack.kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: "smoke", labels: { team: "a" } } } });
    const nsEvent = await watchFor("/api/v1/namespaces", (_t, o) => o.metadata?.name === "smoke");
    assert.equal(nsEvent.obj.metadata?.labels?.["team"], "a");

    await core.createNamespacedConfigMap({
      namespace: "smoke",
      body: {
        metadata: { name: "ack-role-account-map" },
        data: { "111111111111": "arn:aws:iam::111111111111:role/x" },
      },
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
    const ext = stack.kubeConfig.makeApiClient(ApiextensionsV1Api);
    await ext.createCustomResourceDefinition({
      body: {
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
      },
    });
    await waitFor(
      async () => {
        const crd = await ext.readCustomResourceDefinition({ name: "widgets.smoke.crossrole.dev" });
        return crd.status?.conditions?.some((c) => c.type === "Established" && c.status === "True");
      },
      { what: "CRD widgets.smoke.crossrole.dev Established", timeoutMs: 20_000 },
    );
    const custom = stack.kubeConfig.makeApiClient(CustomObjectsApi);
    // A freshly established CRD can take a moment to be served by discovery; retry the create.
    await waitFor(
      () =>
        custom.createNamespacedCustomObject({
          group: "smoke.crossrole.dev",
          version: "v1",
          namespace: "default",
          plural: "widgets",
          body: {
            apiVersion: "smoke.crossrole.dev/v1",
            kind: "Widget",
            metadata: { name: "w1" },
            spec: { size: 3 },
          },
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
    const core = stack.kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespacedServiceAccount({ namespace: "default", body: { metadata: { name: "app" } } });
    const tr = await core.createNamespacedServiceAccountToken({
      name: "app",
      namespace: "default",
      body: { spec: { audiences: ["sts.amazonaws.com"], expirationSeconds: 600 } },
    });
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

    const authn = stack.kubeConfig.makeApiClient(AuthenticationV1Api);
    const review = await authn.createTokenReview({
      body: { spec: { token, audiences: ["sts.amazonaws.com"] } },
    });
    assert.equal(review.status?.authenticated, true);
    assert.equal(review.status?.user?.username, "system:serviceaccount:default:app");
  });
});
