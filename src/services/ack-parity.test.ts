// crossrole's resource CRDs against ACK's, path by path (DESIGN §2.1): every field path of ACK's
// CRD for each served kind, at the release its catalog entry names (test/fixtures/ack-crd-paths,
// written by scripts/ack-crd-paths.ts), exists in config/crd/ with the same JSON type. A new kind
// is checked as soon as it is in the catalog: its fixture must be there.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { parse } from "yaml";
import { crdPaths } from "../api/crd-paths.ts";
import { resourceKinds } from "../api/kinds.ts";
import { servedKindCatalog, servedKinds } from "./catalog.ts";

const root = join(import.meta.dirname, "../..");

describe("ACK CRD parity", () => {
  for (const kind of servedKinds) {
    const k = resourceKinds.find((r) => r.kind === kind);
    assert.ok(k, `${kind} is in src/api/kinds.ts`);
    // The file name ACK gives the CRD (`s3.services.k8s.aws_buckets`).
    const crd = `${k.group}_${k.plural}`;
    const fixture: { source: string; paths: Record<string, string> } = JSON.parse(
      readFileSync(join(root, "test/fixtures/ack-crd-paths", `${crd}.json`), "utf8"),
    );
    const ack = fixture.paths;
    const ours = new Map(
      crdPaths(parse(readFileSync(join(root, "config/crd", `${crd}.yaml`), "utf8"))).map((p) => [
        p.path,
        p.type,
      ]),
    );

    it(`${kind}: the fixture is ACK's CRD at the catalog's release`, () => {
      const { release } = servedKindCatalog[kind].ack;
      assert.ok(fixture.source.includes(` ${release} config/crd/bases/${crd}.yaml`), fixture.source);
    });

    it(`${kind}: every field path of ACK's ${crd} is served with ACK's type`, () => {
      const differ = Object.keys(ack).filter((p) => ours.get(p) !== ack[p]);
      assert.deepEqual(
        differ.map((p) => `${p} (ACK: ${ack[p]}, crossrole: ${ours.get(p) ?? "absent"})`),
        [],
      );
      assert.ok(Object.keys(ack).length > 0, "the fixture has paths");
    });
  }
});
