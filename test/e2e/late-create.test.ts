// A create that lands after its resource is gone (DESIGN §3.5; issue "creates that land after a
// resource is gone"), for every kind: the controller sends the creates, AWS holds them (the
// fault proxy keeps each request and forwards it only when the test says so), the controller is
// killed, the resources are deleted while it is down, and a new controller starts. It finds
// nothing yet — and must not let the resources go: their sealed create intents say a create may
// still land. Then either:
//   - AWS performs the held creates: the objects appear (tagged, or for S3 untagged but made
//     inside the intent's window), are deleted, and only then are the resources released; or
//   - the creates never land: the resources are released once the window has closed.
// Either way nothing is left in any account, and status said what it waited for and until when.
// And when a held create lands only after the window closed and the resource was let go (AWS
// accepts a signed request for 15 minutes), the tombstone kept of the released intent in the
// system namespace has the controller find and delete what it made, also after a restart.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { accountsHoldingResource } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import { servedKindCatalog } from "../../src/services/catalog.ts";
import {
  type AwsProxy,
  type RecordedRequest,
  s3Bucket,
  s3Operation,
  startAwsProxy,
} from "../support/aws-proxy.ts";
import { kmsAliasCreationDates } from "../support/kms-alias-dates.ts";
import { minimalKinds, minimalResource, namespaceObjectsFor } from "../support/minimal-resources.ts";
import {
  type ControllerProcess,
  condition,
  configMap,
  controllerAccount,
  type E2E,
  getResource,
  namespace,
  region,
  resourcePath,
  startE2E,
  waitForEvent,
  waitForResourceCondition,
} from "./fixture.ts";

const ns = "late";
const accounts = [controllerAccount, "111111111111", "222222222222"];
/**
 * Long enough for kill, delete and restart to fit inside it (the new controller holds back the
 * resources of every minimal kind, fifteen, in about 15 s; 30 s became too close under load),
 * short enough to wait out once.
 */
const windowSeconds = 45;

let e2e: E2E;
let proxy: AwsProxy;
let controller: ControllerProcess;

before(async () => {
  // The controller manager deletes a namespace's objects when the namespace is deleted.
  e2e = await startE2E({ controllerManager: true });
  // KMS answers when each alias was made (an untaggable Alias finds its late create by it).
  proxy = await startAwsProxy(e2e.stack.awsEndpoint ?? "", kmsAliasCreationDates());
  await e2e.apply([namespace("ack-system"), namespace(ns), ...namespaceObjectsFor(minimalKinds, ns)]);
  controller = await startController();
});
after(async () => {
  await e2e?.stop();
  await proxy?.close();
});

function startController(): Promise<ControllerProcess> {
  return e2e.startController(
    ["--reconcile-default-max-concurrent-syncs=4", `--create-intent-window-seconds=${windowSeconds}`],
    { awsEndpoint: proxy.endpoint },
  );
}

/** Every served kind's create call (its declaration's). */
const creates: readonly string[] = Object.values(servedKindCatalog).map((k) => k.declaration.create);

/** The create call of any kind, for AWS names starting with `prefix`. */
function isCreate(prefix: string) {
  return (r: Omit<RecordedRequest, "fault">): boolean => {
    if (s3Operation(r) === "CreateBucket") return (s3Bucket(r) ?? "").startsWith(prefix);
    return creates.includes(r.action ?? "") && (r.body.includes(prefix) || r.path.includes(prefix));
  };
}

const awsName = (prefix: string, kind: string) => `${prefix}${kind.toLowerCase()}`;

async function held(prefix: string): Promise<string[]> {
  const out: string[] = [];
  for (const kind of minimalKinds) {
    const where = await accountsHoldingResource(
      e2e.stack.awsEndpoint ?? "",
      kind,
      awsName(prefix, kind),
      region,
      accounts,
    );
    if (where.length > 0) out.push(`${kind} ${awsName(prefix, kind)} in ${where.join(", ")}`);
  }
  return out;
}

/**
 * Applies one resource of every kind with AWS names `<prefix><kind>`, holds their creates in the
 * proxy until `landing` settles, kills the controller once every create was sent, deletes the
 * resources while it is down and starts a new one. Returns the resource names.
 */
