// Writes test/fixtures/ack-crd-paths/<crd>.json: every field path of ACK's CRDs at the releases
// crossrole is compatible with (DESIGN §2.1), with its JSON type, read from the
// aws-controllers-k8s repositories (a local clone of each, e.g. under /work/.mirror). The
// fixtures are facts about ACK's public API — names and types, no code — that
// src/services/ack-parity.test.ts compares crossrole's CRDs with, path by path. Run by hand
// when the reference releases change:
//   node scripts/ack-crd-paths.ts <dir holding aws-controllers-k8s+<service>-controller/repo>
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { type CrdPath, crdPaths } from "../src/api/crd-paths.ts";
import { resourceKinds } from "../src/api/kinds.ts";
import { servedKindCatalog, servedKinds } from "../src/services/catalog.ts";

/** Each served kind's ACK CRD at the release its catalog entry names (src/services/catalog.ts). */
const ackReleases = servedKinds.map((kind) => {
  const k = resourceKinds.find((r) => r.kind === kind);
  if (k === undefined) throw new Error(`${kind} is not in src/api/kinds.ts`);
  // The ACK controller is named as the kind's API group (`cloudwatchlogs`, whose model is `logs`).
  return {
    service: k.service,
    release: servedKindCatalog[kind].ack.release,
    crd: `${k.group}_${k.plural}.yaml`,
  };
});

const mirror = process.argv[2];
if (mirror === undefined) {
  console.error(
    "usage: node scripts/ack-crd-paths.ts <dir with aws-controllers-k8s+<service>-controller/repo>",
  );
  process.exit(2);
}
const root = join(import.meta.dirname, "..");
for (const { service, release, crd } of ackReleases) {
  const repo = join(mirror, `aws-controllers-k8s+${service}-controller`, "repo");
  const yaml = execFileSync("git", ["-C", repo, "show", `${release}:config/crd/bases/${crd}`], {
    encoding: "utf8",
  });
  const paths: CrdPath[] = crdPaths(parse(yaml));
  const out = {
    source: `aws-controllers-k8s/${service}-controller ${release} config/crd/bases/${crd}`,
    paths: Object.fromEntries(paths.map((p) => [p.path, p.type])),
  };
  writeFileSync(
    join(root, "test/fixtures/ack-crd-paths", crd.replace(/\.yaml$/, ".json")),
    `${JSON.stringify(out, null, 1)}\n`,
  );
  console.log(`${crd}: ${paths.length} paths`);
}
