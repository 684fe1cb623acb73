// Identity deletion protection (DESIGN §2.5, §3.5) with the real controller process: an
// identity a Synced bucket uses carries the in-use finalizer, its usage in status, and a
// `kubectl delete` of it is blocked — with a Warning Event naming the bucket and the fix — until
// the bucket is gone; an identity nobody uses goes at once. And the resource side: a bucket whose
// identity vanished anyway (removed while the controller was down) is released at once with
// deletion policy retain, and deleted in AWS as soon as the identity returns (no resync wait).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { accountsHolding } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import { isNotFound } from "../../src/runtime/kube-client.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import {
  bucket,
  bucketPath,
  type ControllerProcess,
  condition,
  controllerAccount,
  type E2E,
  getBucket,
  namespace,
  startE2E,
  waitForCondition,
  waitForEvent,
} from "./fixture.ts";

const A = "111111111111";
const finalizer = "identity.crossrole.dev/in-use";
const accounts = [controllerAccount, A];

interface Identity extends KubeObject {
  status?: {
    usageCount?: number;
    users?: { kind: string; namespace: string; name: string }[];
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
  };
}

function roleIdentity(name: string): KubeObject {
  return {
    apiVersion: "identity.crossrole.dev/v1alpha1",
    kind: "AWSRoleIdentity",
    metadata: { name },
    spec: {
      sourceIdentityRef: { kind: "AWSControllerIdentity", name: "default" },
      roleARN: `arn:aws:iam::${A}:role/${name}`,
      allowedNamespaces: { list: ["prot"] },
    },
  } as KubeObject;
}

const identityPath = (name: string) => `/apis/identity.crossrole.dev/v1alpha1/awsroleidentities/${name}`;
const ref = (name: string) => ({ identityRef: { kind: "AWSRoleIdentity", name } });
const retain = { annotations: { "services.k8s.aws/deletion-policy": "retain" } };

let e2e: E2E;
let controller: ControllerProcess;
let endpoint: string;

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint!;
  await e2e.apply([namespace("ack-system"), namespace("prot")]);
  controller = await e2e.startController();
});
after(() => e2e?.stop());

