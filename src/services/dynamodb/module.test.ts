// The Table module's view of what DynamoDB answers: busy while the table, an index or a replica
// is CREATING, UPDATING or DELETING; status, tags, ARN, region and the adopted spec.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { TableDescription } from "@aws-sdk/client-dynamodb";
import { fakeSdk } from "../../../test/support/fake-sdk.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import type { DeclaredObserved } from "../declared-kind/source.ts";
import { tableService as service, tableSource } from "./table.ts";

/** What the module observes of table `orders` whose DescribeTable answers `description`. */
async function read(description: TableDescription): Promise<DeclaredObserved> {
  const aws = fakeSdk((call) => {
    switch (call.operation) {
      case "DescribeTable":
        return {
          Table: {
            TableName: "orders",
            TableArn: "arn:aws:dynamodb:eu-west-1:111111111111:table/orders",
            AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
            KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
            BillingModeSummary: { BillingMode: "PAY_PER_REQUEST" },
            ...description,
          },
        };
      case "ListTagsOfResource":
        return {
          Tags: [
            { Key: "team", Value: "shop" },
            { Key: "services.k8s.aws/owner-uid", Value: "u" },
          ],
        };
      default:
        return {};
    }
  });
  const module = declaredKindModule({ ...tableSource, sdk: aws.sdk } as unknown as typeof tableSource);
  const r = await module.read(aws.client, { tableName: "orders" }, {});
  assert.ok(r.found);
  return r.observed;
}
const tableService = {
  ...service,
  busy: (o: DeclaredObserved) => service.busy?.(o),
};

describe("tableService", () => {
  test("busy while the table or an index is CREATING, UPDATING or DELETING", async () => {
    for (const s of ["CREATING", "UPDATING", "DELETING"] as const) {
      assert.deepEqual(tableService.busy?.(await read({ TableStatus: s })), {
        reason: "TableStatus",
        message: `table orders is ${s} in AWS; waiting`,
        requeueAfterMs: 5000,
      });
    }
    assert.equal(tableService.busy?.(await read({ TableStatus: "ACTIVE" })), undefined);
    const gsi = tableService.busy?.(
      await read({
        TableStatus: "ACTIVE",
        GlobalSecondaryIndexes: [{ IndexName: "g", IndexStatus: "CREATING" }],
      }),
    );
    assert.match(gsi?.message ?? "", /CREATING \(index g\)/);
    const replica = tableService.busy?.(
      await read({
        TableStatus: "ACTIVE",
        Replicas: [{ RegionName: "eu-west-1", ReplicaStatus: "CREATING" }],
      }),
    );
    assert.match(replica?.message ?? "", /CREATING \(replica in eu-west-1\)/);
  });
  test("status, tags, arn, region and strict-adoption spec", async () => {
    const o = await read({ TableStatus: "ACTIVE", ItemCount: 0 });
    assert.deepEqual(tableService.statusFrom?.(o), { tableStatus: "ACTIVE", itemCount: 0 });
    assert.deepEqual(tableService.tagsOf(o), { team: "shop", "services.k8s.aws/owner-uid": "u" });
    assert.equal(tableService.observedRegion(o), "eu-west-1");
    const spec = tableService.parseSpec({
      tableName: "orders",
      attributeDefinitions: [{ attributeName: "id", attributeType: "S" }],
      keySchema: [{ attributeName: "id", keyType: "HASH" }],
      billingMode: "PAY_PER_REQUEST",
    });
    assert.ok(spec.ok);
    assert.equal(tableService.arn(spec.value, "eu-west-1", "1"), "arn:aws:dynamodb:eu-west-1:1:table/orders");
    const adopted = tableService.specFromObserved(o, spec.value);
    assert.deepEqual(adopted.tags, [{ key: "team", value: "shop" }]);
    assert.ok(tableService.parseSpec(adopted).ok);
    const bad = tableService.parseSpec({ tableName: "x" });
    assert.ok(!bad.ok && bad.message.includes("spec.tableName"));
  });
});
