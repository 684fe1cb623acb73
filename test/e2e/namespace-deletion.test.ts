// Deleting a whole namespace (the real namespace controller of kube-controller-manager sweeps
// it): each resource goes by its own deletion policy — delete removes the bucket, retain (on the
// resource or on the namespace) and read-only leave it — and the namespace goes away. When the
// account map entry a deletion needs is missing, the deletion waits and says why; restoring the
// entry lets it finish at once (a configuration change re-queues it, no resync needed).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { CreateBucketCommand } from "@aws-sdk/client-s3";
import { accountsHolding, s3As } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import { isNotFound, patchTypes } from "../../src/runtime/kube-client.ts";
import {
  bucket,
  condition,
  configMap,
  controllerAccount,
  type E2E,
  getBucket,
  namespace,
  startE2E,
  waitForCondition,
} from "./fixture.ts";

const X = "111111111111";
const accounts = [X, controllerAccount] as const;
const map = { [X]: `arn:aws:iam::${X}:role/owner-x` };

let e2e: E2E;
let endpoint: string;

before(async () => {
  e2e = await startE2E({ controllerManager: true });
  endpoint = e2e.stack.awsEndpoint ?? "";
  await e2e.apply([namespace("ack-system"), configMap("ack-role-account-map", map)]);
  await e2e.startController();
});
after(() => e2e?.stop());

const holders = (name: string) => accountsHolding(endpoint, name, accounts);

async function deleteNamespace(name: string): Promise<void> {
  await e2e.kube.request({ method: "DELETE", path: `/api/v1/namespaces/${name}` });
}

async function namespaceGone(name: string, timeoutMs = 60_000): Promise<void> {
  await waitFor(
    async () => {
      try {
        await e2e.kube.request({ method: "GET", path: `/api/v1/namespaces/${name}` });
        return false;
      } catch (err) {
        if (isNotFound(err)) return true;
        throw err;
      }
    },
    { what: `namespace ${name} deleted`, timeoutMs },
  );
}

test("a namespace deleted with resources under each policy: delete removes, retain and read-only leave, the namespace goes", async () => {
  const ns = "ns-mixed";
  await e2e.apply([namespace(ns, { "services.k8s.aws/owner-account-id": X })]);
  const existing = `${ns}-watched`;
  await (await s3As(endpoint, X)).send(new CreateBucketCommand({ Bucket: existing }));
  await e2e.apply([
    bucket(ns, "dropped"),
    bucket(ns, "kept", {}, { annotations: { "services.k8s.aws/deletion-policy": "retain" } }),
    bucket(ns, "watched", {}, { annotations: { "services.k8s.aws/read-only": "true" } }),
  ]);
  for (const n of ["dropped", "kept", "watched"]) {
    await waitForCondition(e2e.kube, ns, n, "ACK.ResourceSynced", "True");
  }
  await deleteNamespace(ns);
  await namespaceGone(ns);
  assert.deepEqual(await holders(`${ns}-dropped`), [], "deletion policy delete: the bucket is deleted");
  assert.deepEqual(await holders(`${ns}-kept`), [X], "retain: the bucket stays");
  assert.deepEqual(await holders(existing), [X], "read-only: never deleted");
});

test("a namespace whose deletion policy is retain keeps every bucket when it is deleted", async () => {
  const ns = "ns-retained";
  await e2e.apply([
    namespace(ns, {
      "services.k8s.aws/owner-account-id": X,
      "s3.services.k8s.aws/deletion-policy": "retain",
    }),
    bucket(ns, "one"),
    bucket(ns, "two"),
  ]);
  for (const n of ["one", "two"]) await waitForCondition(e2e.kube, ns, n, "ACK.ResourceSynced", "True");
  await deleteNamespace(ns);
  await namespaceGone(ns);
  assert.deepEqual(await holders(`${ns}-one`), [X]);
  assert.deepEqual(await holders(`${ns}-two`), [X]);
});

test("a deletion missing its account map entry waits, says why, and finishes once the entry is back", async () => {
  const ns = "ns-blocked";
  await e2e.apply([namespace(ns, { "services.k8s.aws/owner-account-id": X }), bucket(ns, "pending")]);
  await waitForCondition(e2e.kube, ns, "pending", "ACK.ResourceSynced", "True");

  await e2e.apply([configMap("ack-role-account-map", {})]);
  await deleteNamespace(ns);
  const blocked = await waitFor(
    async () => {
      const ready = condition(await getBucket(e2e.kube, ns, "pending"), "Ready");
      return ready?.status === "False" && ready.message?.startsWith("Deletion blocked: ")
        ? ready.message
        : undefined;
    },
    { what: "the deletion blocked", timeoutMs: 30_000 },
  );
  assert.match(blocked, new RegExp(X));
  assert.match(blocked, /services\.k8s\.aws\/deletion-policy: retain/);
  assert.deepEqual(await holders(`${ns}-pending`), [X], "nothing deleted while it cannot be decided");

  const restoredAt = Date.now();
  await e2e.kube.request({
    method: "PATCH",
    path: "/api/v1/namespaces/ack-system/configmaps/ack-role-account-map",
    contentType: patchTypes.merge,
    body: { data: map },
  });
  await namespaceGone(ns);
  assert.deepEqual(await holders(`${ns}-pending`), [], "deleted once the account map allowed it");
  assert.ok(Date.now() - restoredAt < 60_000);
});
