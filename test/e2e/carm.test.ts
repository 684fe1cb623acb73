// CARM end to end with the real controller process (DESIGN §2.3, §3.1 step 3, §3.3): the
// account map, the team map, service-level keys, ack-carm-map, a conflict between the maps and a
// missing map (wait, fail closed), each checked both in status and in the emulator per account.
//
// Phase 1 runs a controller with TeamLevelCARM only; phase 2 replaces it with one that also has
// ServiceLevelCARM. Every scenario has its own namespace and its own accounts.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import { accountsHolding } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import {
  bucket,
  type ControllerProcess,
  condition,
  configMap,
  controllerAccount,
  type E2E,
  getBucket,
  namespace,
  type Resource,
  startE2E,
  waitForCondition,
} from "./fixture.ts";

const owner = "services.k8s.aws/owner-account-id";
const teamId = "services.k8s.aws/team-id";

const accounts = {
  wait: "121212121212",
  v1: "333333333333",
  team: "444444444444",
  carmMap: "555555555555",
  carmMapTeam: "565656565656",
  serviceTeam: "666666666666",
  serviceAccount: "777777777777",
  conflict: "999999999999",
} as const;
const everyAccount = [controllerAccount, ...Object.values(accounts)];

const role = (account: string, name: string) => `arn:aws:iam::${account}:role/${name}`;

// The legacy maps' data; re-applied whole (apply replaces) as scenarios add keys.
const accountMap: Record<string, string> = {};
const teamMap: Record<string, string> = {
  "team-a": role(accounts.team, "team-a"),
  // Only read with ServiceLevelCARM (phase 2); phase 1 must ignore it.
  "s3.team-a": role(accounts.serviceTeam, "team-a-s3"),
};
// ack-carm-map's data, in the dot form (see the ack-carm-map scenario).
const carmMap: Record<string, string> = {};

let e2e: E2E;
let controller: ControllerProcess;
let endpoint: string;

before(async () => {
  e2e = await startE2E({ awsRecording: true });
  endpoint = e2e.stack.awsEndpoint!;
  await e2e.apply([namespace("ack-system")]);
  // No CARM ConfigMap exists yet: the first scenario needs the account map to be missing.
  controller = await e2e.startController(["--feature-gates=TeamLevelCARM=true"]);
});
after(() => e2e?.stop());

/** The accounts (among every account this file uses) whose ListBuckets includes `name`. */
const holders = (name: string): Promise<string[]> => accountsHolding(endpoint, name, everyAccount);

/** Every request the emulator served that names bucket `name` (path-style S3 URLs). */
async function s3RequestsFor(name: string): Promise<{ method: string; query: string }[]> {
  const path = e2e.stack.emulator?.recordingPath;
  assert.ok(path, "the emulator records requests");
  const text = await readFile(path, "utf8");
  const out: { method: string; query: string }[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const r = JSON.parse(line) as { method?: string; url?: string };
    const url = new URL(r.url ?? "/", "http://emulator");
    if (url.pathname === `/${name}` || url.pathname.startsWith(`/${name}/`)) {
      out.push({ method: r.method ?? "", query: url.search });
    }
  }
  return out;
}

/**
 * Asserts nothing happened in AWS for bucket `name`: no account holds it, and the emulator never
 * received a single request naming it (DESIGN §3.3: nothing is called in AWS unless `use`).
 */
async function assertNowhere(name: string): Promise<void> {
  assert.deepEqual(await holders(name), [], `bucket ${name} exists in an account`);
  assert.deepEqual(await s3RequestsFor(name), [], `the emulator was asked about ${name}`);
}

/** Waits until the controller has settled the bucket one way or another: Synced, Recoverable or Terminal. */
function waitForOutcome(ns: string, name: string): Promise<Resource> {
  return waitFor(
    async () => {
      const b = await getBucket(e2e.kube, ns, name);
      const settled = ["ACK.ResourceSynced", "ACK.Recoverable", "ACK.Terminal"].some(
        (t) => condition(b, t)?.status === "True",
      );
      return settled ? b : undefined;
    },
    { what: `Bucket ${ns}/${name} to be synced or to report why not`, timeoutMs: 20_000 },
  );
}

/** The bucket's conditions in one line, so a failed assertion says what the controller reported. */
function describe(b: Resource): string {
  return JSON.stringify(b.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message]));
}

/** Waits for a Warning Event with `reason` on the bucket; returns its message. */
function warningEvent(ns: string, name: string, reason: string): Promise<string> {
  return waitFor(
    async () => {
      const list = await e2e.kube.request<{
        items: {
          type?: string;
          reason?: string;
          message?: string;
          involvedObject?: { kind?: string; name?: string };
        }[];
      }>({ method: "GET", path: `/api/v1/namespaces/${ns}/events` });
      return list.items.find(
        (e) =>
          e.type === "Warning" &&
          e.reason === reason &&
          e.involvedObject?.kind === "Bucket" &&
          e.involvedObject.name === name,
      )?.message;
    },
    { what: `a Warning Event ${reason} on Bucket ${ns}/${name}`, timeoutMs: 5_000 },
  );
}

