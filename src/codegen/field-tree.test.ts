import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AwsModel } from "./aws-model.ts";
import type { KindDeclaration } from "./declaration.ts";
import { emitKind } from "./emit-kind.ts";
import { referenceFieldName, specFields, statusFields } from "./field-tree.ts";

// A small model in botocore's form: a create input with a nested structure, a list, a map, an
// enum, a recursive shape, and an attribute map documented by a list.
const model: AwsModel = {
  service: "demo",
  apiVersion: "2020-01-01",
  operations: {
    CreateThing: { name: "CreateThing", input: { shape: "CreateThingInput" } },
    PutThingPolicy: { name: "PutThingPolicy", input: { shape: "PutThingPolicyInput" } },
  },
  shapes: {
    CreateThingInput: {
      type: "structure",
      required: ["ThingName"],
      members: {
        ThingName: { shape: "Name", documentation: "<p>The thing's name.</p>" },
        KmsKeyId: { shape: "String", documentation: "<p>The key.</p>" },
        SecurityGroupIds: { shape: "IdList" },
        Config: { shape: "Config", documentation: "<p>Its configuration.</p>" },
        Tags: { shape: "TagMap" },
        Attributes: {
          shape: "TagMap",
          documentation: "<ul><li><p><code>DelaySeconds</code> – The delay.</p></li></ul>",
        },
      },
    },
    Thing: {
      type: "structure",
      members: {
        ThingArn: { shape: "String", documentation: "<p>The thing's ARN.</p>" },
        CreatedAt: { shape: "Timestamp" },
        KmsKeyId: { shape: "String" },
        Endpoint: { shape: "Endpoint" },
      },
    },
    Endpoint: {
      type: "structure",
      members: { HostedZoneId: { shape: "String" }, Port: { shape: "Size" } },
    },
    Timestamp: { type: "timestamp" },
    PutThingPolicyInput: {
      type: "structure",
      members: { Policy: { shape: "String", documentation: "<p>A policy.</p>" } },
    },
    Name: { type: "string", min: 1, max: 80 },
    String: { type: "string" },
    Mode: { type: "string", enum: ["fast", "slow"] },
    Size: { type: "integer", min: 1, max: 10 },
    IdList: { type: "list", member: { shape: "String" }, documentation: "<p>IDs.</p>" },
    TagMap: { type: "map", key: { shape: "String" }, value: { shape: "String" } },
    Config: {
      type: "structure",
      members: { Mode: { shape: "Mode" }, Size: { shape: "Size" }, Inner: { shape: "Config" } },
    },
  },
};

describe("specFields", () => {
  const decl: KindDeclaration = {
    service: "demo",
    kind: "Thing",
    spec: [
      { members: "CreateThingInput", ignore: ["Attributes", "Config"] },
      { attributes: "CreateThingInput.Attributes", names: ["DelaySeconds"] },
      { field: "Policy", from: "PutThingPolicy.Policy" },
    ],
    renames: { ThingName: "name" },
    references: [
      { field: "KmsKeyId", service: "kms", kind: "Key" },
      { field: "SecurityGroupIds", service: "ec2", kind: "SecurityGroup" },
    ],
  };

  it("names fields as ACK does, with their documentation, constraints and references", () => {
    const fields = specFields(decl, model);
    assert.deepEqual(
      fields.map((f) => f.name),
      [
        "name",
        "kmsKeyID",
        "kmsKeyRef",
        "securityGroupIDs",
        "securityGroupRefs",
        "tags",
        "delaySeconds",
        "policy",
      ],
    );
    const [name] = fields;
    assert.deepEqual(name, {
      name: "name",
      aws: "ThingName",
      doc: "The thing's name.",
      type: { t: "string", minLength: 1, maxLength: 80 },
      required: true,
    });
    assert.deepEqual(fields.find((f) => f.name === "securityGroupRefs")?.type, {
      t: "reference",
      service: "ec2",
      kind: "SecurityGroup",
      many: true,
    });
    assert.equal(fields.find((f) => f.name === "delaySeconds")?.attribute, true);
    assert.equal(fields.find((f) => f.name === "policy")?.doc, "A policy.");
  });

  it("refuses a recursive structure, naming where it recurs", () => {
    assert.throws(
      () =>
        specFields(
          { service: "demo", kind: "Thing", spec: [{ members: "CreateThingInput", only: ["Config"] }] },
          model,
        ),
      /shape Config contains itself at CreateThingInput\.Config\.Config:\.Inner/,
    );
  });

  it("refuses a declaration naming what the model lacks", () => {
    assert.throws(
      () =>
        specFields(
          { service: "demo", kind: "Thing", spec: [{ members: "CreateThingInput", only: ["Nope"] }] },
          model,
        ),
      /has no member Nope/,
    );
    assert.throws(
      () => specFields({ ...decl, references: [{ field: "Missing", service: "kms", kind: "Key" }] }, model),
      /names Missing, which is no spec field/,
    );
  });
});

