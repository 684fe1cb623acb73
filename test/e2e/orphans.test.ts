// Nothing orphaned, duplicated or misplaced when a create or a delete is interrupted (DESIGN
// §3.5, "intent before action"): the real controller process talks to the emulator through a
// fault-injecting proxy, so AWS can fail right after CreateBucket, do the work and never answer,
// or the controller can be killed (SIGKILL) mid-batch — and resources deleted while it is down.
// Every round ends with the same audit, in EVERY account of the emulator: each resource that
// still exists has exactly one bucket, in its own account, tagged with its uid; nothing else of
// the round's names exists anywhere.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { accountsHolding, bucketsIn, bucketTagsIn } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import {
  type AwsProxy,
  type RecordedRequest,
  s3Bucket,
  s3Operation,
  startAwsProxy,
} from "../support/aws-proxy.ts";
import {
  bucket,
  bucketPath,
  type ControllerProcess,
  configMap,
  controllerAccount,
  type E2E,
  getBucket,
  namespace,
  startE2E,
  waitForCondition,
} from "./fixture.ts";

const X = "111111111111";
const Y = "222222222222";
const accounts = [X, Y, controllerAccount] as const;
const ns = "orphans";

let e2e: E2E;
let endpoint: string;
let proxy: AwsProxy;
let controller: ControllerProcess;

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  proxy = await startAwsProxy(endpoint);
  await e2e.apply([
    namespace("ack-system"),
    namespace(ns, { "services.k8s.aws/owner-account-id": X }),
    configMap("ack-role-account-map", {
      [X]: `arn:aws:iam::${X}:role/owner-x`,
      [Y]: `arn:aws:iam::${Y}:role/owner-y`,
    }),
  ]);
  controller = await startController();
});
after(async () => {
  await e2e?.stop();
  await proxy?.close();
});

/**
 * How long a create may still land after its intent: a resource whose create was cut off is
 * neither created again nor released until then (short here, so that rounds end quickly).
 */
const intentWindowSeconds = 15;

function startController(): Promise<ControllerProcess> {
  // Several reconciles in flight at once, so a kill lands in the middle of a batch.
  return e2e.startController(
    ["--reconcile-default-max-concurrent-syncs=4", `--create-intent-window-seconds=${intentWindowSeconds}`],
    { awsEndpoint: proxy.endpoint },
  );
}

/** S3 requests for buckets whose names start with `prefix` (operation: CreateBucket, ...). */
function s3Calls(operation: string, prefix: string): RecordedRequest[] {
  return proxy.requests.filter((r) => s3Operation(r) === operation && (s3Bucket(r) ?? "").startsWith(prefix));
}

const onBucket = (operation: string, prefix: string) => (r: Omit<RecordedRequest, "fault">) =>
  s3Operation(r) === operation && (s3Bucket(r) ?? "").startsWith(prefix);

/** The same calls, from the `n`-th on (1-based): AWS answers the first n-1 as usual. */
const fromNth = (operation: string, prefix: string, n: number) => (r: Omit<RecordedRequest, "fault">) =>
  onBucket(operation, prefix)(r) && s3Calls(operation, prefix).length >= n - 1;

/** Waits until `n` such calls went out; on timeout the error lists what the proxy saw. */
async function waitForCalls(operation: string, prefix: string, n: number): Promise<void> {
  await waitFor(async () => s3Calls(operation, prefix).length >= n, {
    what: `${n} ${operation} calls for ${prefix}*`,
    timeoutMs: 30_000,
  }).catch((err: unknown) => {
    const seen = proxy.requests
      .filter((r) => (s3Bucket(r) ?? "").startsWith(prefix))
      .map((r) => `${s3Operation(r)} ${s3Bucket(r)}${r.fault ? ` (${r.fault})` : ""}`);
    throw new Error(`${String(err)}; the proxy saw: ${seen.join(", ")}`);
  });
}

async function deleteResource(name: string): Promise<void> {
  await e2e.kube.request({ method: "DELETE", path: bucketPath(ns, name) }).catch(() => undefined);
}

async function waitGone(names: readonly string[], timeoutMs = 30_000): Promise<void> {
  await waitFor(
    async () => {
      for (const n of names) if ((await getBucket(e2e.kube, ns, n)) !== undefined) return false;
      return true;
    },
    { what: `Buckets ${names.join(", ")} gone from ${ns}`, timeoutMs },
  );
}

/**
 * The audit: every bucket in any account whose name starts with `prefix` belongs to a live
 * resource, in account X, and (once the controller had its chance: `settled`) is tagged with
 * that resource's uid. Right after a kill a bucket may still be untagged: its resource's
 * recorded intent is what lets the next controller finish or delete it.
 */
