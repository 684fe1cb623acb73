import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { awsMembers, type Codec, type FieldCodecs, fromAws, specMembers, toAws } from "./shape-codec.ts";

const rule: Codec = {
  object: {
    id: ["ID", {}],
    expiration: ["Expiration", { object: { date: ["Date", { timestamp: true }], days: ["Days", {}] } }],
    tags: ["Tags", { list: { object: { key: ["Key", {}], value: ["Value", {}] } } }],
    body: ["Body", { blob: true }],
    labels: ["Labels", { map: {} }],
  },
};

describe("shape codec", () => {
  it("renames members at every depth, through lists and maps, and converts timestamps and blobs", () => {
    const spec = {
      id: "r1",
      expiration: { date: "2030-01-01T00:00:00Z" },
      tags: [{ key: "a", value: "1" }],
      body: Buffer.from("hi").toString("base64"),
      labels: { x: "y" },
    };
    const aws = toAws(rule, spec) as Record<string, unknown>;
    assert.deepEqual(aws, {
      ID: "r1",
      Expiration: { Date: new Date("2030-01-01T00:00:00Z") },
      Tags: [{ Key: "a", Value: "1" }],
      Body: Buffer.from("hi"),
      Labels: { x: "y" },
    });
    assert.deepEqual(fromAws(rule, aws), spec);
  });

  it("drops what the model does not know and what is absent", () => {
    assert.deepEqual(
      fromAws(rule, { ID: "r", NewMember: 1, Expiration: { Days: 3, Unknown: true }, Tags: null }),
      {
        id: "r",
        expiration: { days: 3 },
      },
    );
    assert.equal(toAws(rule, undefined), undefined);
  });

  it("maps a kind's top-level fields by name, and refuses a field without a codec", () => {
    const codecs: FieldCodecs = { tableName: ["TableName", {}], billingMode: ["BillingMode", {}] };
    assert.deepEqual(
      awsMembers(codecs, { tableName: "t", billingMode: undefined }, ["tableName", "billingMode"]),
      {
        TableName: "t",
      },
    );
    assert.deepEqual(specMembers(codecs, { TableName: "t", BillingMode: "PROVISIONED" }, ["billingMode"]), {
      billingMode: "PROVISIONED",
    });
    assert.throws(() => awsMembers(codecs, {}, ["nope"]), /no codec for spec field nope/);
  });
});
