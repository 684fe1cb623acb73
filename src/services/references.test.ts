import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { ackReference, ackReferences } from "../api/ack-reference.ts";
import { describeIssues } from "../api/rules.ts";
import type { KindDeclaration, RuntimeDeclaration } from "../codegen/declaration.ts";
import { servedKindCatalog } from "./catalog.ts";
import { refusingUnservedReferences } from "./references.ts";
import { queueSpecSchema } from "./sqs/schema.ts";

const schema = refusingUnservedReferences(
  z.object({
    cacheID: z.string().optional(),
    cacheRef: ackReference().optional(),
    groupIDs: z.array(z.string()).optional(),
    groupRefs: ackReferences().optional(),
    rules: z.array(z.object({ role: z.string().optional(), roleRef: ackReference().optional() })).optional(),
  }),
  [
    { path: ["cacheRef"], plain: "cacheID", service: "elasticache", kind: "ReplicationGroup" },
    { path: ["groupRefs"], plain: "groupIDs", service: "ec2", kind: "RouteTable" },
    { path: ["rules", "[]", "roleRef"], plain: "role", service: "lambda", kind: "Alias" },
  ],
);

const messages = (spec: unknown): string[] => {
  const r = schema.safeParse(spec);
  return r.success ? [] : describeIssues(r.error, ["spec"]);
};

describe("references to kinds crossrole does not serve", () => {
  it("accepts a spec without references", () => {
    assert.deepEqual(messages({ cacheID: "k", rules: [{ role: "arn" }] }), []);
  });

  it("refuses each one set, naming the plain field to set instead, inside lists too", () => {
    assert.deepEqual(
      messages({ cacheRef: { from: { name: "c" } }, rules: [{}, { roleRef: { from: { name: "r" } } }] }),
      [
        "spec.cacheRef: refers to an elasticache.services.k8s.aws ReplicationGroup, a kind crossrole does not serve, so it cannot be resolved: set spec.cacheID to the ReplicationGroup's identifier instead, and remove the reference",
        "spec.rules[1].roleRef: refers to a lambda.services.k8s.aws Alias, a kind crossrole does not serve, so it cannot be resolved: set spec.rules[1].role to the Alias's identifier instead, and remove the reference",
      ],
    );
    assert.match(messages({ groupRefs: [] })[0] ?? "", /^spec\.groupRefs: .*set spec\.groupIDs/);
  });

  it("is the Queue's rule: kmsMasterKeyRef (a KMS Key, served) and policyRef (an IAM Policy, served) one of two each", () => {
    const key = { from: { name: "k", namespace: "x" } };
    assert.equal(queueSpecSchema.safeParse({ queueName: "q", kmsMasterKeyRef: key }).success, true);
    const keyAndID = queueSpecSchema.safeParse({ queueName: "q", kmsMasterKeyID: "k", kmsMasterKeyRef: key });
    assert.equal(keyAndID.success, false);
    const ref = { from: { name: "p" } };
    assert.equal(queueSpecSchema.safeParse({ queueName: "q", policyRef: ref }).success, true);
    const both = queueSpecSchema.safeParse({ queueName: "q", policy: "{}", policyRef: ref });
    assert.equal(both.success, false);
    assert.match(
      describeIssues(both.error!, ["spec"]).join(),
      /spec\.policyRef: and spec\.policy are both set/,
    );
  });
});

describe("references to served kinds", () => {
  it("none names a kind AWS cannot tag (its owner is in the controller's records, which the reference check does not read)", () => {
    const untaggable = new Set(
      Object.entries(servedKindCatalog)
        .filter(([, k]) => {
          const runtime: RuntimeDeclaration | undefined = k.declaration.runtime;
          return runtime !== undefined && runtime.tags === undefined;
        })
        .map(
          ([name]) =>
            `${servedKindCatalog[name as keyof typeof servedKindCatalog].declaration.service}/${name}`,
        ),
    );
    assert.ok(untaggable.has("kms/Alias"), "the Alias is one");
    const declarations: readonly KindDeclaration[] = Object.values(servedKindCatalog).map(
      (k) => k.declaration,
    );
    const naming = declarations.flatMap((d) =>
      (d.references ?? [])
        .filter((r) => untaggable.has(`${r.service}/${r.kind}`))
        .map((r) => `${d.kind}.${r.field} → ${r.kind}`),
    );
    assert.deepEqual(naming, []);
  });
});
