// An annotation key one typo away from one crossrole reads changes nothing; the controller says
// so on the resource, naming the key it most likely meant, for the resource's own annotations
// and for its namespace's — once, not at every reconcile — and goes on as without it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  bucket,
  type E2E,
  eventsAbout,
  namespace,
  startE2E,
  waitForCondition,
  waitForEvent,
} from "./fixture.ts";

const ns = "typos";
let e2e: E2E;

before(async () => {
  e2e = await startE2E();
  await e2e.apply([
    namespace("ack-system"),
    namespace(ns, { "s3.services.k8s.aws/deletion-polcy": "retain" }),
  ]);
  await e2e.startController();
});
after(() => e2e?.stop());

test("misspelt annotation keys on a resource and its namespace: a Warning naming the key meant, once", async () => {
  await e2e.apply([
    bucket(ns, "assets", {}, { annotations: { "services.k8s.aws/owner-acount-id": "111111111111" } }),
  ]);
  await waitForCondition(e2e.kube, ns, "assets", "ACK.ResourceSynced", "True");
  await waitForEvent(
    e2e.kube,
    ns,
    "Bucket",
    "assets",
    "UnknownAnnotation",
    /^annotation "services\.k8s\.aws\/owner-acount-id" is not one crossrole reads, so it changes nothing\. Did you mean "services\.k8s\.aws\/owner-account-id"\?$/,
  );
  await waitForEvent(
    e2e.kube,
    ns,
    "Bucket",
    "assets",
    "UnknownAnnotation",
    /^namespace typos's annotation "s3\.services\.k8s\.aws\/deletion-polcy" .* Did you mean "s3\.services\.k8s\.aws\/deletion-policy"\?$/,
  );
  // A change to the bucket reconciles it again: the warnings are not repeated.
  await e2e.apply([
    bucket(
      ns,
      "assets",
      { versioning: { status: "Enabled" } },
      {
        annotations: { "services.k8s.aws/owner-acount-id": "111111111111" },
      },
    ),
  ]);
  await waitForEvent(e2e.kube, ns, "Bucket", "assets", "Updated", /spec\.versioning/);
  const unknown = (await eventsAbout(e2e.kube, ns, "Bucket", "assets")).filter(
    (e) => e.reason === "UnknownAnnotation",
  );
  assert.deepEqual(
    unknown.map((e) => (e as { count?: number }).count ?? 1),
    [1, 1],
    "each said once",
  );
});
