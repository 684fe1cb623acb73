// `crossrole migrate` round trip with the real controller process (the acceptance test):
// a controller in CARM mode (TeamLevelCARM + ServiceLevelCARM) places Buckets, Queues and Topics
// through the account map, a team key and a service-level team key (and one namespace on the
// controller's own credentials); `crossrole migrate` reads that cluster and prints selectors,
// proving nothing would change; they are applied, the controller is restarted in IAMRoleSelector
// mode, and every resource is reconciled again with the same role in the same account — its
// status (ownerAccountID, ARN) unchanged, the new controller's decision naming the same role,
// and the emulator holding exactly the same objects in exactly the same accounts as before.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ListTopicsCommand, SNSClient } from "@aws-sdk/client-sns";
import { ListQueuesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { parseAllDocuments } from "yaml";
import { accountsHoldingResource } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { minimalResource } from "../support/minimal-resources.ts";
import { runCrossrole } from "../support/run-crossrole.ts";
import {
  bucketsIn,
  type ControllerProcess,
  clientAs,
  configMap,
  controllerAccount,
  type E2E,
  getResource,
  namespace,
  type Resource,
  region,
  startE2E,
  waitForResourceCondition,
} from "./fixture.ts";

const kinds = ["Bucket", "Queue", "Topic"] as const;
const role = (account: string, name: string) => `arn:aws:iam::${account}:role/${name}`;
const roles = {
  account: role("111111111111", "accounts"),
  team: role("333333333333", "team-a"),
  teamS3: role("444444444444", "team-a-s3"),
};
const everyAccount = [controllerAccount, "111111111111", "333333333333", "444444444444"];
const carmGates = "TeamLevelCARM=true,ServiceLevelCARM=true";

/** Namespace → the role each kind lands with in CARM mode (null: the controller's own). */
const expected: Readonly<Record<string, (kind: string) => string | null>> = {
  "mig-acct": () => roles.account,
  "mig-team": (kind) => (kind === "Bucket" ? roles.teamS3 : roles.team),
  "mig-plain": () => null,
};
const namespaces = Object.keys(expected);
const subjects = namespaces.flatMap((ns) =>
  kinds.map((kind) => ({ ns, kind, name: `${ns}-${kind.toLowerCase()}` })),
);
const accountOf = (arn: string | null) => (arn === null ? controllerAccount : (arn.split(":")[4] ?? ""));

let e2e: E2E;
let endpoint: string;
let controller: ControllerProcess;
/** Each resource's status.ackResourceMetadata once CARM mode had synced it. */
const before_ = new Map<string, Resource["status"]>();

/** Every bucket, queue and topic of every account, as each account itself lists them. */
async function inventory(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const account of everyAccount) {
    const sqs = await clientAs(SQSClient, endpoint, account);
    const sns = await clientAs(SNSClient, endpoint, account);
    const queues = (await sqs.send(new ListQueuesCommand({}))).QueueUrls ?? [];
    const topics = (await sns.send(new ListTopicsCommand({}))).Topics ?? [];
    out[account] = [
      ...(await bucketsIn(endpoint, account)).map((b) => `bucket ${b}`),
      ...queues.map((q) => `queue ${q.split("/").pop()}`),
      ...topics.map((t) => `topic ${t.TopicArn?.split(":").pop()}`),
    ].sort();
  }
  return out;
}

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint!;
  await e2e.apply([
    namespace("ack-system"),
    namespace("mig-acct", { "services.k8s.aws/owner-account-id": "111111111111" }),
    namespace("mig-team", { "services.k8s.aws/team-id": "team-a" }),
    namespace("mig-plain"),
    configMap("ack-role-account-map", { "111111111111": roles.account }),
    configMap("ack-role-team-map", { "team-a": roles.team, "s3.team-a": roles.teamS3 }),
  ]);
  controller = await e2e.startController([`--feature-gates=${carmGates}`], { name: "migrate-carm" });
  await e2e.apply(subjects.map((s) => minimalResource(s.kind, s.ns, s.name, s.name)));
});
after(() => e2e?.stop());

test("CARM mode: every resource is synced in the account its CARM entry names", async () => {
  await Promise.all(
    subjects.map(async ({ ns, kind, name }) => {
      const r = await waitForResourceCondition(
        e2e.kube,
        kind,
        ns,
        name,
        "ACK.ResourceSynced",
        "True",
        undefined,
        30_000,
      );
      const meta = r.status?.ackResourceMetadata;
      const want = expected[ns]!(kind);
      assert.equal(meta?.identity?.["roleARN"] ?? null, want, `${kind} ${ns}/${name}: role`);
      assert.equal(meta?.ownerAccountID, accountOf(want), `${kind} ${ns}/${name}: account`);
      before_.set(`${kind} ${ns}/${name}`, r.status);
    }),
  );
});