describe("statusFields", () => {
  const decl: KindDeclaration = {
    service: "demo",
    kind: "Thing",
    spec: [{ members: "CreateThingInput", only: ["ThingName"] }],
    renames: { ThingName: "name", KmsKeyId: "notForStatus" },
    status: { from: "Thing", only: ["Endpoint", "CreatedAt", "KmsKeyId"] },
  };

  it("takes the named members of the describe structure, in the declared order, named as ACK does, all optional", () => {
    const fields = statusFields(decl, model);
    assert.deepEqual(
      fields.map((f) => [f.name, f.aws, f.type.t, f.required]),
      [
        ["endpoint", "Endpoint", "object", false],
        ["createdAt", "CreatedAt", "string", false],
        ["kmsKeyID", "KmsKeyId", "string", false],
      ],
    );
    const endpoint = fields[0]?.type;
    assert.ok(endpoint?.t === "object");
    assert.deepEqual(
      endpoint.fields.map((f) => f.name),
      ["hostedZoneID", "port"],
    );
  });

  it("is empty without a status declaration, and refuses a member the structure lacks", () => {
    assert.deepEqual(statusFields({ ...decl, status: undefined }, model), []);
    assert.throws(
      () => statusFields({ ...decl, status: { from: "Thing", only: ["Nope"] } }, model),
      /Thing has no member Nope/,
    );
  });

  it("is emitted as <prefix>StatusSchemas and <prefix>StatusCodecs, timestamps marked", () => {
    const source = emitKind(
      specFields(decl, model),
      { prefix: "thing", provenance: "test", apiImport: "../api", servicesImport: ".." },
      statusFields(decl, model),
    );
    assert.match(source, /export const thingStatusSchemas = \{\n {2}endpoint: z\s*\.object\(/);
    assert.match(source, /createdAt: z\.string\(\)\.meta\(\{ format: "date-time" \}\)\.optional\(\),/);
    assert.match(
      source,
      /export const thingStatusCodecs = \{\n {2}endpoint: \["Endpoint", \{ object: \{ hostedZoneID: \["HostedZoneId", \{\}\], port: \["Port", \{\}\] \} \}\],\n {2}createdAt: \["CreatedAt", \{ timestamp: true \}\],/,
    );
    assert.doesNotMatch(
      emitKind(specFields(decl, model), {
        prefix: "thing",
        provenance: "t",
        apiImport: "a",
        servicesImport: "s",
      }),
      /StatusSchemas/,
    );
  });
});

describe("referenceFieldName", () => {
  it("drops the identifier suffix as ACK does", () => {
    assert.equal(referenceFieldName("kmsKeyID", false), "kmsKeyRef");
    assert.equal(referenceFieldName("vpcSecurityGroupIDs", true), "vpcSecurityGroupRefs");
    assert.equal(referenceFieldName("monitoringRoleARN", false), "monitoringRoleRef");
    assert.equal(referenceFieldName("dbSubnetGroupName", false), "dbSubnetGroupRef");
    assert.equal(referenceFieldName("policy", false), "policyRef");
  });
});
