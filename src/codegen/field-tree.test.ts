import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AwsModel } from "./aws-model.ts";
import type { KindDeclaration } from "./declaration.ts";
import { declaredFields, referenceFieldName, specFields, statusFields } from "./field-tree.ts";

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
    PutThingPolicyInput: {
      type: "structure",
      members: { Policy: { shape: "String", documentation: "<p>A policy.</p>" } },
    },
    ThingDescription: {
      type: "structure",
      members: {
        ThingStatus: { shape: "Mode", documentation: "<p>Where it is.</p>" },
        CreatedAt: { shape: "When" },
        ThingId: { shape: "Name" },
        Sizes: { shape: "SizeList" },
        Config: { shape: "Config" },
      },
    },
    When: { type: "timestamp" },
    SizeList: { type: "list", member: { shape: "Size" }, min: 1 },
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

/** The smallest declaration: a kind named by ThingName. */
const bare = {
  service: "demo",
  kind: "Thing",
  identifier: "ThingName",
  terminalCodes: [],
  create: "CreateThing",
  groups: [],
} as const;

describe("specFields", () => {
  const decl: KindDeclaration = {
    service: "demo",
    kind: "Thing",
    identifier: "ThingName",
    terminalCodes: ["ValidationError"],
    create: "CreateThing",
    groups: [],
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
      source: "CreateThingInput.ThingName",
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
      () => specFields({ ...bare, spec: [{ members: "CreateThingInput", only: ["Config"] }] }, model),
      /shape Config contains itself at CreateThingInput\.Config\.Config:\.Inner/,
    );
  });

  it("refuses a declaration naming what the model lacks", () => {
    assert.throws(
      () => specFields({ ...bare, spec: [{ members: "CreateThingInput", only: ["Nope"] }] }, model),
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
    identifier: "ThingName",
    terminalCodes: ["ValidationError"],
    create: "CreateThing",
    groups: [],
    spec: [],
    status: {
      from: "ThingDescription",
      only: ["ThingStatus", "CreatedAt", "ThingId", "Sizes"],
      renames: { ThingStatus: "state" },
    },
  };

  it("names the output's members as ACK does, typed as the model says but without its constraints", () => {
    assert.deepEqual(
      statusFields(decl, model).map(({ source: _, ...f }) => f),
      [
        { name: "state", aws: "ThingStatus", doc: "Where it is.", type: { t: "string" }, required: false },
        {
          name: "createdAt",
          aws: "CreatedAt",
          doc: "",
          type: { t: "string", format: "date-time" },
          required: false,
        },
        { name: "thingID", aws: "ThingId", doc: "", type: { t: "string" }, required: false },
        {
          name: "sizes",
          aws: "Sizes",
          doc: "",
          type: { t: "list", item: { t: "integer" } },
          required: false,
        },
      ],
    );
  });

  it("is empty for a kind that declares none, and refuses members the model lacks", () => {
    assert.deepEqual(statusFields({ ...decl, status: undefined }, model), []);
    assert.throws(
      () => statusFields({ ...decl, status: { from: "ThingDescription", only: ["Nope"] } }, model),
      /has no member Nope/,
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

describe("declaredFields", () => {
  it("names the identifier, immutable and late-initialised fields by their spec names", () => {
    const decl: KindDeclaration = {
      ...bare,
      spec: [{ members: "CreateThingInput", ignore: ["Attributes", "Config"] }],
      renames: { ThingName: "name" },
      immutable: ["ThingName", "KmsKeyId"],
      lateInitialized: ["SecurityGroupIds"],
      terminalCodes: ["InvalidParameter"],
    };
    assert.deepEqual(declaredFields(decl, specFields(decl, model)), {
      identifier: "name",
      immutable: ["name", "kmsKeyID"],
      lateInitialized: ["securityGroupIDs"],
      terminalCodes: ["InvalidParameter"],
    });
  });

  it("refuses a list naming what is no spec field", () => {
    const decl: KindDeclaration = {
      ...bare,
      spec: [{ members: "CreateThingInput", only: ["ThingName"] }],
      immutable: ["Tags"],
    };
    assert.throws(
      () => declaredFields(decl, specFields(decl, model)),
      /immutable list names Tags, which is no spec field/,
    );
  });
});