async function createsInFlightThenDeleted(prefix: string, landing: Promise<unknown>): Promise<string[]> {
  const remove = proxy.addFault({
    name: `hold ${prefix}`,
    match: isCreate(prefix),
    respond: { holdUntil: landing },
  });
  const names = minimalKinds.map((k) => `${prefix}${k.toLowerCase()}`);
  await e2e.apply(
    minimalKinds.map((k) =>
      minimalResource(k, ns, awsName(prefix, k), awsName(prefix, k), {}, controllerAccount),
    ),
  );
  await waitFor(() => proxy.requests.filter((r) => isCreate(prefix)(r)).length >= minimalKinds.length, {
    what: `the ${minimalKinds.length} creates of ${prefix}* sent`,
    timeoutMs: 30_000,
  });
  await controller.stop("SIGKILL");
  remove();
  for (const kind of minimalKinds) {
    await e2e.kube.request({ method: "DELETE", path: resourcePath(kind, ns, awsName(prefix, kind)) });
  }
  controller = await startController();
  return names;
}

/** Every resource of the round is held back with DeletePending, saying until when. */
async function assertHeldBack(prefix: string): Promise<void> {
  for (const kind of minimalKinds) {
    const r = await waitForResourceCondition(
      e2e.kube,
      kind,
      ns,
      awsName(prefix, kind),
      "ACK.ResourceSynced",
      "False",
      "DeletePending",
    );
    assert.ok(r.metadata.deletionTimestamp, `${kind} is being deleted`);
    assert.match(
      condition(r, "ACK.ResourceSynced")?.message ?? "",
      /^Deletion waits for the create of .* requested at \S+Z: .*may still land until \S+Z/,
    );
  }
}

async function waitAllGone(prefix: string, timeoutMs: number): Promise<void> {
  await waitFor(
    async () => {
      for (const kind of minimalKinds)
        if ((await getResource(e2e.kube, kind, ns, awsName(prefix, kind))) !== undefined) return false;
      return true;
    },
    { what: `every ${prefix}* resource released`, timeoutMs },
  );
}

test("creates that land after their resources were deleted: found, deleted, and only then released (every kind)", async () => {
  let land: () => void = () => undefined;
  const landing = new Promise<void>((resolve) => {
    land = resolve;
  });
  const prefix = "late-a-";
  const started = Date.now();
  await createsInFlightThenDeleted(prefix, landing);
  await assertHeldBack(prefix);
  assert.deepEqual(await held(prefix), [], "nothing in AWS yet: the creates are still held");

  land();
  await waitFor(async () => (await held(prefix)).length === minimalKinds.length, {
    what: "the held creates landed",
    timeoutMs: 15_000,
  }).catch(() => undefined); // some may already be deleted by the time all landed
  await waitAllGone(prefix, 30_000);
  assert.deepEqual(await held(prefix), [], "every late object was deleted before its resource was released");
  assert.ok(
    Date.now() - started < windowSeconds * 1000,
    "released because the late objects were found and deleted, not because the window closed",
  );
});

test("creates that never land: the resources are released once the intent's window has closed, not before", async () => {
  let drop: () => void = () => undefined;
  const never = new Promise<void>((_resolve, reject) => {
    drop = () => reject(new Error("dropped"));
  });
  never.catch(() => undefined);
  const prefix = "late-b-";
  await createsInFlightThenDeleted(prefix, never);
  await assertHeldBack(prefix);
  const until = Date.parse(
    /until (\S+Z)/.exec(
      condition(await getResource(e2e.kube, "Queue", ns, awsName(prefix, "Queue")), "ACK.ResourceSynced")
        ?.message ?? "",
    )?.[1] ?? "",
  );
  assert.ok(Number.isFinite(until), "the status names when the window closes");
  await waitAllGone(prefix, windowSeconds * 1000 + 20_000);
  assert.ok(Date.now() >= until - 1_000, "not released before the window closed");
  drop();
  assert.deepEqual(await held(prefix), []);
});

