// kubectl, built with the other Kubernetes binaries (same pinned version, same cache), against
// the local stack and the real controller: the command the main job suggests works, and every
// served kind prints ACK's columns (account, region, the kind's own status where it has one,
// Synced, Ready) filled in by the controller; kubectl explain describes each kind's spec.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { lookupKind } from "../../src/api/kinds.ts";
import { binaries, kubeVersion } from "../../src/local-stack/versions.ts";
import { everyMinimalKind, minimalResource, namespaceObjectsFor } from "../support/minimal-resources.ts";
import { configMap, type E2E, namespace, region, startE2E, waitForResourceCondition } from "./fixture.ts";

const run = promisify(execFile);
let e2e: E2E;

function kubectl(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  if (!existsSync(binaries.kubectl)) {
    throw new Error(
      `kubectl ${kubeVersion} is not built (${binaries.kubectl}); run scripts/build-control-plane.sh`,
    );
  }
  return run(binaries.kubectl, ["--kubeconfig", e2e.stack.kubeconfigPath, ...args]);
}

before(async () => {
  e2e = await startE2E();
  await e2e.apply([
    namespace("ack-system"),
    namespace("cols", { "services.k8s.aws/owner-account-id": "111111111111" }),
    configMap("ack-role-account-map", { "111111111111": "arn:aws:iam::111111111111:role/cols" }),
    ...namespaceObjectsFor(everyMinimalKind, "cols"),
    ...everyMinimalKind.map((kind) =>
      minimalResource(kind, "cols", "shown", `cols-${kind.toLowerCase()}`, {}, "111111111111"),
    ),
  ]);
  await e2e.startController();
  for (const kind of everyMinimalKind)
    await waitForResourceCondition(
      e2e.kube,
      kind,
      "cols",
      "shown",
      "ACK.ResourceSynced",
      "True",
      undefined,
      30_000,
    );
});
after(() => e2e?.stop());

test(`kubectl is the pinned ${kubeVersion}`, async () => {
  const { stdout } = await kubectl("version", "--client", "-o", "json");
  assert.equal(
    (JSON.parse(stdout) as { clientVersion: { gitVersion: string } }).clientVersion.gitVersion,
    kubeVersion,
  );
});

test("kubectl get <every kind> -A prints each with its account, region, Synced and Ready", async () => {
  // Each by its full name: `roles` alone is RBAC's Role (kubectl prefers the built-in group).
  const plurals = everyMinimalKind
    .map((k) => {
      const kind = lookupKind(k);
      return `${kind?.plural}.${kind?.group}`;
    })
    .join(",");
  const { stdout } = await kubectl("get", plurals, "-A");
  const rows = stdout.split("\n").filter((l) => l.startsWith("cols "));
  assert.equal(rows.length, everyMinimalKind.length, stdout);
  for (const kind of everyMinimalKind) {
    const k = lookupKind(kind);
    const row = rows.find((l) => l.includes(`${k?.singular}.${k?.group}/shown `));
    assert.ok(row, `${kind} is listed:\n${stdout}`);
    assert.match(
      row,
      new RegExp(`\\s111111111111\\s+${region}\\s+(\\S+\\s+)?True\\s+True(\\s|$)`),
      `${kind}'s columns: ${row}`,
    );
  }
});

test("kubectl explain describes every kind's spec from AWS's documentation, the fields ACK adds included", async () => {
  for (const kind of everyMinimalKind) {
    const k = lookupKind(kind);
    // By API version: `secrets` alone is the core Secret.
    const { stdout } = await kubectl(
      "explain",
      `${k?.plural}.spec`,
      `--api-version=${k?.group}/${k?.version}`,
    );
    assert.match(stdout, /FIELDS:/, `${kind}: ${stdout}`);
  }
  // A member the model lacks, and a map of ACK's own, each with the words crossrole gives it.
  const sha = await kubectl(
    "explain",
    "functions.spec.code.sha256",
    "--api-version=lambda.services.k8s.aws/v1alpha1",
  );
  assert.match(sha.stdout, /The SHA-256 \(base64\) of the deployment package the function should run/);
  const overrides = await kubectl(
    "explain",
    "dbparametergroups.rds.services.k8s.aws.spec.parameterOverrides",
  );
  assert.match(overrides.stdout, /The parameters the group sets, by name/);
  assert.match(overrides.stdout, /reset to the family's default/);
});