async function audit(prefix: string, settled = true): Promise<{ buckets: number; untagged: number }> {
  const found: { account: string; name: string }[] = [];
  for (const a of accounts) {
    for (const name of await bucketsIn(endpoint, a))
      if (name.startsWith(prefix)) found.push({ account: a, name });
  }
  const misplaced = found.filter((f) => f.account !== X);
  assert.deepEqual(misplaced, [], "nothing outside the granted account");
  const names = found.map((f) => f.name);
  let untagged = 0;
  assert.equal(new Set(names).size, names.length, "no name twice");
  for (const f of found) {
    const resourceName = f.name.slice(`${ns}-`.length);
    const r = await getBucket(e2e.kube, ns, resourceName);
    assert.ok(r, `orphan: bucket ${f.name} in ${f.account} has no resource`);
    const tags = await bucketTagsIn(endpoint, X, f.name);
    if (tags.ownership["services.k8s.aws/owner-uid"] === undefined) untagged++;
    if (!settled) continue;
    assert.equal(
      tags.ownership["services.k8s.aws/owner-uid"],
      r.metadata.uid,
      `${f.name} is tagged as its resource's`,
    );
  }
  return { buckets: found.length, untagged };
}

test("a sub-resource failing right after CreateBucket: the bucket is ours, and deleting the resource deletes it", async () => {
  const name = "sub-fails";
  const remove = proxy.addFault({
    name: "versioning 500",
    match: onBucket("PutBucketVersioning", `${ns}-${name}`),
    respond: { status: 500, code: "InternalError", message: "injected" },
  });
  await e2e.apply([bucket(ns, name, { versioning: { status: "Enabled" } })]);
  await waitForCondition(e2e.kube, ns, name, "ACK.Recoverable", "True");
  assert.deepEqual(
    await accountsHolding(endpoint, `${ns}-${name}`, accounts),
    [X],
    "CreateBucket went through",
  );

  await deleteResource(name);
  await waitGone([name]);
  remove();
  assert.deepEqual(await accountsHolding(endpoint, `${ns}-${name}`, accounts), [], "no orphan");
});

test("STS refusing the role during the first AWS call is CredentialsUnavailable naming the role, and nothing is created", async () => {
  const yNs = "orphans-y";
  await e2e.apply([namespace(yNs, { "services.k8s.aws/owner-account-id": Y })]);
  const remove = proxy.addFault({
    name: "assume owner-y denied",
    match: (r) => r.action === "AssumeRole" && (r.params["RoleArn"] ?? "").endsWith(":role/owner-y"),
    respond: {
      status: 403,
      code: "AccessDenied",
      message: "injected: not authorized to perform sts:AssumeRole",
    },
  });
  await e2e.apply([bucket(yNs, "needs-y")]);
  const b = await waitForCondition(
    e2e.kube,
    yNs,
    "needs-y",
    "ACK.Recoverable",
    "True",
    "CredentialsUnavailable",
  );
  const message = b.status?.conditions?.find((c) => c.type === "ACK.Recoverable")?.message ?? "";
  assert.match(message, new RegExp(`arn:aws:iam::${Y}:role/owner-y`));
  assert.deepEqual(
    await accountsHolding(endpoint, `${yNs}-needs-y`, accounts),
    [],
    "nothing created anywhere",
  );

  remove();
  await waitForCondition(e2e.kube, yNs, "needs-y", "ACK.ResourceSynced", "True", undefined, 60_000);
  assert.deepEqual(await accountsHolding(endpoint, `${yNs}-needs-y`, accounts), [Y]);
});

test("tagging failing after CreateBucket (an untagged bucket): the recorded intent still lets delete find it", async () => {
  const name = "tag-fails";
  const remove = proxy.addFault({
    name: "tagging 500",
    match: onBucket("PutBucketTagging", `${ns}-${name}`),
    respond: { status: 500, code: "InternalError", message: "injected" },
  });
  await e2e.apply([bucket(ns, name)]);
  await waitFor(async () => s3Calls("PutBucketTagging", `${ns}-${name}`).length > 0, {
    what: "the claim after CreateBucket attempted",
    timeoutMs: 20_000,
  });
  assert.deepEqual((await bucketTagsIn(endpoint, X, `${ns}-${name}`)).ownership, {}, "left untagged");

  await deleteResource(name);
  await waitGone([name]);
  remove();
  assert.deepEqual(await accountsHolding(endpoint, `${ns}-${name}`, accounts), [], "no orphan");
});

