// Every example in test/support/examples/identities.ts through zod: the valid ones parse, each invalid one fails at
// its field with a message naming it. (The admission test runs the same table through a
// real kube-apiserver.)
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { invalidExamples, validExamples } from "../../test/support/examples/identities.ts";
import { crdSourceFor, loadCrdSources } from "../crd-sources.ts";
import { describeIssues } from "./rules.ts";

const crdSources = await loadCrdSources();

function schemaOf(object: Record<string, unknown>) {
  const source = crdSourceFor(crdSources, String(object["apiVersion"]), String(object["kind"]));
  assert.ok(source, `no CRD source for ${String(object["apiVersion"])} ${String(object["kind"])}`);
  return source.schema;
}

describe("valid examples parse", () => {
  for (const example of validExamples) {
    test(example.title, () => {
      const result = schemaOf(example.object).safeParse(example.object);
      assert.ok(result.success, result.success ? "" : describeIssues(result.error).join("\n"));
    });
  }
});

describe("invalid examples are rejected at their field, with a message naming it", () => {
  for (const example of invalidExamples) {
    test(example.title, () => {
      const result = schemaOf(example.object).safeParse(example.object);
      assert.equal(result.success, false, "parsed, but should have been rejected");
      const lines = result.success ? [] : describeIssues(result.error);
      assert.ok(
        lines.some((line) => line.startsWith(`${example.field}: `) && line.includes(example.message)),
        `expected "${example.field}: …${example.message}…" among:\n${lines.join("\n")}`,
      );
    });
  }
});
