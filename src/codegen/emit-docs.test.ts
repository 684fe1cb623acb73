// The generated docs/fields/ pages render as tables: every row has its table's columns (a bare
// or doubly escaped pipe in a cell splits it, as enum lists once did).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

const dir = join(import.meta.dirname, "../../docs/fields");

/** A row's cells: split at pipes not escaped by a backslash (a `\\|` is an escaped backslash, then a pipe). */
const cells = (row: string): number => row.split(/(?<!(?:^|[^\\])\\(?:\\\\)*)\|/).length - 2;

test("every docs/fields/ table row has its header's columns", () => {
  const broken: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".md"))) {
    let columns: number | undefined;
    for (const [i, line] of readFileSync(join(dir, file), "utf8").split("\n").entries()) {
      if (!line.startsWith("|")) {
        columns = undefined;
        continue;
      }
      const n = cells(line);
      if (columns === undefined) columns = n;
      else if (n !== columns) broken.push(`${file}:${i + 1}: ${n} cells, the header has ${columns}`);
    }
  }
  assert.deepEqual(broken, []);
});