async function getIdentity(name: string): Promise<Identity | undefined> {
  try {
    return await e2e.kube.request<Identity>({ method: "GET", path: identityPath(name) });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** Waits until the identity satisfies `check`; returns it. */
function waitForIdentity(name: string, what: string, check: (i: Identity) => boolean, timeoutMs = 20_000) {
  return waitFor(
    async () => {
      const i = await getIdentity(name);
      return i && check(i) ? i : undefined;
    },
    { what: `AWSRoleIdentity ${name}: ${what}`, timeoutMs },
  );
}

function waitGone(what: string, get: () => Promise<unknown>, timeoutMs = 20_000) {
  return waitFor(async () => (await get()) === undefined, { what: `${what} to disappear`, timeoutMs });
}

const inUse = (i: Identity | undefined) => i?.status?.conditions?.find((c) => c.type === "InUse");
const synced = (name: string) =>
  waitForCondition(e2e.kube, "prot", name, "ACK.ResourceSynced", "True", undefined, 30_000);
const holders = (name: string) => accountsHolding(endpoint, name, accounts);

test("an identity a Synced bucket uses: usageCount 1, the bucket in status.users, the in-use finalizer", async () => {
  await e2e.apply([roleIdentity("guarded"), bucket("prot", "data", ref("guarded"))]);
  await synced("data");
  assert.deepEqual(await holders("prot-data"), [A]);
  const identity = await waitForIdentity("guarded", "usageCount 1", (i) => i.status?.usageCount === 1);
  assert.deepEqual(identity.status?.users, [{ kind: "Bucket", namespace: "prot", name: "data" }]);
  assert.ok(identity.metadata.finalizers?.includes(finalizer), `finalizer ${finalizer}`);
  assert.equal(inUse(identity)?.status, "True");
  assert.equal(identity.status?.conditions?.find((c) => c.type === "Ready")?.status, "True");
});

test("kubectl delete of an identity in use is blocked with a reason; deleting the bucket lets it go", async () => {
  await e2e.kube.request({ method: "DELETE", path: identityPath("guarded") });
  const blocked = await waitForIdentity(
    "guarded",
    "InUse DeletionBlocked",
    (i) => i.metadata.deletionTimestamp !== undefined && inUse(i)?.reason === "DeletionBlocked",
  );
  assert.match(
    inUse(blocked)?.message ?? "",
    /used by 1 resource: Bucket prot\/data\. Delete these resources/,
  );
  const event = await waitForEvent(
    e2e.kube,
    "",
    "AWSRoleIdentity",
    "guarded",
    "DeletionBlocked",
    /Bucket prot\/data/,
  );
  assert.equal(event.type, "Warning");
  assert.match(event.message, /point them at another identity first/);
  assert.equal(condition(await getBucket(e2e.kube, "prot", "data"), "ACK.ResourceSynced")?.status, "True");
  assert.ok(
    controller
      .logs()
      .some(
        (l) =>
          l["event"] === "identity.usage" &&
          l["identity"] === "AWSRoleIdentity/guarded" &&
          l["blocked"] === true,
      ),
    "one log line says the deletion is blocked",
  );

  await e2e.kube.request({ method: "DELETE", path: bucketPath("prot", "data") });
  await waitGone("Bucket prot/data", () => getBucket(e2e.kube, "prot", "data"));
  assert.deepEqual(await holders("prot-data"), [], "the bucket was deleted in AWS with the identity");
  await waitGone("AWSRoleIdentity guarded", () => getIdentity("guarded"));
});

test("an identity nobody uses carries no finalizer and is deleted at once", async () => {
  await e2e.apply([roleIdentity("idle")]);
  const idle = await waitForIdentity("idle", "InUse False", (i) => inUse(i)?.status === "False");
  assert.equal(idle.status?.usageCount, 0);
  assert.equal(idle.metadata.finalizers, undefined);
  await e2e.kube.request({ method: "DELETE", path: identityPath("idle") });
  assert.equal(await getIdentity("idle"), undefined, "gone as soon as the DELETE returned");
});

test("an identity that vanished anyway: retain releases at once; delete proceeds as soon as it returns", async () => {
  await e2e.apply([
    roleIdentity("stranded"),
    roleIdentity("pinned"),
    bucket("prot", "keep", ref("stranded"), retain),
    bucket("prot", "drop", ref("stranded")),
    bucket("prot", "long", ref("pinned")),
  ]);
  for (const name of ["keep", "drop", "long"]) await synced(name);
  await waitForIdentity("stranded", "usageCount 2", (i) => i.status?.usageCount === 2);
  const pinned = await waitForIdentity(
    "pinned",
    "in use",
    (i) => i.metadata.finalizers?.includes(finalizer) ?? false,
  );

  // With the controller down nothing protects the identity: strip the finalizer and delete it.
  await controller.stop("SIGTERM");
  await e2e.kube.request({
    method: "PATCH",
    path: identityPath("stranded"),
    contentType: "application/merge-patch+json",
    body: { metadata: { finalizers: null } },
  });
  await e2e.kube.request({ method: "DELETE", path: identityPath("stranded") });
  assert.equal(await getIdentity("stranded"), undefined);
  for (const name of ["keep", "drop"])
    await e2e.kube.request({ method: "DELETE", path: bucketPath("prot", name) });
  controller = await e2e.startController([], { name: "controller-after-restart" });

  // retain: nothing to do in AWS, so no identity is needed.
  await waitGone("Bucket prot/keep", () => getBucket(e2e.kube, "prot", "keep"));
  assert.deepEqual(await holders("prot-keep"), [A], "retained in AWS");
  // delete: blocked, saying what is missing and how to let it go.
  const drop = await waitFor(
    async () => {
      const b = await getBucket(e2e.kube, "prot", "drop");
      return /^Deletion blocked: .*AWSRoleIdentity stranded does not exist/.test(
        condition(b, "ACK.Recoverable")?.message ?? "",
      )
        ? b
        : undefined;
    },
    { what: "Bucket prot/drop: Deletion blocked naming the missing identity", timeoutMs: 20_000 },
  );
  assert.match(condition(drop, "ACK.Recoverable")?.message ?? "", /deletion-policy: retain/);
  assert.deepEqual(await holders("prot-drop"), [A]);

  // The restart released nothing it should not: the identity still in use was not written to.
  await waitFor(
    async () => {
      const text = await (await fetch(`${controller.metricsURL}/metrics`)).text();
      const m =
        /^controller_runtime_reconcile_total\{[^}]*controller="awsroleidentity"[^}]*result="success"[^}]*\} (\d+)$/m.exec(
          text,
        );
      return Number(m?.[1] ?? 0) >= 1;
    },
    { what: "the AWSRoleIdentity controller to have reconciled after the restart", timeoutMs: 20_000 },
  );
  const pinnedNow = await getIdentity("pinned");
  assert.equal(
    pinnedNow?.metadata.resourceVersion,
    pinned.metadata.resourceVersion,
    "pinned untouched by the restart",
  );
  assert.ok(pinnedNow?.metadata.finalizers?.includes(finalizer));

  // The identity returns: the configuration change re-queues the bucket at once — well before
  // the 15 s a waiting decision is retried after (and a deny is not retried at all).
  await e2e.apply([roleIdentity("stranded")]);
  await waitGone("Bucket prot/drop", () => getBucket(e2e.kube, "prot", "drop"), 10_000);
  assert.deepEqual(await holders("prot-drop"), []);
  const back = await waitForIdentity("stranded", "unused again", (i) => i.status?.usageCount === 0);
  assert.equal(back.metadata.finalizers, undefined, "no finalizer once its last user is gone");
});

