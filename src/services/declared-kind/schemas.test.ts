import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { z } from "zod";
import { descriptionOf } from "../../api/documented.ts";
import { requireKind } from "../../api/resource.ts";
import { celRulesOf } from "../../api/rules.ts";
import { subnetGenerated } from "../ec2/generated/subnet-fields.ts";
import { subnetDeclaration } from "../ec2/subnet-declaration.ts";
import { dbInstanceGenerated } from "../rds/generated/db-instance-fields.ts";
import { dbInstanceSpecSchema } from "../rds/schema.ts";
import { queueGenerated } from "../sqs/generated/queue-fields.ts";
import { queueSpecSchema } from "../sqs/schema.ts";
import { declaredKindSchemas } from "./schemas.ts";

/** The `self == oldSelf` messages a field's schema carries, on it or on the schema it makes optional. */
const changeRules = (schema: z.ZodType): string[] =>
  [
    ...celRulesOf(schema),
    ...(schema instanceof z.ZodOptional ? celRulesOf(schema.unwrap() as z.ZodType) : []),
  ]
    .filter((r) => r.rule === "self == oldSelf")
    .map((r) => r.message);

describe("declaredKindSchemas: the generated field schemas with a kind's value rules", () => {
  test("a field the kind gives its own schema keeps AWS's description and says once, in its words, why it is immutable", () => {
    const own = queueSpecSchema.shape.queueName;
    assert.equal(descriptionOf(own), descriptionOf(queueGenerated.fieldSchemas.queueName));
    assert.deepEqual(changeRules(own), [
      "queueName is immutable: SQS cannot rename a queue; create a new Queue resource instead",
    ]);
    assert.match(
      queueSpecSchema.safeParse({ queueName: "a b" }).error?.message ?? "",
      /SQS queue naming rules/,
    );
  });

  test("a declared immutable field without its own schema refuses a change, naming the service and the kind", () => {
    assert.deepEqual(changeRules(dbInstanceSpecSchema.shape.availabilityZone), [
      "availabilityZone is immutable: RDS sets it at creation and cannot change it; create a new DBInstance resource instead",
    ]);
  });

  test("every other field is the generated schema itself", () => {
    assert.equal(dbInstanceSpecSchema.shape.iops, dbInstanceGenerated.fieldSchemas.iops);
    assert.equal(queueSpecSchema.shape.policyRef, queueGenerated.fieldSchemas.policyRef);
  });

  test("the kind's rules across fields, its refinement and the unserved references all refuse, in zod and CEL", () => {
    const kind = requireKind("ec2.services.k8s.aws/v1alpha1", "Subnet");
    const seen: string[] = [];
    const { spec, crdSource } = declaredKindSchemas(
      { kind, declaration: subnetDeclaration, generated: subnetGenerated },
      {
        rules: [
          {
            cel: "self.cidrBlock != 'forbidden'",
            message: "cidrBlock must not be forbidden",
            fieldPath: ".cidrBlock",
            check: (s) => s.cidrBlock !== "forbidden",
          },
        ],
        refine: (s) => void seen.push(String(s.cidrBlock)),
        status: { extra: z.string().optional() },
      },
    );
    const base = { vpcID: "vpc-1", cidrBlock: "forbidden" };
    const refused = spec.safeParse(base);
    assert.deepEqual(
      refused.error?.issues.map((i) => i.message),
      ["cidrBlock must not be forbidden"],
    );
    assert.deepEqual(seen, ["forbidden"]);
    assert.ok(celRulesOf(spec).some((r) => r.rule === "self.cidrBlock != 'forbidden'"));
    const withRef = spec.safeParse({
      ...base,
      cidrBlock: "10.0.0.0/24",
      routeTableRefs: [{ from: { name: "s" } }],
    });
    assert.match(withRef.error?.message ?? "", /a kind crossrole does not serve/);
    assert.ok(
      JSON.stringify(z.toJSONSchema(crdSource.schema, { unrepresentable: "any" })).includes('"extra"'),
    );
  });
});