function applyAccountMap(): Promise<void> {
  return e2e.apply([configMap("ack-role-account-map", { ...accountMap })]);
}

function applyCarmMap(): Promise<void> {
  return e2e.apply([configMap("ack-carm-map", { ...carmMap })]);
}

test("missing ack-role-account-map → wait (IdentityUnavailable), nothing created anywhere; the map appearing re-queues at once", async () => {
  const ns = "carm-wait";
  await e2e.apply([namespace(ns, { [owner]: accounts.wait }), bucket(ns, "data")]);

  const b = await waitForCondition(e2e.kube, ns, "data", "ACK.Recoverable", "True", "IdentityUnavailable");
  const message = condition(b, "ACK.Recoverable")?.message ?? "";
  assert.match(message, /ack-role-account-map/, "the message names the map");
  assert.match(message, new RegExp(`key \\S*${accounts.wait}`), "the message names the key");
  assert.equal(condition(b, "ACK.ResourceSynced")?.status, "False");
  assert.equal(condition(b, "Ready")?.status, "False");
  assert.equal(b.status?.ackResourceMetadata, undefined);
  assert.equal(await warningEvent(ns, "data", "IdentityUnavailable"), message);
  // The controller has processed the bucket (its condition is written): nothing exists anywhere,
  // least of all in the controller's own account, and S3 was never even asked about it.
  await assertNowhere(`${ns}-data`);

  accountMap[accounts.wait] = role(accounts.wait, "carm-wait");
  await applyAccountMap();
  const appliedAt = Date.now();
  // Well under the 15 s wait requeue: the ConfigMap change itself must re-queue the bucket.
  const synced = await waitForCondition(e2e.kube, ns, "data", "ACK.ResourceSynced", "True", undefined, 5_000);
  assert.ok(Date.now() - appliedAt < 5_000);
  assert.equal(synced.status?.ackResourceMetadata?.ownerAccountID, accounts.wait);
  assert.equal(condition(synced, "ACK.Recoverable"), undefined);
  assert.deepEqual(await holders(`${ns}-data`), [accounts.wait]);
});

test("CARM v1: a namespace's owner-account-id mapped in ack-role-account-map puts the bucket in that account", async () => {
  const ns = "carm-v1";
  accountMap[accounts.v1] = role(accounts.v1, "carm-v1");
  await applyAccountMap();
  await e2e.apply([namespace(ns, { [owner]: accounts.v1 }), bucket(ns, "assets")]);

  const b = await waitForCondition(e2e.kube, ns, "assets", "ACK.ResourceSynced", "True");
  assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, accounts.v1);
  assert.equal(b.status?.ackResourceMetadata?.arn, `arn:aws:s3:::${ns}-assets`);
  assert.deepEqual(b.status?.ackResourceMetadata?.identity, {
    source: "accountCARM",
    roleARN: role(accounts.v1, "carm-v1"),
    sessionName: `crossrole-${accounts.v1}`, // named after the CARM key that granted it
  });
  assert.equal(condition(b, "Ready")?.status, "True");
  assert.deepEqual(await holders(`${ns}-assets`), [accounts.v1]);
  // The recording shows the CreateBucket, so assertNowhere's "no request" check is not vacuous.
  assert.ok((await s3RequestsFor(`${ns}-assets`)).some((r) => r.method === "PUT" && r.query === ""));
});

test("team-level CARM: team-id team-a mapped in ack-role-team-map puts the bucket in 444444444444 (s3.team-a ignored without ServiceLevelCARM)", async () => {
  const ns = "carm-team";
  await e2e.apply([configMap("ack-role-team-map", { ...teamMap })]);
  await e2e.apply([namespace(ns, { [teamId]: "team-a" }), bucket(ns, "logs")]);

  const b = await waitForCondition(e2e.kube, ns, "logs", "ACK.ResourceSynced", "True");
  assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, accounts.team);
  assert.deepEqual(b.status?.ackResourceMetadata?.identity, {
    source: "teamCARM",
    roleARN: role(accounts.team, "team-a"),
    sessionName: "crossrole-team-a",
  });
  assert.deepEqual(await holders(`${ns}-logs`), [accounts.team]);
});

test("ack-carm-map: owner-account-id.<id> (the apiserver-valid key form) maps the namespace's account", async () => {
  const ns = "carm-v2";
  const arn = role(accounts.carmMap, "carm-v2");
  // Kubernetes rejects ConfigMap keys containing '/', so DESIGN's owner-account-id/<id> cannot be
  // written to a cluster; the dot form is the one an administrator can apply.
  carmMap[`owner-account-id.${accounts.carmMap}`] = arn;
  await applyCarmMap();
  await e2e.apply([namespace(ns, { [owner]: accounts.carmMap }), bucket(ns, "reports")]);

  const b = await waitForOutcome(ns, "reports");
  assert.equal(condition(b, "ACK.ResourceSynced")?.status, "True", describe(b));
  assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, accounts.carmMap);
  assert.deepEqual(b.status?.ackResourceMetadata?.identity, {
    source: "accountCARM",
    roleARN: arn,
    sessionName: `crossrole-owner-account-id.${accounts.carmMap}`,
  });
  assert.deepEqual(await holders(`${ns}-reports`), [accounts.carmMap]);
});

