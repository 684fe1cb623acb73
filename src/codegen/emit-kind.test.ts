import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { emitKind } from "./emit-kind.ts";
import type { Field } from "./field-tree.ts";

const options = { prefix: "thing", provenance: "a test", apiImport: "../api", servicesImport: ".." };
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
});
