import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import { z } from "zod";
import { crdSourceFor as crdSourceIn, loadCrdSources } from "../crd-sources.ts";
import { buildCrd, type CrdSource } from "./crd.ts";
import { crdFileName, crdToYaml, generatedHeader } from "./crd-yaml.ts";
import { identityRefSchema } from "./identity-ref.ts";
import { type ResourceKind, resourceKinds } from "./kinds.ts";
import { resourceCrdSource, resourceSpecSchema } from "./resource.ts";
import { type OpenApiSchema, structuralProblems, toStructuralSchema } from "./structural.ts";

const crdSources = await loadCrdSources();
const crdSourceFor = (apiVersion: string, kind: string) => crdSourceIn(crdSources, apiVersion, kind);

const schemaOf = (source: CrdSource): OpenApiSchema => {
  const schema = buildCrd(source).spec.versions[0]?.schema.openAPIV3Schema;
  assert.ok(schema);
  return schema;
};

describe("every generated CRD", () => {
  for (const source of crdSources) {
    const crd = buildCrd(source);
    test(`${crd.metadata.name} is structural`, () => {
      assert.deepEqual(structuralProblems(schemaOf(source)), []);
    });
  }

  test("names, scopes and subresources", () => {
    const byName = new Map(crdSources.map((s) => [buildCrd(s).metadata.name, buildCrd(s)]));
    const scope = (name: string) => byName.get(name)?.spec.scope;
    assert.equal(scope("iamroleselectors.services.k8s.aws"), "Cluster");
    assert.equal(scope("awscontrolleridentities.identity.crossrole.dev"), "Cluster");
    assert.equal(scope("awsstaticidentities.identity.crossrole.dev"), "Cluster");
    assert.equal(scope("awsroleidentities.identity.crossrole.dev"), "Cluster");
    assert.equal(scope("awsserviceaccountidentities.identity.crossrole.dev"), "Namespaced");
    assert.equal(scope("buckets.s3.services.k8s.aws"), "Namespaced");
    for (const crd of byName.values()) {
      assert.deepEqual(crd.spec.versions[0]?.subresources, { status: {} });
      assert.equal(crd.spec.names.listKind, `${crd.spec.names.kind}List`);
    }
    assert.equal(byName.size, 5 + resourceKinds.length);
  });

  test("the root leaves apiVersion, kind and metadata to the apiserver", () => {
    const root = schemaOf(crdSourceFor("services.k8s.aws/v1alpha1", "IAMRoleSelector")!);
    assert.deepEqual(root.properties?.["metadata"], { type: "object" });
    assert.equal(root.properties?.["apiVersion"]?.type, "string");
    assert.equal(root.properties?.["apiVersion"]?.enum, undefined);
    assert.deepEqual(root.required, ["spec"]);
  });

  test("the AWSControllerIdentity singleton rule sits at the root", () => {
    const root = schemaOf(crdSourceFor("identity.crossrole.dev/v1alpha1", "AWSControllerIdentity")!);
    assert.deepEqual(
      root["x-kubernetes-validations"]?.map((r) => r.rule),
      ["self.metadata.name == 'default'"],
    );
    assert.equal(root.required, undefined, "spec is optional");
  });

  test("allowedNamespaces and its list and selector are nullable", () => {
    const spec = schemaOf(crdSourceFor("identity.crossrole.dev/v1alpha1", "AWSRoleIdentity")!).properties?.[
      "spec"
    ];
    const allowed = spec?.properties?.["allowedNamespaces"];
    assert.equal(allowed?.nullable, true);
    assert.equal(allowed?.properties?.["list"]?.nullable, true);
    assert.equal(allowed?.properties?.["selector"]?.nullable, true);
  });

  test("the checked-in config/crd files are what the generator writes", async () => {
    for (const source of crdSources) {
      const crd = buildCrd(source);
      const path = join(import.meta.dirname, "..", "..", "config", "crd", crdFileName(crd));
      const onDisk = await readFile(path, "utf8").catch(() => null);
      assert.equal(onDisk, crdToYaml(crd), `${path} is stale or missing: run npm run generate`);
    }
  });

  test("YAML output is stable: header, sorted keys, no folded lines", () => {
    const yaml = crdToYaml(buildCrd(crdSources[0]!));
    assert.ok(
      yaml.startsWith(
        `${generatedHeader}---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n`,
      ),
    );
    assert.equal(yaml, crdToYaml(buildCrd(crdSources[0]!)));
  });
});

