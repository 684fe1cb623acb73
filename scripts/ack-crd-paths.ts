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

export const ackReleases = [
  { service: "s3", release: "v1.10.0", crd: "s3.services.k8s.aws_buckets.yaml" },
  { service: "sqs", release: "v1.6.1", crd: "sqs.services.k8s.aws_queues.yaml" },
  { service: "sns", release: "v1.6.0", crd: "sns.services.k8s.aws_topics.yaml" },
  { service: "dynamodb", release: "v1.9.2", crd: "dynamodb.services.k8s.aws_tables.yaml" },
  { service: "rds", release: "v1.11.1", crd: "rds.services.k8s.aws_dbinstances.yaml" },
  { service: "rds", release: "v1.11.1", crd: "rds.services.k8s.aws_dbsubnetgroups.yaml" },
] as const;

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
