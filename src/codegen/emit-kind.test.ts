import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { emitKind } from "./emit-kind.ts";
import type { Field } from "./field-tree.ts";

const options = {
  prefix: "thing",
  provenance: "a test",
  apiImport: "../api",
  servicesImport: "..",
  codegenImport: "../codegen",
};
const name: Field = {
  name: "name",
  aws: "ThingName",
  doc: "Its name.",
  type: { t: "string" },
  required: true,
};

describe("emitKind", () => {
  it("writes the status schemas and codecs of a kind's generated status fields", () => {
    const status: Field[] = [
      {
        name: "createdAt",
        aws: "CreatedAt",
        doc: "When.",
        type: { t: "string", format: "date-time" },
        required: false,
      },
      {
        name: "summary",
        aws: "Summary",
        doc: "",
        type: {
          t: "object",
          shape: "Summary",
          fields: [{ name: "backupARN", aws: "BackupArn", doc: "", type: { t: "string" }, required: false }],
        },
        required: false,
      },
    ];
    const source = emitKind([name], options, status);
    assert.match(source, /export const thingStatusSchemas = \{/);
    assert.match(
      source,
      /createdAt: z\.string\(\)\.meta\(\{ format: "date-time" \}\)\.describe\("When\."\)\.optional\(\),/,
    );
    assert.match(source, /createdAt: \["CreatedAt", \{ timestamp: true \}\],/);
    assert.match(source, /summary: \["Summary", \{ object: \{ backupARN: \["BackupArn", \{\}\] \} \}\],/);
  });

  it("writes no status sections for a kind without generated status fields", () => {
    assert.doesNotMatch(emitKind([name], options), /StatusSchemas|StatusCodecs/);
  });

  it("gives a field compared as tags the reserved-key rule every kind's tags use, and AWS's tag limits", () => {
    const tag = (aws: string): Field => ({
      name: aws.toLowerCase(),
      aws,
      doc: `The ${aws}.`,
      type: { t: "string" },
      required: false,
    });
    const tags: Field = {
      name: "tags",
      aws: "Tags",
      doc: "Tags.",
      type: { t: "list", item: { t: "object", shape: "Tag", fields: [tag("Key"), tag("Value")] } },
      required: false,
    };
    const labels: Field = { ...tags, name: "labels", aws: "Labels" };
    const groups = {
      create: "CreateThing",
      createFields: ["name", "tags", "labels"],
      groups: [
        {
          set: "TagThing",
          read: "ListTags",
          remove: "UntagThing",
          fields: [{ field: "tags", absent: "none" as const, form: "tags" as const }],
        },
      ],
      notCompared: { labels: "a test" },
    };
    const source = emitKind([name, tags, labels], options, [], {
      identifier: "name",
      immutable: [],
      lateInitialized: [],
      terminalCodes: [],
      fieldGroups: groups,
      reservedTagPrefixes: { "thing:": "Thing" },
    });
    assert.match(
      source,
      /import \{ serviceTagPrefixes, userTagKey \} from "\.\.\/api\/reserved-tag-keys\.ts";/,
    );
    assert.match(source, /import \{ maxUserTags \} from "\.\.\/tag-list\.ts";/);
    assert.match(
      source,
      /key: userTagKey\(z\.string\(\)\.min\(1\)\.max\(128\)\.describe\("The Key\."\), "tags\[\]\.key", serviceTagPrefixes\(\{ "thing:": "Thing" \}\)\),/,
    );
    assert.match(source, /value: z\.string\(\)\.max\(256\)\.describe\("The Value\."\)\.optional\(\),/);
    assert.match(source, /\.max\(maxUserTags\)/);
    // A list of the same shape not compared as tags is left as the model has it.
    assert.equal(source.match(/userTagKey\(/g)?.length, 1);
  });

  it('a JSON document compared as one takes "" for none: AWS\'s minimum length is left out, its maximum kept', () => {
    const doc = (n: string, aws: string): Field => ({
      name: n,
      aws,
      doc: "",
      type: { t: "string", minLength: 100, maxLength: 30720 },
      required: false,
    });
    const source = emitKind([name, doc("policy", "Policy"), doc("other", "Other")], options, [], {
      identifier: "name",
      immutable: [],
      lateInitialized: [],
      terminalCodes: [],
      fieldGroups: {
        create: "CreateThing",
        createFields: ["name", "policy", "other"],
        groups: [
          {
            set: "PutPolicy",
            read: "GetPolicy",
            remove: "DeletePolicy",
            fields: [
              { field: "policy", absent: "none" as const, form: "document" as const },
              { field: "other", absent: "none" as const, form: "value" as const },
            ],
          },
        ],
        notCompared: {},
      },
    });
    assert.match(source, /policy: z\.string\(\)\.max\(30720\)\.optional\(\),/);
    assert.match(source, /other: z\.string\(\)\.min\(100\)\.max\(30720\)\.optional\(\),/);
  });
});
