// `-o json` in chunks: concatenated, exactly JSON.stringify(report), however many chunks.
import assert from "node:assert/strict";
import { test } from "node:test";
import { namespace, settingsWith } from "../../test/support/resolver-fixtures.ts";
import { resourceKinds } from "../api/kinds.ts";
import { buildSnapshot } from "../resolver/snapshot.ts";
import { computeAudit } from "./compute.ts";
import { reportJsonChunks } from "./json.ts";
import { renderText } from "./render-text.ts";

test("the chunks of a large report join to JSON.stringify(report)", () => {
  const settings = settingsWith({ controllerAccount: null });
  const namespaces = Array.from({ length: 600 }, (_, i) => namespace(`ns-${i}`));
  const report = computeAudit({
    snapshot: buildSnapshot({ namespaces }, settings),
    settings,
    kinds: resourceKinds,
    source: { from: "files", detail: "test" },
    notes: ["a note"],
  });
  const chunks = [...reportJsonChunks(report)];
  assert.ok(chunks.length > 3, `only ${chunks.length} chunks`);
  assert.equal(chunks.join(""), `${JSON.stringify(report)}\n`);

  // The text report lists at most 50 namespaces per grant and says how many more there are.
  const text = renderText(report);
  assert.match(text, /\n {6}\.\.\. and 550 more \(see -o json, or narrow with --namespace\)\n/);
  assert.match(text, /\nNotes:\n {2}- a note\n/);
});
