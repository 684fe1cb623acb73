// One resource kind's CRD on a real kube-apiserver, the way every `<service>-<kind>-crd.test.ts`
// checks it: the CRD generated from the kind's schema is installed into a fresh stack, every
// valid example is admitted with its spec stored unchanged, and every invalid one is rejected at
// its field with a message naming it (the same table the zod unit tests run). The kind's own
// rules (immutable fields, status) are tested with the create/replace calls returned here.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { CoreV1Api, CustomObjectsApi } from "@kubernetes/client-node";
import { buildCrd, type CrdSource } from "../../src/api/crd.ts";
import type { InvalidExample, ValidExample } from "../../src/api/examples.ts";
import { type Crd, installCrdObjects } from "../../src/deploy/install-crds.ts";
import { createKubeClient } from "../../src/runtime/kubeClient.ts";
import { type Stack, startStack } from "../harness/index.ts";
import { rejection, show } from "./admission.ts";

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
  const where = {
    group: crd.spec.group,
    version: crd.spec.versions[0]?.name ?? "",
    plural: crd.spec.names.plural,
    namespace: o.namespace,
  };
  let stack: Stack;
  let custom: CustomObjectsApi;

  before(async () => {
    stack = await startStack({ aws: false });
    custom = stack.kubeConfig.makeApiClient(CustomObjectsApi);
    await stack.kubeConfig
      .makeApiClient(CoreV1Api)
      .createNamespace({ body: { metadata: { name: o.namespace } } });
    await installCrdObjects(createKubeClient(stack.kubeConfig), [crd as unknown as Crd]);
  });
  after(() => stack?.stop());

  const nameOf = (object: Obj): string => (object["metadata"] as { name: string }).name;
  const api: KindAdmission = {
    async create(object) {
      return (await custom.createNamespacedCustomObject({ ...where, body: object })) as Obj;
    },
    async replace(object, metadata, spec) {
      return (await custom.replaceNamespacedCustomObject({
        ...where,
        name: nameOf(object),
        body: { ...object, metadata, spec },
      })) as Obj;
    },
    async replaceStatus(object, metadata, spec, status) {
      return (await custom.replaceNamespacedCustomObjectStatus({
        ...where,
        name: nameOf(object),
        body: { ...object, metadata, spec, status },
      })) as Obj;
    },
  };

  describe(`the apiserver admits every valid ${o.kind} example, and stores its spec unchanged`, () => {
    for (const example of o.valid) {
      test(example.title, async () => {
        const created = (await api.create(example.object)) as { spec?: Obj };
        assert.deepEqual(created.spec, example.object["spec"]);
        await custom.deleteNamespacedCustomObject({ ...where, name: nameOf(example.object) });
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
