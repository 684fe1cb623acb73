// Two controllers at once, with no leader election between them (what a RollingUpdate without it
// used to run on every `helm upgrade`): both reconcile every resource. Resources are created and
// deleted while the creates are still on their way — AWS slowed down by the fault proxy, or not
// at all — and then every account is audited: an object created for a resource that is gone must
// have been found and deleted, never forgotten, whichever process created it and whichever
// released the resource. (Before sealed intents, 15 of 24 objects were orphaned with a slow
// emulator and some in plain races: one process released a resource, finding nothing, while the
// other's create landed, and the creator's next status write got a 404.)
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { accountsHoldingResource } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import { type AwsProxy, type RecordedRequest, s3Operation, startAwsProxy } from "../support/aws-proxy.ts";
import { minimalResource } from "../support/minimal-resources.ts";
import {
  controllerAccount,
  type E2E,
  getResource,
  namespace,
  region,
  resourcePath,
  startE2E,
} from "./fixture.ts";

const ns = "twins";
const accounts = [controllerAccount, "111111111111", "222222222222"];
/** The kinds raced here: one per protocol family (S3 REST, SQS JSON, SNS query, DynamoDB JSON). */
const kinds = ["Bucket", "Queue", "Topic", "Table"] as const;
const perKind = 6;

let e2e: E2E;
let proxy: AwsProxy;

before(async () => {
  e2e = await startE2E();
  proxy = await startAwsProxy(e2e.stack.awsEndpoint ?? "");
  await e2e.apply([namespace("ack-system"), namespace(ns)]);
  const args = [
    "--enable-leader-election=false",
    "--reconcile-default-max-concurrent-syncs=4",
    "--create-intent-window-seconds=60",
  ];
  await e2e.startController(args, { name: "old-pod", awsEndpoint: proxy.endpoint });
  await e2e.startController(args, { name: "new-pod", awsEndpoint: proxy.endpoint });
});
after(async () => {
  await e2e?.stop();
  await proxy?.close();
});

function isCreate(r: Omit<RecordedRequest, "fault">): boolean {
  return (
    s3Operation(r) === "CreateBucket" ||
    ["CreateQueue", "CreateTopic", "CreateTable"].includes(r.action ?? "")
  );
}

const names = (prefix: string) =>
  kinds.flatMap((kind) =>
    Array.from({ length: perKind }, (_, i) => ({ kind, name: `${prefix}${kind.toLowerCase()}-${i}` })),
  );

/** Every AWS object of the round that is left in any account. */
async function leftInAws(prefix: string): Promise<string[]> {
  const left: string[] = [];
  for (const { kind, name } of names(prefix)) {
    const where = await accountsHoldingResource(e2e.stack.awsEndpoint ?? "", kind, name, region, accounts);
    if (where.length > 0) left.push(`${kind} ${name} in ${where.join(", ")}`);
  }
  return left;
}

/**
 * Applies the round's resources, waits until `createsBeforeDelete` creates were sent, deletes them
 * all while those creates may still be on their way, waits until every resource is released, and
 * returns what is left in AWS (nothing, when nothing is orphaned).
 */
async function round(prefix: string, createsBeforeDelete: number): Promise<string[]> {
  const before = proxy.requests.filter(isCreate).length;
  const all = names(prefix);
  await e2e.apply(all.map(({ kind, name }) => minimalResource(kind, ns, name, name)));
  await waitFor(() => proxy.requests.filter(isCreate).length - before >= createsBeforeDelete, {
    what: `${createsBeforeDelete} creates of ${prefix}* sent`,
    timeoutMs: 60_000,
  });
  for (const { kind, name } of all) {
    await e2e.kube.request({ method: "DELETE", path: resourcePath(kind, ns, name) });
  }
  await waitFor(
    async () => {
      for (const { kind, name } of all)
        if ((await getResource(e2e.kube, kind, ns, name)) !== undefined) return false;
      return true;
    },
    { what: `every ${prefix}* resource released`, timeoutMs: 90_000 },
  );
  // A create still held by AWS when the resources were released would land now: give the
  // slowest one (the delay below) time to, then look.
  await waitFor(() => proxy.requests.filter(isCreate).every((r) => r.at < performance.now() - 2_000), {
    what: "no create sent in the last 2 s",
    timeoutMs: 30_000,
  });
  return leftInAws(prefix);
}

test("with a slow AWS: every object a create made for a deleted resource is found and deleted (24 resources, 2 processes)", async () => {
  const remove = proxy.addFault({ name: "slow creates", match: isCreate, respond: { delayMs: 1_500 } });
  try {
    assert.deepEqual(await round("twin-slow-", 8), [], "nothing orphaned");
  } finally {
    remove();
  }
});

test("plain races, three rounds: deleted right after the first creates went out, nothing orphaned", async () => {
  for (const r of [1, 2, 3]) {
    assert.deepEqual(await round(`twin-r${r}-`, 1), [], `round ${r}: nothing orphaned`);
  }
});
