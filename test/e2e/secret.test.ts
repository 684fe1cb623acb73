// Secret — Secrets Manager's, a declaration served by the generic runtime — end to end with the real
// controller process: a Secret in a namespace mapped to 111111111111 lands in that account (checked
// with that account's own credentials), its value from a key of a Kubernetes Secret in the same
// namespace, tagged as the object's, Synced with ACK's status (the answered ARN, random suffix and
// all; the current version); a change of the Kubernetes Secret is a new value in AWS; the value is
// nowhere in the resource; deleting it schedules the secret's deletion, as ACK does.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  DescribeSecretCommand,
  GetSecretValueCommand,
  SecretsManagerClient,
} from "@aws-sdk/client-secrets-manager";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { waitFor } from "../../src/runtime/wait-for.ts";
import {
  clientAs,
  deleteResourceAndWait,
  type E2E,
  getResource,
  startAppsInAccount,
  waitForSynced,
} from "./fixture.ts";

const X = "111111111111";
let e2e: E2E;
let endpoint: string;

before(async () => {
  e2e = await startAppsInAccount(X);
  endpoint = e2e.stack.awsEndpoint ?? "";
});
after(() => e2e?.stop());

const credentials = (value: string): KubeObject =>
  ({
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "db-credentials", namespace: "apps" },
    stringData: { password: value },
  }) as KubeObject;

test("a Secret lands in the namespace's account with its Kubernetes Secret's value, tagged, Synced with ACK's status; a new value is applied; delete schedules its deletion", async () => {
  const sm = await clientAs(SecretsManagerClient, endpoint, X);
  const valueIn = async () =>
    (await sm.send(new GetSecretValueCommand({ SecretId: "apps-db" }))).SecretString;
  await e2e.apply([
    credentials("first-value"),
    {
      apiVersion: "secretsmanager.services.k8s.aws/v1alpha1",
      kind: "Secret",
      metadata: { name: "db", namespace: "apps" },
      spec: {
        name: "apps-db",
        description: "the app's database",
        secretString: { name: "db-credentials", key: "password" },
        tags: [{ key: "team", value: "apps" }],
      },
    } as KubeObject,
  ]);
  const r = await waitForSynced(e2e.kube, "Secret", "apps", "db");
  const made = await sm.send(new DescribeSecretCommand({ SecretId: "apps-db" }));
  assert.ok(made.ARN?.startsWith(`arn:aws:secretsmanager:us-east-1:${X}:secret:apps-db-`), made.ARN);
  assert.equal(r.status?.ackResourceMetadata?.arn, made.ARN, "the ARN AWS answered, random suffix and all");
  assert.equal(r.status?.ackResourceMetadata?.ownerAccountID, X);
  const status = r.status as Record<string, unknown> | undefined;
  assert.equal(status?.["id"], made.ARN);
  assert.ok(String(status?.["versionID"]).length > 0);
  const tags = Object.fromEntries((made.Tags ?? []).map((t) => [t.Key, t.Value]));
  assert.equal(tags["services.k8s.aws/owner-uid"], r.metadata.uid);
  assert.equal(tags["team"], "apps");
  assert.equal(await valueIn(), "first-value");
  assert.ok(!JSON.stringify(r).includes("first-value"), "the value is nowhere in the resource");

  await e2e.apply([credentials("second-value")]);
  await waitFor(async () => ((await valueIn()) === "second-value" ? true : undefined), {
    what: "the new value in Secrets Manager",
    timeoutMs: 20_000,
  });
  const after = await getResource(e2e.kube, "Secret", "apps", "db");
  assert.ok(!JSON.stringify(after).includes("second-value"));

  await deleteResourceAndWait(e2e.kube, "Secret", "apps", "db");
  const scheduled = await sm.send(new DescribeSecretCommand({ SecretId: "apps-db" }));
  assert.ok(scheduled.DeletedDate, "scheduled for deletion (Secrets Manager's recovery window, as ACK)");
});
