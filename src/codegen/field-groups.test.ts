import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AwsModel } from "./aws-model.ts";
import type { KindDeclaration } from "./declaration.ts";
import { resolveGroups } from "./field-groups.ts";
import { specFields } from "./field-tree.ts";

const model: AwsModel = {
  service: "demo",
  apiVersion: "2020-01-01",
  operations: {
    CreateThing: { name: "CreateThing", input: { shape: "CreateThingInput" } },
    UpdateThing: { name: "UpdateThing" },
    DescribeThing: { name: "DescribeThing" },
    TagThing: { name: "TagThing" },
    UntagThing: { name: "UntagThing" },
  },
  shapes: {
    CreateThingInput: {
      type: "structure",
      members: {
        ThingName: { shape: "String" },
        Size: { shape: "Size" },
        Mode: { shape: "String" },
        Password: { shape: "String" },
        Tags: { shape: "TagMap" },
      },
    },
    String: { type: "string" },
    Size: { type: "integer" },
    TagMap: { type: "map", key: { shape: "String" }, value: { shape: "String" } },
  },
};

const base = {
  service: "demo",
  kind: "Thing",
  identifier: "ThingName",
  terminalCodes: [],
  spec: [{ members: "CreateThingInput" }],
  immutable: ["ThingName"],
  lateInitialized: ["Mode"],
  create: "CreateThing",
  groups: [
    { set: "UpdateThing", read: "DescribeThing", fields: { Size: { form: "number" }, Mode: {} } },
    { set: "TagThing", remove: "UntagThing", read: "DescribeThing", fields: { Tags: { form: "tags" } } },
  ],
  notCompared: { Password: "a Secret" },
} as const satisfies KindDeclaration;

const resolve = (decl: KindDeclaration) => resolveGroups(decl, specFields(decl, model), model);

describe("resolveGroups", () => {
  it("names every field by its spec name, with late-initialised fields kept and the rest none", () => {
    assert.deepEqual(resolve(base), {
      create: "CreateThing",
      createFields: ["thingName", "size", "mode", "password", "tags"],
      groups: [
        {
          set: "UpdateThing",
          read: "DescribeThing",
          fields: [
            { field: "size", absent: "none", form: "number" },
            { field: "mode", absent: "kept", form: "value" },
          ],
        },
        {
          set: "TagThing",
          read: "DescribeThing",
          remove: "UntagThing",
          fields: [{ field: "tags", absent: "none", form: "tags" }],
        },
      ],
      notCompared: { password: "a Secret" },
    });
  });

  it("refuses a call the model does not have", () => {
    assert.throws(
      () => resolve({ ...base, groups: [{ ...base.groups[0], set: "ModifyThing" }, base.groups[1]] }),
      /set call ModifyThing is no operation of demo 2020-01-01/,
    );
  });

  it("refuses a spec field no group, immutable list or notCompared accounts for", () => {
    assert.throws(
      () => resolve({ ...base, notCompared: {} }),
      /Password is in no group, not immutable and not in notCompared: say which call changes it/,
    );
  });

  it("refuses a field accounted for twice", () => {
    assert.throws(
      () => resolve({ ...base, notCompared: { Password: "a Secret", Size: "twice" } }),
      /spec.size is both in group UpdateThing and not compared/,
    );
  });

  it("refuses a field that is no spec field, and a hook beside a form", () => {
    assert.throws(
      () =>
        resolve({ ...base, groups: [{ set: "UpdateThing", read: "DescribeThing", fields: { Colour: {} } }] }),
      /group UpdateThing names Colour, which is no top-level spec field/,
    );
    assert.throws(
      () =>
        resolve({
          ...base,
          groups: [
            {
              set: "UpdateThing",
              read: "DescribeThing",
              fields: { Size: { form: "number", custom: "why" }, Mode: {} },
            },
            base.groups[1],
          ],
        }),
      /Size is compared by a hook \(custom\) and by form number: say one/,
    );
  });
});
