import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { itemsForm, itemWrites, listedValue } from "./items.ts";

describe("items one per ID, in the spec's three forms", () => {
  test("the form follows the field's codec: a map, a list of IDs, a list of objects", () => {
    assert.equal(itemsForm({ map: {} }), "map");
    assert.equal(itemsForm({ list: {} }), "ids");
    assert.equal(itemsForm({ list: { object: { id: ["Id", {}] } } }), "objects");
  });

  test("a list of IDs (IAM's attached policies): read from the listed items' ID member; each new one set, each gone one removed", () => {
    const items = { id: "PolicyArn", list: "AttachedPolicies" };
    assert.deepEqual(
      listedValue("ids", items, [
        { PolicyName: "a", PolicyArn: "arn:a" },
        { PolicyName: "b", PolicyArn: "arn:b" },
      ]),
      ["arn:a", "arn:b"],
    );
    assert.deepEqual(itemWrites("ids", items, { list: {} }, ["arn:b", "arn:c"], ["arn:a", "arn:b"]), {
      put: [{ PolicyArn: "arn:c" }],
      remove: ["arn:a"],
    });
  });

  test("a map of documents (IAM's inline policies): one changed in meaning is put, one only reformatted is not, one gone is removed", () => {
    const items = { id: "PolicyName", value: "PolicyDocument", list: "PolicyNames" };
    const doc = (action: string) =>
      JSON.stringify({ Version: "2012-10-17", Statement: [{ Action: action }] });
    const writes = itemWrites(
      "map",
      items,
      { map: {} },
      { s3: doc("s3:GetObject"), sqs: doc("sqs:SendMessage"), same: `  ${doc("x:Y")}\n` },
      { s3: doc("s3:PutObject"), gone: doc("a:B"), same: doc("x:Y") },
      "document",
    );
    assert.deepEqual(writes, {
      put: [
        { PolicyName: "s3", PolicyDocument: doc("s3:GetObject") },
        { PolicyName: "sqs", PolicyDocument: doc("sqs:SendMessage") },
      ],
      remove: ["gone"],
    });
  });

  test("objects keyed by an ID member: under the set call's member, or as its own members when it has none", () => {
    const codec = {
      list: { object: { filterName: ["filterName", {}], pattern: ["filterPattern", {}] } },
    } as const;
    const desired = [{ filterName: "a", pattern: "ERROR" }];
    assert.deepEqual(itemWrites("objects", { id: "filterName", list: "l" }, codec, desired, []).put, [
      { filterName: "a", filterPattern: "ERROR" },
    ]);
    assert.deepEqual(
      itemWrites("objects", { id: "filterName", member: "Filter", list: "l" }, codec, desired, []).put,
      [{ filterName: "a", Filter: { filterName: "a", filterPattern: "ERROR" } }],
    );
    // The same item in AWS: nothing to write.
    assert.deepEqual(itemWrites("objects", { id: "filterName", list: "l" }, codec, desired, desired), {
      put: [],
      remove: [],
    });
  });
});
