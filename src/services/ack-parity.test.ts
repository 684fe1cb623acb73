// crossrole's resource CRDs against ACK's, path by path (DESIGN §2.1): every field path of ACK's
// CRDs at the reference releases (test/fixtures/ack-crd-paths, written by
// scripts/ack-crd-paths.ts) exists in config/crd/ with the same JSON type, except the paths
// ack-parity-gaps.ts still lists — and each listed path is really missing, so the list cannot
// hide a field that has arrived.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { parse } from "yaml";
import { crdPaths } from "../api/crd-paths.ts";
import { ackParityGaps } from "./ack-parity-gaps.ts";

const root = join(import.meta.dirname, "../..");
const under = (path: string, gap: string): boolean =>
  path === gap || path.startsWith(`${gap}.`) || path.startsWith(`${gap}[`) || path.startsWith(`${gap}{`);

describe("ACK CRD parity", () => {
  for (const [crd, gaps] of Object.entries(ackParityGaps)) {
    const ack: Record<string, string> = JSON.parse(
      readFileSync(join(root, "test/fixtures/ack-crd-paths", `${crd}.json`), "utf8"),
    ).paths;
    const ours = new Map(
      crdPaths(parse(readFileSync(join(root, "config/crd", `${crd}.yaml`), "utf8"))).map((p) => [
        p.path,
        p.type,
      ]),
    );
    const same = (path: string): boolean => ours.get(path) === ack[path];

    it(`${crd}: every ACK field path is served with ACK's type, or listed as a gap`, () => {
      const unlisted = Object.keys(ack).filter((p) => !same(p) && !gaps.some((g) => under(p, g)));
      assert.deepEqual(
        unlisted.map((p) => `${p} (ACK: ${ack[p]}, crossrole: ${ours.get(p) ?? "absent"})`),
        [],
      );
    });

    it(`${crd}: each listed gap is still missing (remove the ones that arrived)`, () => {
      const arrived = gaps.filter((g) =>
        Object.keys(ack)
          .filter((p) => under(p, g))
          .every(same),
      );
      assert.deepEqual(arrived, []);
    });
  }
});
