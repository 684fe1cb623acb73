// `kubectl explain` has something to say for every field: each property of every generated CRD
// (config/crd/) carries a description, the roots `spec` and `status` included. List and map
// items are described by their list or map; `metadata` is Kubernetes' own.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parse } from "yaml";

const dir = join(import.meta.dirname, "../../config/crd");

interface Node {
  readonly description?: string;
  readonly properties?: Readonly<Record<string, Node>>;
  readonly items?: Node;
  readonly additionalProperties?: Node | boolean;
}

function undescribed(node: Node, path: string, out: string[]): void {
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const at = `${path}.${name}`;
    if (at === ".metadata") continue;
    if (!child.description) out.push(at);
    undescribed(child, at, out);
  }
  if (node.items) undescribed(node.items, `${path}[]`, out);
  if (typeof node.additionalProperties === "object") undescribed(node.additionalProperties, `${path}{}`, out);
}

test("every field of every CRD has a description for kubectl explain", () => {
  const missing: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".yaml"))) {
    const crd = parse(readFileSync(join(dir, file), "utf8")) as {
      spec: { versions: { schema: { openAPIV3Schema: Node } }[] };
    };
    for (const v of crd.spec.versions) {
      const found: string[] = [];
      undescribed(v.schema.openAPIV3Schema, "", found);
      missing.push(...found.map((p) => `${file}: ${p}`));
    }
  }
  assert.deepEqual(missing, []);
});
