import assert from "node:assert/strict";
import { test } from "node:test";
import { groupVersionKindOf, iamRoleSelectorSchema, iamRoleSelectorSpecSchema } from "./iam-role-selector.ts";
import { celRulesOf } from "./rules.ts";
import { toStructuralSchema } from "./structural.ts";

test("groupVersionKindOf normalises both resourceTypeSelector forms; null = any", () => {
  assert.deepEqual(groupVersionKindOf({ apiVersion: "s3.services.k8s.aws/v1alpha1", kind: "Bucket" }), {
    group: "s3.services.k8s.aws",
    version: "v1alpha1",
    kind: "Bucket",
  });
  assert.deepEqual(groupVersionKindOf({ apiVersion: "sqs.services.k8s.aws/v1alpha1" }), {
    group: "sqs.services.k8s.aws",
    version: "v1alpha1",
    kind: null,
  });
  assert.deepEqual(groupVersionKindOf({ apiVersion: "v1", kind: "" }), {
    group: "",
    version: "v1",
    kind: null,
  });
  assert.deepEqual(groupVersionKindOf({ group: "rds.services.k8s.aws", version: "", kind: "DBInstance" }), {
    group: "rds.services.k8s.aws",
    version: null,
    kind: "DBInstance",
  });
  assert.deepEqual(groupVersionKindOf({ group: "", version: "", kind: "" }), {
    group: null,
    version: null,
    kind: null,
  });
});

test("spec.arn carries the immutability rule; the selector parses to its TypeScript type", () => {
  const arn = toStructuralSchema(iamRoleSelectorSpecSchema).properties?.["arn"];
  assert.ok(
    arn?.["x-kubernetes-validations"]?.some(
      (r) => r.rule === "self == oldSelf" && r.message.startsWith("arn "),
    ),
  );
  const parsed = iamRoleSelectorSchema.parse({
    apiVersion: "services.k8s.aws/v1alpha1",
    kind: "IAMRoleSelector",
    metadata: { name: "s3", resourceVersion: "7", managedFields: [] },
    spec: { arn: "arn:aws:iam::111111111111:role/X", namespaceSelector: { names: ["shop"] } },
  });
  assert.equal(parsed.spec.namespaceSelector?.names?.[0], "shop");
  assert.equal(parsed.metadata.resourceVersion, "7");
  assert.deepEqual(
    (parsed.metadata as Record<string, unknown>)["managedFields"],
    [],
    "metadata passes through",
  );
  assert.equal(celRulesOf(iamRoleSelectorSpecSchema).length, 3, "the three session cross-field rules");
});
