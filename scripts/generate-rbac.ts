// Writes config/rbac/cluster.yaml, the controller's cluster-wide RBAC (`crossrole rbac` with no
// --watch-namespace), from src/deploy/rbac.ts (`npm run generate:rbac`). With --check it writes
// nothing and exits 1 if the file is stale or missing (`npm run generate:check`, run in CI).
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { clusterRbacFile } from "../src/deploy/rbac.ts";

const outDir = join(import.meta.dirname, "..", "config", "rbac");
const file = join(outDir, "cluster.yaml");
const wanted = clusterRbacFile();

const current = await readFile(file, "utf8").catch((err: NodeJS.ErrnoException) => {
  if (err.code === "ENOENT") return null;
  throw err;
});
if (process.argv.includes("--check")) {
  if (current !== wanted) {
    console.error(
      `RBAC is out of date; run npm run generate:rbac and commit config/rbac/:\n  ${current === null ? "missing" : "stale"}: config/rbac/cluster.yaml`,
    );
    process.exit(1);
  }
  console.log("config/rbac/ is up to date");
} else {
  await mkdir(outDir, { recursive: true });
  if (current !== wanted) await writeFile(file, wanted);
  console.log("wrote config/rbac/cluster.yaml");
}
