import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { ackReference, ackReferences } from "../api/ack-reference.ts";
import { describeIssues } from "../api/rules.ts";
import { refusingUnservedReferences } from "./references.ts";
import { queueSpecSchema } from "./sqs/schema.ts";

const schema = refusingUnservedReferences(
  z.object({
    kmsKeyID: z.string().optional(),
    kmsKeyRef: ackReference().optional(),
    groupIDs: z.array(z.string()).optional(),
    groupRefs: ackReferences().optional(),
    rules: z.array(z.object({ role: z.string().optional(), roleRef: ackReference().optional() })).optional(),
  }),
  [
    { path: ["kmsKeyRef"], plain: "kmsKeyID", service: "kms", kind: "Key" },
    { path: ["groupRefs"], plain: "groupIDs", service: "ec2", kind: "SecurityGroup" },
    { path: ["rules", "[]", "roleRef"], plain: "role", service: "lambda", kind: "Function" },
  ],
);

const messages = (spec: unknown): string[] => {
  const r = schema.safeParse(spec);
  return r.success ? [] : describeIssues(r.error, ["spec"]);
};

describe("references to kinds crossrole does not serve", () => {
  it("accepts a spec without references", () => {
    assert.deepEqual(messages({ kmsKeyID: "k", rules: [{ role: "arn" }] }), []);
  });

  it("refuses each one set, naming the plain field to set instead, inside lists too", () => {
    assert.deepEqual(
      messages({ kmsKeyRef: { from: { name: "key" } }, rules: [{}, { roleRef: { from: { name: "r" } } }] }),
      [
        "spec.kmsKeyRef: refers to a kms.services.k8s.aws Key, a kind crossrole does not serve, so it cannot be resolved: set spec.kmsKeyID to the Key's identifier instead, and remove the reference",
        "spec.rules[1].roleRef: refers to a lambda.services.k8s.aws Function, a kind crossrole does not serve, so it cannot be resolved: set spec.rules[1].role to the Function's identifier instead, and remove the reference",
      ],
    );
    assert.match(messages({ groupRefs: [] })[0] ?? "", /^spec\.groupRefs: .*set spec\.groupIDs/);
  });

  it("is the Queue's rule: kmsMasterKeyRef refused, policyRef (an IAM Policy, served) one of two", () => {
    const refused = queueSpecSchema.safeParse({
      queueName: "q",
      kmsMasterKeyRef: { from: { name: "k", namespace: "x" } },
    });
    assert.equal(refused.success, false);
    assert.match(
      describeIssues(refused.error!, ["spec"]).join(),
      /spec\.kmsMasterKeyRef: .*set spec\.kmsMasterKeyID to/,
    );
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
