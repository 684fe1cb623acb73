// One resource kind's CRD on a real kube-apiserver, the way every `<service>-<kind>-crd.test.ts`
// checks it: the CRD generated from the kind's schema is installed into a fresh stack, every
// valid example is admitted with its spec stored unchanged, and every invalid one is rejected at
// its field with a message naming it (the same table the zod unit tests run). The kind's own
// rules (immutable fields, status) are tested with the create/replace calls returned here.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { buildCrd, type CrdSource } from "../../src/api/crd.ts";
import { type Crd, installCrdObjects } from "../../src/local-stack/install-crds.ts";
import { type Stack, startStack } from "../../src/local-stack/stack.ts";
import { createKubeClient, type KubeClient } from "../../src/runtime/kube-client.ts";
import { rejection, show } from "./admission.ts";
import type { InvalidExample, ValidExample } from "./examples/identities.ts";

type Obj = Record<string, unknown>;

export interface KindAdmission {
  create(object: Obj): Promise<Obj>;
  /** Writes `spec` over the stored object (`metadata` is what the last write returned). */
  replace(object: Obj, metadata: Obj, spec: Obj): Promise<Obj>;
  /** Writes `status` through the status subresource. */
  replaceStatus(object: Obj, metadata: Obj, spec: Obj, status: Obj): Promise<Obj>;
}

export function kindAdmissionSuite(o: {
  readonly kind: string;
  readonly source: CrdSource;
  readonly namespace: string;
  readonly valid: readonly ValidExample[];
  readonly invalid: readonly InvalidExample[];
}): KindAdmission {
  const crd = buildCrd(o.source);
  const collection = `/apis/${crd.spec.group}/${crd.spec.versions[0]?.name ?? ""}/namespaces/${o.namespace}/${crd.spec.names.plural}`;
  let stack: Stack;
  let kube: KubeClient;

  before(async () => {
    stack = await startStack({ aws: false });
    kube = createKubeClient(stack.kubeConfig);
    await kube.request({
      method: "POST",
      path: "/api/v1/namespaces",
      body: { apiVersion: "v1", kind: "Namespace", metadata: { name: o.namespace } },
    });
    await installCrdObjects(kube, [crd as unknown as Crd]);
  });
  after(() => stack?.stop());

  const nameOf = (object: Obj): string => (object["metadata"] as { name: string }).name;
  const api: KindAdmission = {
    create: (object) => kube.request<Obj>({ method: "POST", path: collection, body: object }),
    replace: (object, metadata, spec) =>
      kube.request<Obj>({
        method: "PUT",
        path: `${collection}/${nameOf(object)}`,
        body: { ...object, metadata, spec },
      }),
    replaceStatus: (object, metadata, spec, status) =>
      kube.request<Obj>({
        method: "PUT",
        path: `${collection}/${nameOf(object)}/status`,
        body: { ...object, metadata, spec, status },
      }),
  };

  describe(`the apiserver admits every valid ${o.kind} example, and stores its spec unchanged`, () => {
    for (const example of o.valid) {
      test(example.title, async () => {
        const created = (await api.create(example.object)) as { spec?: Obj };
        assert.deepEqual(created.spec, example.object["spec"]);
        await kube.request({ method: "DELETE", path: `${collection}/${nameOf(example.object)}` });
      });
    }
  });

  describe(`the apiserver rejects each invalid ${o.kind} example at its field, with a message naming it`, () => {
    for (const example of o.invalid) {
      test(example.title, async () => {
        const causes = await rejection(() => api.create(example.object));
        const field = example.apiserverField ?? example.field;
        const expected = example.apiserverMessage ?? example.message;
        assert.ok(
          causes.some((c) => c.field === field && (c.message ?? "").includes(expected)),
          `expected "${field}: …${expected}…" among:\n${show(causes)}`,
        );
      });
    }
  });

  return api;
}