test("ack-carm-map: team-id.<team> picks the role and team-id.<team>.endpoint the endpoint", async () => {
  const ns = "carm-v2-team";
  const arn = role(accounts.carmMapTeam, "team-b");
  // The same emulator under another name, so the decision shows which endpoint setting won.
  const teamEndpoint = endpoint.replace("127.0.0.1", "localhost");
  carmMap["team-id.team-b"] = arn;
  carmMap["team-id.team-b.endpoint"] = teamEndpoint;
  await applyCarmMap();
  await e2e.apply([namespace(ns, { [teamId]: "team-b" }), bucket(ns, "exports")]);

  const b = await waitForOutcome(ns, "exports");
  assert.equal(condition(b, "ACK.ResourceSynced")?.status, "True", describe(b));
  assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, accounts.carmMapTeam);
  assert.deepEqual(b.status?.ackResourceMetadata?.identity, {
    source: "teamCARM",
    roleARN: arn,
    sessionName: "crossrole-team-id.team-b",
  });
  assert.deepEqual(await holders(`${ns}-exports`), [accounts.carmMapTeam]);
  const decided = controller
    .logs()
    .find((l) => l["event"] === "decision" && l["resource"] === `Bucket ${ns}/exports`);
  assert.equal(decided?.["endpoint"], teamEndpoint, "team-id.team-b.endpoint overrides --aws-endpoint-url");
});

test("the legacy account map and ack-carm-map naming different roles for one account → conflict (IdentityConflict), nothing created", async () => {
  const ns = "carm-conflict";
  const legacy = role(accounts.conflict, "legacy");
  const v2 = role(accounts.conflict, "v2");
  accountMap[accounts.conflict] = legacy;
  await applyAccountMap();
  carmMap[`owner-account-id.${accounts.conflict}`] = v2;
  await applyCarmMap();
  await e2e.apply([namespace(ns, { [owner]: accounts.conflict }), bucket(ns, "both")]);

  const b = await waitForOutcome(ns, "both");
  assert.equal(condition(b, "ACK.Recoverable")?.reason, "IdentityConflict", describe(b));
  const message = condition(b, "ACK.Recoverable")?.message ?? "";
  // Both contenders are named, sorted (ack-carm-map before ack-role-account-map).
  const iV2 = message.indexOf(v2);
  const iLegacy = message.indexOf(legacy);
  assert.ok(iV2 >= 0 && iLegacy >= 0, `both roles named: ${message}`);
  assert.match(message, /ack-carm-map/);
  assert.match(message, /ack-role-account-map/);
  assert.ok(message.indexOf("ack-carm-map") < message.indexOf("ack-role-account-map"), "sorted");
  assert.equal(condition(b, "ACK.ResourceSynced")?.status, "False");
  assert.equal(b.status?.ackResourceMetadata, undefined);
  assert.equal(await warningEvent(ns, "both", "IdentityConflict"), message);
  await assertNowhere(`${ns}-both`);
});

test("service-level CARM (ServiceLevelCARM=true): s3.team-a is preferred over team-a, and s3.<account> over <account>", async () => {
  await controller.stop();
  controller = await e2e.startController(["--feature-gates=TeamLevelCARM=true,ServiceLevelCARM=true"]);

  const teamNs = "carm-svc-team";
  const accountNs = "carm-svc-account";
  accountMap[accounts.serviceAccount] = role(accounts.serviceAccount, "general");
  accountMap[`s3.${accounts.serviceAccount}`] = role(accounts.serviceAccount, "s3-writer");
  await applyAccountMap();
  await e2e.apply([
    namespace(teamNs, { [teamId]: "team-a" }),
    namespace(accountNs, { [owner]: accounts.serviceAccount }),
    bucket(teamNs, "media"),
    bucket(accountNs, "media"),
  ]);

  const t = await waitForCondition(e2e.kube, teamNs, "media", "ACK.ResourceSynced", "True");
  assert.equal(t.status?.ackResourceMetadata?.ownerAccountID, accounts.serviceTeam);
  assert.deepEqual(t.status?.ackResourceMetadata?.identity, {
    source: "teamCARM",
    roleARN: role(accounts.serviceTeam, "team-a-s3"),
    sessionName: "crossrole-s3.team-a",
  });
  assert.deepEqual(await holders(`${teamNs}-media`), [accounts.serviceTeam]);

  const a = await waitForCondition(e2e.kube, accountNs, "media", "ACK.ResourceSynced", "True");
  assert.equal(a.status?.ackResourceMetadata?.ownerAccountID, accounts.serviceAccount);
  assert.deepEqual(a.status?.ackResourceMetadata?.identity, {
    source: "accountCARM",
    roleARN: role(accounts.serviceAccount, "s3-writer"),
    sessionName: `crossrole-s3.${accounts.serviceAccount}`,
  });
  assert.deepEqual(await holders(`${accountNs}-media`), [accounts.serviceAccount]);
});