describe("toStructuralSchema", () => {
  test("a union is refused, naming where it is", () => {
    const schema = z.object({ spec: z.object({ either: z.union([z.string(), z.number()]) }) });
    assert.throws(() => toStructuralSchema(schema), /schema at '\.spec\.either' uses anyOf/);
  });

  test("loose objects preserve unknown fields; strict ones do not emit additionalProperties: false", () => {
    const loose = toStructuralSchema(z.looseObject({ a: z.string() }));
    assert.equal(loose["x-kubernetes-preserve-unknown-fields"], true);
    assert.equal(loose.additionalProperties, undefined);
    const strict = toStructuralSchema(z.strictObject({ a: z.string() }));
    assert.equal(strict.additionalProperties, undefined);
    assert.deepEqual(structuralProblems(strict, false), []);
  });

  test("maps keep additionalProperties; safe-integer bounds are dropped, real ones kept", () => {
    const json = toStructuralSchema(
      z.object({ m: z.record(z.string(), z.string()), i: z.number().int(), n: z.number().int().min(0) }),
    );
    assert.deepEqual(json.properties?.["m"], { type: "object", additionalProperties: { type: "string" } });
    assert.deepEqual(json.properties?.["i"], { type: "integer" });
    assert.deepEqual(json.properties?.["n"], { type: "integer", minimum: 0 });
  });

  test("defaults make a field optional and are kept for the apiserver", () => {
    const json = toStructuralSchema(z.object({ a: z.array(z.string()).default(["x"]) }));
    assert.equal(json.required, undefined);
    assert.deepEqual(json.properties?.["a"]?.default, ["x"]);
  });
});

describe("structuralProblems catches each kind of non-structural schema", () => {
  const cases: [string, OpenApiSchema, RegExp][] = [
    ["a node without type", { type: "object", properties: { a: {} } }, /\.a: missing type/],
    ["a $ref", { type: "object", properties: { a: { type: "string", $ref: "#/x" } } }, /keyword '\$ref'/],
    ["anyOf", { type: "object", properties: { a: { type: "string", anyOf: [] } } }, /keyword 'anyOf'/],
    ["additionalProperties: false", { type: "object", additionalProperties: false }, /must be a schema/],
    [
      "properties with additionalProperties",
      { type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "string" } },
      /mutually exclusive/,
    ],
    [
      "an array without items",
      { type: "object", properties: { a: { type: "array" } } },
      /\.a: array without items/,
    ],
    [
      "uniqueItems",
      { type: "object", properties: { a: { type: "array", items: { type: "string" }, uniqueItems: true } } },
      /uniqueItems/,
    ],
    [
      "metadata with fields",
      {
        type: "object",
        properties: { metadata: { type: "object", properties: { name: { type: "string" } } } },
      },
      /\.metadata must be exactly \{type: object\}/,
    ],
    ["a non-object root", { type: "string" }, /\. must have type: object/],
    [
      "a list-map key that is not required",
      {
        type: "object",
        properties: {
          a: {
            type: "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["k"],
            items: { type: "object", properties: { k: { type: "string" } } },
          },
        },
      },
      /list-map-key 'k' must be required or defaulted/,
    ],
    [
      "a set of objects",
      {
        type: "object",
        properties: { a: { type: "array", "x-kubernetes-list-type": "set", items: { type: "object" } } },
      },
      /set needs scalar items/,
    ],
    [
      "a rule with a multi-line message",
      { type: "object", "x-kubernetes-validations": [{ rule: "true", message: "a\nb" }] },
      /needs a one-line message/,
    ],
    [
      "an enum value of the wrong type",
      { type: "object", properties: { a: { type: "string", enum: [1] } } },
      /enum value 1/,
    ],
  ];
  for (const [title, schema, problem] of cases) {
    test(title, () => assert.match(structuralProblems(schema).join("\n"), problem));
  }
});

test("resource kinds get a CRD from a spec schema that embeds identityRef", () => {
  const widget: ResourceKind = {
    group: "widgets.services.k8s.aws",
    version: "v1alpha1",
    kind: "Widget",
    plural: "widgets",
    singular: "widget",
    service: "widgets",
  };
  const spec = resourceSpecSchema({ size: z.number().int().min(1) });
  const source = resourceCrdSource(widget, spec);
  const root = schemaOf(source);
  assert.deepEqual(structuralProblems(root), []);
  const specJson = root.properties?.["spec"];
  assert.deepEqual(Object.keys(specJson?.properties ?? {}), ["identityRef", "size"]);
  assert.deepEqual(specJson?.properties?.["identityRef"], toStructuralSchema(identityRefSchema));
  assert.equal(
    specJson?.["x-kubernetes-preserve-unknown-fields"],
    undefined,
    "a real spec schema prunes unknown fields",
  );
  const parsed = source.schema.safeParse({
    apiVersion: "widgets.services.k8s.aws/v1alpha1",
    kind: "Widget",
    metadata: { name: "w", namespace: "shop" },
    spec: { size: 2, identityRef: { kind: "AWSRoleIdentity", name: "r" } },
  });
  assert.equal(parsed.success, true);
});

describe("toStructuralSchema", () => {
  test("an empty structure has no properties key (kubectl drops an empty map: two appliers would conflict)", () => {
    const schema = toStructuralSchema(z.object({ simplePrefix: z.object({}).optional(), name: z.string() }));
    assert.deepEqual(schema.properties?.["simplePrefix"], { type: "object" });
    assert.deepEqual(Object.keys(schema.properties ?? {}), ["simplePrefix", "name"]);
  });
});
