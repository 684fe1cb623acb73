// IAMRoleSelector mode end to end (DESIGN §2.4, §3.1 step 2, §3.3), with the real controller
// process started with `--feature-gates=IAMRoleSelector=true --enable-carm=false`:
//   - a selector matching namespace `dev` by name and kind Bucket routes a bucket to its role's account;
//   - a bucket no selector matches uses the default identity (the controller's account);
//   - two matching selectors are a conflict (ACK's exact message) until the resource's
//     `services.k8s.aws/iam-role-selector` annotation picks one;
//   - a selector created later re-routes a waiting bucket within 2 s (re-queued on the change).
// Every AWS claim is checked in the emulator with the owning account's own credentials.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { accountsHolding } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import {
  bucket,
  condition,
  controllerAccount,
  type E2E,
  getBucket,
  namespace,
  startE2E,
  waitForCondition,
} from "./fixture.ts";

const selectorPath = "/apis/services.k8s.aws/v1alpha1/iamroleselectors";

function selector(name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: "services.k8s.aws/v1alpha1",
    kind: "IAMRoleSelector",
    metadata: { name },
    spec,
  } as KubeObject;
}

const bucketType = [{ apiVersion: "s3.services.k8s.aws/v1alpha1", kind: "Bucket" }];
const devRole = "arn:aws:iam::111111111111:role/dev-s3";
const aRole = "arn:aws:iam::333333333333:role/selector-a";
const bRole = "arn:aws:iam::444444444444:role/selector-b";
const lateRole = "arn:aws:iam::555555555555:role/late-s3";
/** Every account a bucket of this file could land in. */
const accounts = [
  controllerAccount,
  "111111111111",
  "222222222222",
  "333333333333",
  "444444444444",
  "555555555555",
];

let e2e: E2E;
let endpoint: string;
/**
 * dev-s3's resourceVersion as its spec was written. A resource records the selector's spec
 * version: the controller's own status writes (matchedResources, Ready) bump the object's
 * resourceVersion without changing what it configures.
 */
let devS3SpecVersion: string;

/** The accounts (of `accounts`) whose own ListBuckets shows `name`. */
const holders = (name: string): Promise<string[]> => accountsHolding(endpoint, name, accounts);

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint!;
  await e2e.apply([
    // The controller's system namespace, where it keeps its key (as every install has it).
    namespace("ack-system"),
    namespace("dev"),
    namespace("plain"),
    namespace("conflict"),
    namespace("late"),
    // The controller's own credentials only for namespace plain: `late` (no selector yet) is denied.
    {
      apiVersion: "identity.crossrole.dev/v1alpha1",
      kind: "AWSControllerIdentity",
      metadata: { name: "default" },
      spec: { allowedNamespaces: { list: ["plain"] } },
    } as KubeObject,
    selector("dev-s3", {
      arn: devRole,
      namespaceSelector: { names: ["dev"] },
      resourceTypeSelector: bucketType,
    }),
    // Same namespace, another kind: must not compete with dev-s3 for a Bucket.
    selector("dev-sqs", {
      arn: "arn:aws:iam::222222222222:role/dev-sqs",
      namespaceSelector: { names: ["dev"] },
      resourceTypeSelector: [{ apiVersion: "sqs.services.k8s.aws/v1alpha1", kind: "Queue" }],
    }),
    // Created b first, then a: the conflict message must still list them sorted.
    selector("b", {
      arn: bRole,
      namespaceSelector: { names: ["conflict"] },
      resourceTypeSelector: bucketType,
    }),
    selector("a", {
      arn: aRole,
      namespaceSelector: { names: ["conflict"] },
      resourceTypeSelector: [{ group: "s3.services.k8s.aws", version: "", kind: "Bucket" }],
    }),
    bucket("dev", "assets"),
    bucket("plain", "logs"),
    bucket("conflict", "shared"),
    bucket("late", "reports"),
  ]);
  devS3SpecVersion = (await e2e.kube.request<KubeObject>({ method: "GET", path: `${selectorPath}/dev-s3` }))
    .metadata.resourceVersion!;
  await e2e.startController(["--feature-gates=IAMRoleSelector=true", "--enable-carm=false"]);
});
after(() => e2e?.stop());

