// ACK's runtime flags (aws-controllers-k8s/runtime v0.61 pkg/config), as ACK's charts render
// them: a controller given all ten starts, syncs a bucket, and does what each honoured one says —
// the leader Lease in --leader-election-namespace, sts:GetCallerIdentity at
// --aws-identity-endpoint-url, a create intent window that covers three attempts of
// --http-client-timeout — and says once in the log why each other one changes nothing.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";
import { bucket, type E2E, namespace, startE2E, waitForCondition } from "./fixture.ts";

const ns = "ack-flags";
const leases = "ack-leases";

let e2e: E2E;
let proxy: AwsProxy;

before(async () => {
  e2e = await startE2E();
  proxy = await startAwsProxy(e2e.stack.awsEndpoint ?? "");
  await e2e.apply([namespace("ack-system"), namespace(ns), namespace(leases)]);
});
after(async () => {
  await e2e?.stop();
  await proxy?.close();
});

test("ACK's ten runtime flags: the controller starts, honours four, and logs why the others change nothing", async () => {
  const c = await e2e.startController([
    "--enable-development-logging",
    "--enable-leader-election",
    "--leader-election-namespace",
    leases,
    "--enable-cross-namespace=true",
    "--aws-identity-endpoint-url",
    proxy.endpoint,
    "--allow-unsafe-aws-endpoint-urls",
    "--aws-endpoint-use-path-style",
    "--http-client-timeout",
    "60s",
    "--enable-webhook-server",
    "--webhook-server-addr",
    "0.0.0.0:9433",
    "--enable-field-export-reconciler=true",
  ]);
  await e2e.apply([bucket(ns, "flags")]);
  await waitForCondition(e2e.kube, ns, "flags", "ACK.ResourceSynced", "True");

  const lease = await e2e.kube.request<{ spec?: { holderIdentity?: string } }>({
    method: "GET",
    path: `/apis/coordination.k8s.io/v1/namespaces/${leases}/leases/crossrole-leader`,
  });
  assert.ok(lease.spec?.holderIdentity, "the leader Lease is in --leader-election-namespace, held");

  assert.ok(
    proxy.calls("GetCallerIdentity").length >= 1,
    "the controller's account was asked at --aws-identity-endpoint-url",
  );

  const ignored = c
    .logs()
    .filter((l) => l["event"] === "controller.ack-flag-ignored")
    .map((l) => String(l["flag"]))
    .sort();
  assert.deepEqual(ignored, [
    "--allow-unsafe-aws-endpoint-urls",
    "--aws-endpoint-use-path-style",
    "--enable-cross-namespace",
    "--enable-development-logging",
    "--enable-field-export-reconciler",
    "--enable-webhook-server",
    "--webhook-server-addr",
  ]);
  const window = c.logs().filter((l) => l["event"] === "controller.create-intent-window");
  assert.equal(window.length, 1, "one line says the intent window was raised");
  assert.equal(window[0]?.["seconds"], 210, "three attempts of 60 s and 30 s of backoff");
});