/** Every reconcile one identity controller has run (all results). */
async function reconcilesOf(controllerName: string): Promise<number> {
  const text = await (await fetch(`${controller.metricsURL}/metrics`)).text();
  let sum = 0;
  for (const m of text.matchAll(/^controller_runtime_reconcile_total\{([^}]*)\} (\d+)$/gm))
    if (m[1]?.includes(`controller="${controllerName}"`)) sum += Number(m[2]);
  return sum;
}

test("a burst of users: the finalizer at once, the usage count written about once a second, not once per user", async (t) => {
  const before = {
    role: await reconcilesOf("awsroleidentity"),
    ctl: await reconcilesOf("awscontrolleridentity"),
  };
  const names = Array.from({ length: 30 }, (_, i) => `crowd-${i}`);
  await e2e.apply([roleIdentity("crowd"), ...names.map((n) => bucket("prot", n, ref("crowd")))]);
  for (const name of names) await synced(name);
  const identity = await waitForIdentity("crowd", "usageCount 30", (i) => i.status?.usageCount === 30);
  assert.ok(identity.metadata.finalizers?.includes(finalizer), `finalizer ${finalizer}`);
  assert.equal(inUse(identity)?.status, "True");
  const role = (await reconcilesOf("awsroleidentity")) - before.role;
  const ctl = (await reconcilesOf("awscontrolleridentity")) - before.ctl;
  t.diagnostic(`reconciles for 30 new users: AWSRoleIdentity ${role}, AWSControllerIdentity ${ctl}`);
  assert.ok(
    role <= 12,
    `30 new users cost ${role} AWSRoleIdentity reconciles; a settled count needs about one a second`,
  );
  // Their chains start at the implicit AWSControllerIdentity default, which has no object here:
  // nothing to protect, so nothing to reconcile.
  assert.ok(ctl <= 1, `${ctl} AWSControllerIdentity reconciles for an identity that has no object`);
});