test("a create answered after its resource was released by hand: what it made is deleted, not forgotten (every kind)", async () => {
  let land: () => void = () => undefined;
  const landing = new Promise<void>((resolve) => {
    land = resolve;
  });
  const prefix = "late-c-";
  const remove = proxy.addFault({
    name: `hold ${prefix}`,
    match: isCreate(prefix),
    respond: { holdUntil: landing },
  });
  try {
    await e2e.apply(
      minimalKinds.map((k) =>
        minimalResource(k, ns, awsName(prefix, k), awsName(prefix, k), {}, controllerAccount),
      ),
    );
    await waitFor(() => proxy.requests.filter((r) => isCreate(prefix)(r)).length >= minimalKinds.length, {
      what: `the ${minimalKinds.length} creates of ${prefix}* sent`,
      timeoutMs: 30_000,
    });
    // An operator clears the finalizers of resources being deleted: Kubernetes lets them go at
    // once, while the controller still waits for AWS's answer to their creates.
    for (const kind of minimalKinds) {
      const path = resourcePath(kind, ns, awsName(prefix, kind));
      await e2e.kube.request({ method: "DELETE", path });
      await e2e.kube.request({
        method: "PATCH",
        path,
        contentType: "application/merge-patch+json",
        body: { metadata: { finalizers: null } },
      });
    }
    await waitAllGone(prefix, 10_000);
  } finally {
    remove();
  }
  land();
  const cleaned = () => controller.logs().filter((l) => l["event"] === "resource.gone-during-create");
  await waitFor(() => cleaned().length >= minimalKinds.length, {
    what: "the controller to handle each create whose resource was gone",
    timeoutMs: 20_000,
  });
  for (const line of cleaned()) assert.match(String(line["msg"]), /deleted what the create made/);
  assert.deepEqual(await held(prefix), [], "nothing left behind");
});

/** The kinds whose create call itself carries the ownership tags in the emulator (moto drops
 * CreateBucket's CreateBucketConfiguration.Tags, so a late bucket lands untagged there). */
const taggedAtCreate = minimalKinds.filter((k) => k !== "Bucket");

interface RecordList {
  items: {
    metadata: { name: string; annotations?: Record<string, string> };
    data?: Record<string, string>;
  }[];
}

test("creates that land after the window closed and their resources were let go: the tombstones' sweep deletes what they made, after a restart too", async () => {
  let land: () => void = () => undefined;
  const landing = new Promise<void>((resolve) => {
    land = resolve;
  });
  const prefix = "late-d-";
  await createsInFlightThenDeleted(prefix, landing);
  await assertHeldBack(prefix);
  await waitAllGone(prefix, windowSeconds * 1000 + 20_000);

  // Each released intent is remembered where no tenant writes: a record in the system namespace.
  const tombstones = async () =>
    (
      await e2e.kube.request<RecordList>({
        method: "GET",
        path: "/api/v1/namespaces/ack-system/configmaps",
        query: { labelSelector: "crossrole.dev/record=tombstone" },
      })
    ).items.filter((r) =>
      (r.metadata.annotations?.["crossrole.dev/released"] ?? "").includes(` ${ns}/${prefix}`),
    );
  const kept = await tombstones();
  assert.deepEqual(
    kept.map((r) => r.metadata.annotations?.["crossrole.dev/released"]).sort(),
    minimalKinds.map((k) => `${k} ${ns}/${awsName(prefix, k)}`).sort(),
  );
  for (const r of kept) {
    const t = JSON.parse(r.data?.["tombstone.json"] ?? "{}") as { until?: string; requestedAt?: string };
    const lifetime = Date.parse(t.until ?? "") - Date.parse(t.requestedAt ?? "");
    assert.equal(
      lifetime,
      windowSeconds * 1000 + 15 * 60_000,
      "kept for the window and a signature's 15 minutes",
    );
  }

  // The controller restarts before the creates land: the sweep resumes from the records.
  await controller.stop("SIGKILL");
  controller = await startController();
  land();
  await waitFor(
    async () => {
      const left = await held(prefix);
      return left.every((l) => l.startsWith("Bucket ")) || undefined;
    },
    {
      what: "every late object carrying a released uid's tags deleted",
      timeoutMs: 60_000,
      intervalMs: 1_000,
    },
  );
  // Each landed, and the sweep (not a reconcile: the resources are gone) deleted it.
  const swept = controller.logs().filter((l) => l["event"] === "tombstone.deleted");
  assert.deepEqual(
    swept.map((l) => String(l["resource"])).sort(),
    taggedAtCreate.map((k) => `${k} ${ns}/${awsName(prefix, k)}`).sort(),
  );
  for (const r of kept.filter(
    (k) => !k.metadata.annotations?.["crossrole.dev/released"]?.startsWith("Bucket "),
  )) {
    await waitForEvent(
      e2e.kube,
      "ack-system",
      "ConfigMap",
      r.metadata.name,
      "LateCreateDeleted",
      /landed after that resource was deleted/,
    );
  }
  const metrics = await (await fetch(`${controller.metricsURL}/metrics`)).text();
  for (const kind of taggedAtCreate)
    assert.match(metrics, new RegExp(`crossrole_late_creates_deleted_total\\{kind="${kind}"\\} 1\\n`));
  // A late bucket lands untagged in the emulator (real S3 tags it in the create): not provably
  // this resource's, so the sweep leaves it alone.
  const bucket = awsName(prefix, "Bucket");
  for (const line of await held(prefix)) assert.match(line, new RegExp(`^Bucket ${bucket} `));
});

