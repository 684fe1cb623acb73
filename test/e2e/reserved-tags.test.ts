// A reserved tag key (src/api/reserved-tag-keys.ts) that got past admission — stored before the
// CRDs carried the rule, or written while they did not — is never dropped on the way to AWS: the
// real controller process refuses the object with ACK.Terminal InvalidSpec naming the key, and
// sends AWS nothing for it. One object of every served kind (from the catalog, not spelled here),
// each stored under its CRD with the rule taken out, then the CRDs put back as generated.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { buildCrd } from "../../src/api/crd.ts";
import type { OpenApiSchema } from "../../src/api/structural.ts";
import { withDefaultTags } from "../../src/controller/spec-default-tags.ts";
import { type Crd, installCrdObjects, installCrds } from "../../src/local-stack/install-crds.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import { KubeApiError } from "../../src/runtime/kube-client.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { servedKindCatalog } from "../../src/services/catalog.ts";
import { taggableKindNames } from "../../src/services/served.ts";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";
import { minimalResource, namespaceObjectsFor } from "../support/minimal-resources.ts";
import {
  configMap,
  type E2E,
  namespace,
  resourcePath,
  startE2E,
  waitForResourceCondition,
} from "./fixture.ts";

const X = "171717171717";
const ns = "reserved-tags";
const key = "services.k8s.aws/namespace ";
// Every kind with tags: AWS cannot tag an Alias, which has no tags field
// (src/services/reserved-tag-keys-kinds.test.ts checks that it has none).
const kinds = taggableKindNames;

let e2e: E2E;
let proxy: AwsProxy;

/** The CRD as generated, but without the rules that refuse reserved tag keys. */
function withoutReservedKeyRules(schema: OpenApiSchema): OpenApiSchema {
  const out: OpenApiSchema = { ...schema };
  const rules = schema["x-kubernetes-validations"]?.filter((r) => !r.rule.includes("crossrole.dev/"));
  if (rules !== undefined) out["x-kubernetes-validations"] = rules;
  if (schema.properties !== undefined)
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([k, v]) => [k, withoutReservedKeyRules(v)]),
    );
  if (schema.items !== undefined) out.items = withoutReservedKeyRules(schema.items);
  if (typeof schema.additionalProperties === "object")
    out.additionalProperties = withoutReservedKeyRules(schema.additionalProperties);
  return out;
}

async function crdWithoutRule(kind: (typeof kinds)[number]): Promise<Crd> {
  const crd = buildCrd(await servedKindCatalog[kind].crd());
  for (const v of crd.spec.versions)
    v.schema.openAPIV3Schema = withoutReservedKeyRules(v.schema.openAPIV3Schema);
  return crd as unknown as Crd;
}

async function objectOf(kind: (typeof kinds)[number]): Promise<KubeObject> {
  const { specTags } = await servedKindCatalog[kind].module();
  const name = `tagged-${kind.toLowerCase()}`;
  const base = minimalResource(kind, ns, name, name, {}, X) as KubeObject & { spec: Record<string, unknown> };
  return {
    ...base,
    spec: withDefaultTags(specTags, base.spec, { [key]: "shop" }).spec,
  } as KubeObject;
}

before(async () => {
  e2e = await startE2E();
  proxy = await startAwsProxy(e2e.stack.awsEndpoint ?? "");
  await e2e.apply([
    namespace("ack-system"),
    namespace(ns, { "services.k8s.aws/owner-account-id": X }),
    configMap("ack-role-account-map", { [X]: `arn:aws:iam::${X}:role/crossrole` }),
    ...namespaceObjectsFor(kinds, ns),
  ]);
  // Stored while the CRDs lacked the rule: an apiserver takes a changed CRD in a moment, so
  // each write is tried until it is admitted.
  await installCrdObjects(e2e.kube, await Promise.all(kinds.map(crdWithoutRule)));
  for (const kind of kinds) {
    await waitFor(
      async () => {
        try {
          await e2e.apply([await objectOf(kind)]);
          return true;
        } catch (err) {
          if (err instanceof KubeApiError && err.status === 422) return false;
          throw err;
        }
      },
      { what: `${kind} with tag ${JSON.stringify(key)} stored under its CRD without the rule` },
    );
  }
  await installCrds(e2e.kube);
  await e2e.startController([], { awsEndpoint: proxy.endpoint });
});
after(async () => {
  await e2e?.stop();
  await proxy?.close();
});

test("every kind: a stored reserved tag key is ACK.Terminal InvalidSpec naming the key, and AWS is sent nothing", async () => {
  for (const kind of kinds) {
    const name = `tagged-${kind.toLowerCase()}`;
    const r = await waitForResourceCondition(e2e.kube, kind, ns, name, "ACK.Terminal", "True", "InvalidSpec");
    const message = r.status?.conditions?.find((c) => c.type === "ACK.Terminal")?.message ?? "";
    assert.match(message, /spec\.tag[^:]*: /, `${kind}: ${message}`);
    assert.ok(
      message.includes(`"${key}" is reserved: keys starting with services.k8s.aws/`),
      `${kind}: ${message}`,
    );
    // The stored spec still holds the user's tag: nothing was dropped or rewritten.
    const stored = await e2e.kube.request<{ spec: Record<string, unknown> }>({
      method: "GET",
      path: resourcePath(kind, ns, name),
    });
    assert.ok(
      JSON.stringify(stored.spec).includes(JSON.stringify(key)),
      `${kind}: ${JSON.stringify(stored.spec)}`,
    );
  }
  const sts = new Set(["AssumeRole", "GetCallerIdentity", "AssumeRoleWithWebIdentity"]);
  const toAws = proxy.requests.filter((r) => !sts.has(r.action ?? ""));
  assert.deepEqual(
    toAws.map((r) => `${r.method} ${r.path} ${r.action ?? ""}`),
    [],
    "no AWS call for an object with a reserved tag",
  );
});