test("CreateBucket done by AWS but never answered (reset): recognised as our own create, then Synced; one bucket", async () => {
  const name = "create-reset";
  const remove = proxy.addFault({
    name: "create reset",
    match: onBucket("CreateBucket", `${ns}-${name}`),
    respond: "forward-then-reset",
  });
  await e2e.apply([bucket(ns, name, { tagging: { tagSet: [{ key: "team", value: "x" }] } })]);
  await waitFor(async () => s3Calls("CreateBucket", `${ns}-${name}`).length > 0, {
    what: "CreateBucket sent",
    timeoutMs: 20_000,
  });
  remove();
  const r = await waitForCondition(e2e.kube, ns, name, "ACK.ResourceSynced", "True", undefined, 40_000);
  const tags = await bucketTagsIn(endpoint, X, `${ns}-${name}`);
  assert.equal(tags.ownership["services.k8s.aws/owner-uid"], r.metadata.uid);
  assert.deepEqual(tags.user, { team: "x" });
  assert.equal((await audit(`${ns}-${name}`)).buckets, 1);
  await deleteResource(name);
  await waitGone([name]);
  assert.equal((await audit(`${ns}-${name}`)).buckets, 0);
});

/**
 * One kill -9 round during creation: `count` resources are applied; the controller is killed
 * once `killAfter` CreateBucket calls went out. In half the rounds AWS performs the creates from
 * the killAfter-th on but never answers them (the controller dies waiting); in the others it
 * answers and the kill lands wherever the batch is. Then the resources are either deleted
 * while the controller is down, or left to converge after a restart and deleted with it up.
 */
async function createRound(
  round: number,
  deleteWhileDown: boolean,
): Promise<{ created: number; untagged: number }> {
  const count = 6;
  const prefix = `${ns}-c${round}-`;
  const names = Array.from({ length: count }, (_, i) => `c${round}-${i}`);
  const killAfter = 1 + ((round * 2) % count);
  const silent = round % 2 === 0;
  const remove = silent
    ? proxy.addFault({
        name: "create unanswered",
        match: fromNth("CreateBucket", prefix, killAfter),
        respond: "forward-then-hang",
      })
    : () => undefined;
  await e2e.apply(names.map((n) => bucket(ns, n)));
  await waitForCalls("CreateBucket", prefix, killAfter);
  await controller.stop("SIGKILL");
  remove();
  const atKill = await audit(prefix, false);
  if (deleteWhileDown) for (const n of names) await deleteResource(n);
  controller = await startController();
  if (!deleteWhileDown) {
    for (const n of names)
      await waitForCondition(e2e.kube, ns, n, "ACK.ResourceSynced", "True", undefined, 40_000);
    assert.equal((await audit(prefix)).buckets, count, `round ${round}: one bucket per resource`);
    for (const n of names) await deleteResource(n);
  }
  await waitGone(names, 40_000);
  assert.equal(
    (await audit(prefix)).buckets,
    0,
    `round ${round}: ${atKill.buckets} created before the kill, none left`,
  );
  return { created: atKill.buckets, untagged: atKill.untagged };
}

test("kill -9 during a batch of creations, five rounds each way: 0 orphans, 0 duplicates, 0 misplaced", async (t) => {
  let created = 0;
  let untagged = 0;
  for (let round = 1; round <= 10; round++) {
    const r = await createRound(round, round % 4 < 2);
    created += r.created;
    untagged += r.untagged;
  }
  t.diagnostic(
    `10 rounds: ${created} buckets existed at the kills, ${untagged} of them not yet tagged; 0 left`,
  );
  assert.ok(created >= 10, "the kills landed after AWS had created buckets");
});

/** One kill -9 round during deletion: all Synced, all deleted, the controller killed mid-way. */
async function deleteRound(round: number): Promise<void> {
  const count = 6;
  const prefix = `${ns}-d${round}-`;
  const names = Array.from({ length: count }, (_, i) => `d${round}-${i}`);
  await e2e.apply(names.map((n) => bucket(ns, n)));
  for (const n of names)
    await waitForCondition(e2e.kube, ns, n, "ACK.ResourceSynced", "True", undefined, 30_000);
  const killAfter = 1 + (round % count);
  const silent = round % 2 === 1;
  const remove = silent
    ? proxy.addFault({
        name: "delete unanswered",
        match: fromNth("DeleteBucket", prefix, killAfter),
        respond: "forward-then-hang",
      })
    : () => undefined;
  for (const n of names) await deleteResource(n);
  await waitForCalls("DeleteBucket", prefix, killAfter);
  await controller.stop("SIGKILL");
  remove();
  controller = await startController();
  await waitGone(names, 40_000);
  assert.equal((await audit(prefix)).buckets, 0, `round ${round}: every bucket deleted`);
}

test("kill -9 during a batch of deletions, five rounds: every bucket deleted, nothing else touched", async () => {
  const bystander = "bystander";
  await e2e.apply([bucket(ns, bystander)]);
  const b = await waitForCondition(e2e.kube, ns, bystander, "ACK.ResourceSynced", "True");
  for (let round = 1; round <= 5; round++) await deleteRound(round);
  assert.equal(
    (await bucketTagsIn(endpoint, X, `${ns}-${bystander}`)).ownership["services.k8s.aws/owner-uid"],
    b.metadata.uid,
  );
  assert.deepEqual(await accountsHolding(endpoint, `${ns}-${bystander}`, accounts), [X]);
});
