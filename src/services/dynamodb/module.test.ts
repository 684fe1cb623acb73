import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { tableService } from "./module.ts";
import type { ObservedTable } from "./table.ts";

function observed(description: ObservedTable["description"]): ObservedTable {
  return {
    tableName: "orders",
    attributeDefinitions: [{ attributeName: "id", attributeType: "S" }],
    keySchema: [{ attributeName: "id", keyType: "HASH" }],
    billingMode: "PAY_PER_REQUEST",
    deletionProtectionEnabled: false,
    tags: [
      { key: "team", value: "shop" },
      { key: "services.k8s.aws/owner-uid", value: "u" },
    ],
    tableARN: "arn:aws:dynamodb:eu-west-1:111111111111:table/orders",
    description,
    region: "eu-west-1",
  };
}

describe("tableService", () => {
  test("busy while the table or an index is CREATING, UPDATING or DELETING", () => {
    for (const s of ["CREATING", "UPDATING", "DELETING"] as const) {
      assert.deepEqual(tableService.busy?.(observed({ TableStatus: s })), {
        reason: "TableStatus",
        message: `table orders is ${s} in AWS; waiting`,
        requeueAfterMs: 5000,
      });
    }
    assert.equal(tableService.busy?.(observed({ TableStatus: "ACTIVE" })), undefined);
    const gsi = tableService.busy?.(
      observed({
        TableStatus: "ACTIVE",
        GlobalSecondaryIndexes: [{ IndexName: "g", IndexStatus: "CREATING" }],
      }),
    );
    assert.match(gsi?.message ?? "", /CREATING \(index g\)/);
    const replica = tableService.busy?.(
      observed({ TableStatus: "ACTIVE", Replicas: [{ RegionName: "eu-west-1", ReplicaStatus: "CREATING" }] }),
    );
    assert.match(replica?.message ?? "", /CREATING \(replica in eu-west-1\)/);
  });
  test("status, tags, arn, region and strict-adoption spec", () => {
    const o = observed({ TableStatus: "ACTIVE", ItemCount: 0 });
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
