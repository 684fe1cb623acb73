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
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { accountsHoldingResource } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import {
  type AwsProxy,
  type RecordedRequest,
  s3Bucket,
  s3Operation,
  startAwsProxy,
} from "../support/aws-proxy.ts";
import { minimalKinds, minimalResource, namespaceObjectsFor } from "../support/minimal-resources.ts";
import {
  type ControllerProcess,
  condition,
  controllerAccount,
  type E2E,
  getResource,
  namespace,
  region,
  resourcePath,
  startE2E,
  waitForResourceCondition,
} from "./fixture.ts";

const ns = "late";
const accounts = [controllerAccount, "111111111111", "222222222222"];
/** Long enough for kill, delete and restart to fit inside it, short enough to wait out once. */
const windowSeconds = 30;

let e2e: E2E;
let proxy: AwsProxy;
let controller: ControllerProcess;

before(async () => {
  e2e = await startE2E();
  proxy = await startAwsProxy(e2e.stack.awsEndpoint ?? "");
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

/** The create call of any kind, for AWS names starting with `prefix`. */
function isCreate(prefix: string) {
  return (r: Omit<RecordedRequest, "fault">): boolean => {
    if (s3Operation(r) === "CreateBucket") return (s3Bucket(r) ?? "").startsWith(prefix);
    const creates = ["CreateQueue", "CreateTopic", "CreateTable", "CreateDBSubnetGroup", "CreateDBInstance"];
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