test("a selector matching namespace dev by name and kind Bucket puts the bucket in its role's account", async () => {
  const b = await waitForCondition(e2e.kube, "dev", "assets", "ACK.ResourceSynced", "True");
  const rv = devS3SpecVersion;
  const meta = b.status?.ackResourceMetadata;
  assert.equal(meta?.ownerAccountID, "111111111111");
  assert.equal(meta?.arn, "arn:aws:s3:::dev-assets");
  assert.deepEqual(meta?.iamRoleSelector, { selectorName: "dev-s3", resourceVersion: rv });
  assert.equal(meta?.identity?.["source"], "iamRoleSelector");
  assert.equal(meta?.identity?.["roleARN"], devRole);

  const selected = condition(b, "ACK.IAMRoleSelected");
  assert.equal(selected?.status, "True");
  assert.equal(selected?.reason, "Selected");
  const message = selected?.message ?? "";
  assert.ok(message.includes(devRole), message);
  assert.ok(message.includes("dev-s3"), message);
  assert.ok(message.includes(`resourceVersion ${rv}`), message);

  assert.deepEqual(await holders("dev-assets"), ["111111111111"]);
});

test("a bucket no selector matches uses the default identity, the controller's account", async () => {
  const b = await waitForCondition(e2e.kube, "plain", "logs", "ACK.ResourceSynced", "True");
  const meta = b.status?.ackResourceMetadata;
  assert.equal(meta?.ownerAccountID, controllerAccount);
  assert.equal(meta?.iamRoleSelector, undefined);
  assert.equal(meta?.identity?.["source"], "default");
  assert.equal(meta?.identity?.["roleARN"] ?? null, null);
  assert.notEqual(condition(b, "ACK.IAMRoleSelected")?.status, "True");
  assert.deepEqual(await holders("plain-logs"), [controllerAccount]);
});

test("two matching selectors are a conflict with ACK's sorted message; the annotation picks one", async () => {
  const b = await waitForCondition(
    e2e.kube,
    "conflict",
    "shared",
    "ACK.Recoverable",
    "True",
    "IdentityConflict",
  );
  assert.equal(
    condition(b, "ACK.Recoverable")?.message,
    "Cannot determine which IAMRoleSelector to use. Conflicting IAMRoleSelectors: [a, b]",
  );
  assert.equal(condition(b, "ACK.ResourceSynced")?.status, "False");
  assert.notEqual(condition(b, "ACK.IAMRoleSelected")?.status, "True");
  assert.equal(b.status?.ackResourceMetadata, undefined);
  // The condition is written, so the controller has decided; nothing was created anywhere.
  assert.deepEqual(await holders("conflict-shared"), []);

  await e2e.kube.request({
    method: "PATCH",
    path: "/apis/s3.services.k8s.aws/v1alpha1/namespaces/conflict/buckets/shared",
    contentType: "application/merge-patch+json",
    body: { metadata: { annotations: { "services.k8s.aws/iam-role-selector": "b" } } },
  });
  const picked = await waitForCondition(e2e.kube, "conflict", "shared", "ACK.ResourceSynced", "True");
  assert.equal(picked.status?.ackResourceMetadata?.ownerAccountID, "444444444444");
  assert.equal(picked.status?.ackResourceMetadata?.iamRoleSelector?.["selectorName"], "b");
  assert.equal(condition(picked, "ACK.IAMRoleSelected")?.status, "True");
  assert.equal(condition(picked, "ACK.Recoverable"), undefined);
  assert.deepEqual(await holders("conflict-shared"), ["444444444444"]);
});

test("a new selector re-routes a denied bucket: synced in the selector's account within 2 s", async () => {
  // No selector matches `late`, and AWSControllerIdentity default does not admit it: denied.
  const denied = await waitForCondition(
    e2e.kube,
    "late",
    "reports",
    "ACK.Recoverable",
    "True",
    "IdentityNotPermitted",
  );
  const message = condition(denied, "ACK.Recoverable")?.message ?? "";
  assert.match(message, /AWSControllerIdentity default does not allow namespace late/);
  assert.deepEqual(await holders("late-reports"), []);

  const started = Date.now();
  await e2e.apply([
    selector("late-s3", {
      arn: lateRole,
      namespaceSelector: { names: ["late"] },
      resourceTypeSelector: bucketType,
    }),
  ]);
  const synced = await waitFor(
    async () => {
      const b = await getBucket(e2e.kube, "late", "reports");
      return condition(b, "ACK.ResourceSynced")?.status === "True" ? b : undefined;
    },
    {
      what: "Bucket late/reports ACK.ResourceSynced=True after IAMRoleSelector late-s3 appeared",
      timeoutMs: 10_000,
      intervalMs: 10,
    },
  );
  const elapsed = Date.now() - started;
  assert.ok(elapsed <= 2_000, `re-routed after ${elapsed} ms (limit 2000 ms)`);
  assert.equal(synced.status?.ackResourceMetadata?.ownerAccountID, "555555555555");
  assert.equal(synced.status?.ackResourceMetadata?.iamRoleSelector?.["selectorName"], "late-s3");
  assert.equal(condition(synced, "ACK.Recoverable"), undefined);
  assert.deepEqual(await holders("late-reports"), ["555555555555"]);
});
