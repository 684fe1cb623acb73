// Helper for harness.test.ts: run with CROSSROLE_CACHE pointing at an empty dir; prints the
// harness error message so the test can check it names the step and the fix.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startControlPlane } from "../../../src/local-stack/stack.ts";

const dir = await mkdtemp(join(tmpdir(), "crossrole-nobin-"));
try {
  await startControlPlane({ dir });
  process.stdout.write("started\n");
} catch (err) {
  process.stdout.write(err instanceof Error ? err.message : String(err));
}