let selectors: KubeObject[] = [];
let firstOutput = "";

/** `crossrole migrate` against the stack, as a user runs it (the bin, a real process). */
function migrateOnline() {
  const args = ["migrate", "--kubeconfig", e2e.stack.kubeconfigPath, "--feature-gates", carmGates];
  return runCrossrole([...args, "--aws-region", region], {}, "process");
}

test("crossrole migrate (online) prints one selector per CARM entry in use and proves nothing would change", async () => {
  const run = await migrateOnline();
  assert.equal(run.code, 0, run.stderr);
  firstOutput = run.stdout;
  assert.match(
    run.stderr,
    new RegExp(`^${subjects.length} resources decided in both modes, none would change\\.$`, "m"),
  );
  selectors = parseAllDocuments(run.stdout).map((doc) => {
    assert.deepEqual(doc.errors, []);
    return doc.toJS() as KubeObject;
  });
  const byName = Object.fromEntries(
    selectors.map((s) => [s.metadata.name, (s as unknown as { spec: Record<string, unknown> }).spec]),
  );
  assert.deepEqual(Object.keys(byName), [
    "carm-account-111111111111",
    "carm-team-s3-team-a",
    "carm-team-team-a",
  ]);
  assert.deepEqual(byName["carm-account-111111111111"], {
    arn: roles.account,
    namespaceSelector: { names: ["mig-acct"] },
  });
  assert.equal(byName["carm-team-s3-team-a"]?.["arn"], roles.teamS3);
  assert.deepEqual(byName["carm-team-s3-team-a"]?.["resourceTypeSelector"], [
    { group: "s3.services.k8s.aws", version: "", kind: "" },
  ]);
  assert.equal(byName["carm-team-team-a"]?.["arn"], roles.team);
});

test("after the switch to IAMRoleSelector mode no resource changes role or account, and nothing is created", async () => {
  assert.ok(selectors.length > 0, "the previous test produced selectors");
  await e2e.apply(selectors);
  // Run again with the selectors in the cluster (they count in IAMRoleSelector mode): the same
  // output, still nothing would change — applying it twice is harmless.
  const again = await migrateOnline();
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout, firstOutput);
  const held = await inventory();
  await controller.stop();
  const selectorMode = await e2e.startController(
    ["--feature-gates=IAMRoleSelector=true", "--enable-carm=false"],
    {
      name: "migrate-selectors",
    },
  );

  await Promise.all(
    subjects.map(async ({ ns, kind, name }) => {
      const key = `${kind} ${ns}/${name}`;
      const want = expected[ns]!(kind);
      // The new controller's own decision for this resource: the same role, account and region.
      const decision = await waitFor(
        async () => selectorMode.logs().find((l) => l["event"] === "decision" && l["resource"] === key),
        { what: `the IAMRoleSelector-mode controller's decision for ${key}`, timeoutMs: 30_000 },
      );
      assert.equal(decision["outcome"], "use", `${key}: ${String(decision["msg"])}`);
      assert.equal(decision["roleARN"], want, `${key}: role`);
      assert.equal(decision["account"], accountOf(want), `${key}: account`);
      assert.equal(decision["source"], want === null ? "default" : "iamRoleSelector", `${key}: source`);
      // ... and a full reconcile after it (AWS read and status), so the inventory below is final.
      await waitFor(
        async () =>
          selectorMode
            .logs()
            .some((l) => l["key"] === `${ns}/${name}` && String(l["msg"]).startsWith("reconciled")),
        { what: `${key} reconciled by the IAMRoleSelector-mode controller`, timeoutMs: 30_000 },
      );
      const r = await waitFor(
        async () => {
          const now = await getResource(e2e.kube, kind, ns, name);
          const meta = now?.status?.ackResourceMetadata;
          const synced = now?.status?.conditions?.some(
            (c) => c.type === "ACK.ResourceSynced" && c.status === "True",
          );
          return synced && meta?.identity?.["source"] === decision["source"] ? now : undefined;
        },
        { what: `${key} synced with its identity recorded by the new controller`, timeoutMs: 30_000 },
      );
      const was = before_.get(key)?.ackResourceMetadata;
      const now = r.status?.ackResourceMetadata;
      assert.equal(now?.ownerAccountID, was?.ownerAccountID, `${key}: ownerAccountID`);
      assert.equal(now?.arn, was?.arn, `${key}: ARN`);
      assert.equal(now?.identity?.["roleARN"], was?.identity?.["roleARN"], `${key}: role in status`);
      assert.deepEqual(
        await accountsHoldingResource(endpoint, kind, name, now?.region ?? region, everyAccount),
        [accountOf(want)],
        `${key}: the accounts holding it`,
      );
    }),
  );
  assert.deepEqual(await inventory(), held, "every account holds exactly what it held before the switch");
});
