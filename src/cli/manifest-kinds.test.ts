// A `--from` manifest of a kind crossrole neither serves nor reads is reported, never silently
// skipped: a misspelt kind (`Buckets`) or an ACK kind crossrole does not serve (ec2 RouteTable)
// would otherwise vanish from the audit, the explanation and the migration's proof.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import {
  aliceExample,
  manifestDir,
  parseJson,
  removeManifestDirs,
  runCrossrole,
} from "../../test/support/run-crossrole.ts";

after(removeManifestDirs);

const strays = `apiVersion: s3.services.k8s.aws/v1alpha1
kind: Buckets
metadata:
  name: typo
  namespace: shop
---
apiVersion: ec2.services.k8s.aws/v1alpha1
kind: RouteTable
metadata:
  name: private-a
  namespace: shop
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: app
  namespace: shop
`;

const typoNote =
  /strays\.yaml \(document 1\): kind Buckets \(s3\.services\.k8s\.aws\) is neither a kind crossrole serves nor configuration it reads; it is skipped\. Did you mean Bucket\?/;
const ackNote =
  /strays\.yaml \(document 2\): kind RouteTable \(ec2\.services\.k8s\.aws\) is neither .* It is an ACK kind crossrole does not serve/;

describe("manifests of unknown kinds are noted", { concurrency: true }, () => {
  test("audit: in the report's notes, naming the file, the document and the kind", async () => {
    const dir = await manifestDir({ "strays.yaml": strays });
    const run = await runCrossrole(["audit", "--from", aliceExample, "--from", dir, "-o", "json"]);
    assert.equal(run.code, 0, run.stderr);
    const notes = (parseJson(run)["notes"] as string[]).join("\n");
    assert.match(notes, typoNote);
    assert.match(notes, ackNote);
    // A ServiceAccount is configuration crossrole reads (AWSServiceAccountIdentity): no note.
    assert.doesNotMatch(notes, /ServiceAccount/);
  });

  test("explain: in the trace's inputs", async () => {
    const dir = await manifestDir({ "strays.yaml": strays });
    const run = await runCrossrole([
      "explain",
      "bucket/shop-assets",
      "-n",
      "shop",
      "--from",
      aliceExample,
      "--from",
      dir,
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, typoNote);
    assert.match(run.stdout, ackNote);
  });

  test("migrate: in the proof's notes", async () => {
    const dir = await manifestDir({ "strays.yaml": strays });
    const run = await runCrossrole(["migrate", "--from", aliceExample, "--from", dir, "--allow-changes"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, typoNote);
    assert.match(run.stderr, ackNote);
  });

  test("Alice's own manifests, all of known kinds (a Secret among them), get no such note", async () => {
    const run = await runCrossrole(["audit", "--from", aliceExample, "-o", "json"]);
    assert.doesNotMatch(JSON.stringify(parseJson(run)["notes"]), /is neither a kind/);
  });
});