test("a namespace deleted while its creates were in flight: once it is gone, what lands later is still found in its account and deleted", async () => {
  // Its resources are placed in account 111111111111 through the CARM account map: once the
  // namespace is gone, nothing can be decided for them any more (no namespace, no annotation), so
  // the tombstones' sweep uses the identity they were let go with.
  const gone = "late-gone";
  const account = "111111111111";
  const prefix = "late-e-";
  await e2e.apply([
    configMap("ack-role-account-map", { [account]: `arn:aws:iam::${account}:role/late` }),
    namespace(gone, { "services.k8s.aws/owner-account-id": account }),
    ...namespaceObjectsFor(taggedAtCreate, gone),
  ]);
  let land: () => void = () => undefined;
  const landing = new Promise<void>((resolve) => {
    land = resolve;
  });
  const remove = proxy.addFault({
    name: `hold ${prefix}`,
    match: isCreate(prefix),
    respond: { holdUntil: landing },
  });
  await e2e.apply(
    taggedAtCreate.map((k) => minimalResource(k, gone, awsName(prefix, k), awsName(prefix, k), {}, account)),
  );
  await waitFor(() => proxy.requests.filter((r) => isCreate(prefix)(r)).length >= taggedAtCreate.length, {
    what: `the ${taggedAtCreate.length} creates of ${prefix}* sent`,
    timeoutMs: 30_000,
  });
  await controller.stop("SIGKILL");
  remove();
  await e2e.kube.request({ method: "DELETE", path: `/api/v1/namespaces/${gone}` });
  controller = await startController();
  await waitFor(
    async () => {
      try {
        await e2e.kube.request({ method: "GET", path: `/api/v1/namespaces/${gone}` });
        return false;
      } catch {
        return true;
      }
    },
    {
      what: `namespace ${gone} gone once its resources were let go`,
      timeoutMs: windowSeconds * 1000 + 60_000,
    },
  );
  assert.deepEqual(await held(prefix), [], "nothing in AWS yet: the creates are still held");

  land();
  // Each lands in the gone namespace's account, and the sweep deletes it.
  const sweptHere = () =>
    controller
      .logs()
      .filter((l) => l["event"] === "tombstone.deleted" && String(l["resource"]).includes(` ${gone}/`))
      .map((l) => String(l["resource"]));
  await waitFor(() => sweptHere().length >= taggedAtCreate.length || undefined, {
    what: "every late object of the gone namespace deleted by the sweep",
    timeoutMs: 60_000,
    intervalMs: 1_000,
  });
  assert.deepEqual(
    sweptHere().sort(),
    taggedAtCreate.map((k) => `${k} ${gone}/${awsName(prefix, k)}`).sort(),
  );
  assert.deepEqual(await held(prefix), []);
});
