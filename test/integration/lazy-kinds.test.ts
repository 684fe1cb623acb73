// A kind's code loads only when a resource of the kind exists (src/services/catalog.ts): importing
// the controller's composition root and the served-kinds catalog loads no service module, no
// generated schema and no AWS SDK service client; loading one kind's module loads that kind's
// and no other's. Nor does the controller's code load Node's bundled undici (src/runtime/node-http.ts).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { servedServices } from "../../src/services/served.ts";

const root = join(import.meta.dirname, "../..");
const run = promisify(execFile);

/** The module URLs a Node process loads running `code` (relative to the repository root). */
async function loadedBy(code: string): Promise<string[]> {
  const { stderr } = await run(
    process.execPath,
    ["--import", join(root, "test/support/record-imports.mjs"), "--input-type=module", "-e", code],
    { cwd: root, maxBuffer: 64 * 1024 * 1024 },
  );
  return stderr
    .split("\n")
    .filter((l) => l.startsWith("loaded "))
    .map((l) => l.slice("loaded ".length));
}

const kindCode = (urls: readonly string[], service: string): string[] =>
  urls.filter((u) => u.includes(`/src/services/${service}/`) || u.includes(`/@aws-sdk/client-${service}/`));

const services = [...new Set(servedServices)];

test("starting the controller's code loads no kind's module, generated schemas or SDK client", async () => {
  const urls = await loadedBy(
    `await import("./src/controller/start.ts"); await import("./src/services/catalog.ts"); await import("./src/services/served.ts");`,
  );
  assert.ok(
    urls.some((u) => u.endsWith("/src/controller/start.ts")),
    "the hook saw the imports",
  );
  for (const service of services) {
    const loaded = kindCode(urls, service).filter((u) => !u.endsWith("-declaration.ts"));
    assert.deepEqual(loaded, [], `${service}: nothing but its declaration is loaded`);
  }
});

test("a Bucket's module loads S3's code and no other kind's", async () => {
  const urls = await loadedBy(
    `const { servedKindCatalog } = await import("./src/services/catalog.ts"); await servedKindCatalog.Bucket.module();`,
  );
  assert.ok(kindCode(urls, "s3").some((u) => u.endsWith("/src/services/s3/generated/bucket-fields.ts")));
  for (const service of services.filter((s) => s !== "s3")) {
    const loaded = kindCode(urls, service).filter((u) => !u.endsWith("-declaration.ts"));
    assert.deepEqual(loaded, [], `${service}'s code is not loaded for a Bucket`);
  }
  // S3 Control (a directory bucket's tags) loads with the first directory bucket's tags only.
  assert.deepEqual(
    urls.filter((u) => u.includes("/@aws-sdk/client-s3-control/") || u.endsWith("/s3/control-client.ts")),
    [],
    "no S3 Control for a Bucket's module",
  );
});

test("the controller's code, with every kind loaded, leaves Node's bundled undici unloaded", async () => {
  // An ES module import of node:http reads its WebSocket getter and loads undici (~1 MB of heap
  // kept for nothing); the check below sees that, as the fixed-up import of node-http.ts shows.
  const undiciLoaded = async (code: string): Promise<boolean> => {
    const { stdout } = await run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `${code}; console.log(JSON.stringify(process.moduleLoadList.some((m) => m.includes("undici"))));`,
      ],
      { cwd: root },
    );
    return JSON.parse(stdout.trim().split("\n").at(-1) ?? "null") as boolean;
  };
  assert.equal(
    await undiciLoaded(`await import("node:http")`),
    true,
    "the check sees an ESM import of node:http",
  );
  assert.equal(
    await undiciLoaded(
      `await import("./src/cli/main.ts"); const { servedKindCatalog } = await import("./src/services/catalog.ts");` +
        ` for (const k of Object.values(servedKindCatalog)) await k.module();`,
    ),
    false,
  );
});
