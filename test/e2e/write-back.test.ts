// What the controller writes back to its own resources, with the real controller process:
//   - a Queue whose kmsMasterKeyID names another account's key (or an alias) is Synced: the
//     emulator's SqsManagedSseEnabled "true" beside the key is not copied into a spec the
//     Queue schema would refuse (issue 19, item 6: every late-initialising PATCH was a 422);
//   - a value AWS hands back that the schema cannot record is one clear Terminal condition
//     naming the field, the value and the fix, written once: no refused write, no retry loop;
//     setting the field in the spec fixes it;
//   - a Kubernetes write the apiserver refuses is reported as that call ("PATCH spec of Queue
//     ns/name failed: 422 ..."), never as an AWS error (item 11), and is not retried.
// Writes are counted with the controller's own metric (rest_client_requests_total by code) and
// reconciles of one object with its log lines.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  SQSClient,
} from "@aws-sdk/client-sqs";
import { waitFor } from "../../src/local-stack/wait.ts";
import { KubeApiError } from "../../src/runtime/kube-client.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { minimalResource } from "../support/minimal-resources.ts";
import {
  type ControllerProcess,
  clientAs,
  condition,
  configMap,
  type E2E,
  getResource,
  identity,
  namespace,
  patchResource,
  startE2E,
  waitForResourceCondition,
} from "./fixture.ts";

const X = "111111111111";
const ownerAccount = "services.k8s.aws/owner-account-id";
const resyncSeconds = 2;
const otherAccountsKey = "arn:aws:kms:us-east-1:222222222222:key/1234abcd-12ab-34cd-56ef-1234567890ab";

let e2e: E2E;
let controller: ControllerProcess;

/** A Queue `name` in `ns` whose AWS name is `<ns>-<name>`. */
function queue(
  ns: string,
  name: string,
  spec: Record<string, unknown> = {},
  metadata: Record<string, unknown> = {},
): KubeObject {
  const q = minimalResource("Queue", ns, name, `${ns}-${name}`, spec);
  return { ...q, metadata: { ...q.metadata, ...metadata } };
}

/** Denies every change of a Queue's spec in namespaces labelled frozen=true (status is its own resource). */
const frozenSpecs: KubeObject[] = [
  {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingAdmissionPolicy",
    metadata: { name: "frozen-queue-specs" },
    spec: {
      failurePolicy: "Fail",
      matchConstraints: {
        resourceRules: [
          {
            apiGroups: ["sqs.services.k8s.aws"],
            apiVersions: ["*"],
            operations: ["UPDATE"],
            resources: ["queues"],
          },
        ],
      },
      validations: [
        { expression: "object.spec == oldObject.spec", message: "Queue specs are frozen in this namespace" },
      ],
    },
  } as KubeObject,
  {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingAdmissionPolicyBinding",
    metadata: { name: "frozen-queue-specs" },
    spec: {
      policyName: "frozen-queue-specs",
      validationActions: ["Deny"],
      matchResources: { namespaceSelector: { matchLabels: { frozen: "true" } } },
    },
  } as KubeObject,
];

before(async () => {
  e2e = await startE2E();
  await e2e.apply([
    namespace("ack-system"),
    namespace("wb", { [ownerAccount]: X }),
    namespace("wb-frozen", { [ownerAccount]: X }, { frozen: "true" }),
    // Frozen too, but no identity may act there: a Queue in it is never reconciled into AWS.
    namespace("wb-probe", { [ownerAccount]: X }, { frozen: "true" }),
    configMap("ack-role-account-map", { [X]: `arn:aws:iam::${X}:role/wb` }),
    identity("AWSControllerIdentity", "default", { allowedNamespaces: { list: ["wb", "wb-frozen"] } }),
  ]);
  controller = await e2e.startController([`--reconcile-resource-resync-seconds=Queue=${resyncSeconds}`]);
});
after(() => e2e?.stop());

const sqsAs = (account: string) => clientAs(SQSClient, e2e.stack.awsEndpoint ?? "", account);

async function attributesIn(account: string, name: string): Promise<Record<string, string>> {
  const sqs = await sqsAs(account);
  const url = (await sqs.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl;
  return (
    (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] }))).Attributes ??
    {}
  );
}

/** Requests of this controller to the apiserver answered with `code` (all methods). */
async function answered(code: number): Promise<number> {
  const text = await (await fetch(`${controller.metricsURL}/metrics`)).text();
  let sum = 0;
  for (const m of text.matchAll(/^rest_client_requests_total\{([^}]*)\} (\d+)$/gm))
    if (m[1]?.includes(`code="${code}"`)) sum += Number(m[2]);
  return sum;
}

/** The reconciles this controller ran for one object, by their log lines. */
function reconcilesOf(ns: string, name: string): number {
  const ids = new Set<unknown>();
  for (const line of controller.logs())
    if (line["key"] === `${ns}/${name}` && line["reconcileID"] !== undefined) ids.add(line["reconcileID"]);
  return ids.size;
}

/**
 * Waits until three Queue resync periods have passed with the object's reconcile count and the
 * controller's refused writes unchanged, and returns them; fails at once if either moves. A
 * retried failure would reconcile again within the first period's backoff.
 */
async function quietFor(ns: string, name: string): Promise<{ reconciles: number; refused: number }> {
  const start = { reconciles: reconcilesOf(ns, name), refused: await answered(422) };
  const since = performance.now();
  return waitFor(
    async () => {
      const now = { reconciles: reconcilesOf(ns, name), refused: await answered(422) };
      assert.deepEqual(now, start, `${ns}/${name} is reconciled or refused again: a loop`);
      return performance.now() - since >= 3 * resyncSeconds * 1000 ? now : undefined;
    },
    { what: `${ns}/${name} quiet for three resync periods`, timeoutMs: 3 * resyncSeconds * 1000 + 10_000 },
  );
}

/**
 * Waits until the controller's refused writes have not moved for two resync periods (a Synced
 * object is resynced every period; a refused one is Terminal and left alone: neither writes).
 */
async function refusalsSettled(): Promise<void> {
  let last = -1;
  let since = performance.now();
  await waitFor(
    async () => {
      const now = await answered(422);
      if (now !== last) {
        last = now;
        since = performance.now();
        return false;
      }
      return performance.now() - since >= 2 * resyncSeconds * 1000;
    },
    { what: "the controller's refused writes settled", timeoutMs: 30_000 },
  );
}

test("a Queue whose kmsMasterKeyID names another account's key, or an alias, is Synced; no write of the controller is refused", async () => {
  await e2e.apply([
    queue("wb", "foreign-key", { kmsMasterKeyID: otherAccountsKey }),
    queue("wb", "alias-key", { kmsMasterKeyID: "alias/aws/sqs" }),
  ]);
  for (const [name, key] of [
    ["foreign-key", otherAccountsKey],
    ["alias-key", "alias/aws/sqs"],
  ] as const) {
    const q = await waitForResourceCondition(e2e.kube, "Queue", "wb", name, "ACK.ResourceSynced", "True");
    // Late-initialised: what SQS decides beside a key, and nothing that contradicts the key.
    assert.equal(q.spec?.["kmsDataKeyReusePeriodSeconds"], "300");
    assert.equal(q.spec?.["visibilityTimeout"], "30");
    assert.equal(q.spec?.["sqsManagedSSEEnabled"], undefined);
    assert.equal(q.spec?.["kmsMasterKeyID"], key);
    assert.equal((await attributesIn(X, `wb-${name}`))["KmsMasterKeyId"], key);
  }
  assert.equal(await answered(422), 0, "the apiserver refused none of the controller's writes");
});

test("a value AWS hands back that the Queue schema cannot record: one Terminal condition naming field, value and fix; no refused write, no loop", async () => {
  // A limit AWS raised after this schema was written, played by the emulator (which takes a
  // VisibilityTimeout beyond SQS's 43200 s): adopting the queue would copy it into the spec.
  const name = "wb-odd";
  await (await sqsAs(X)).send(
    new CreateQueueCommand({ QueueName: name, Attributes: { VisibilityTimeout: "50000" } }),
  );
  const refusedBefore = await answered(422);
  await e2e.apply([
    queue("wb", "odd", {}, { annotations: { "services.k8s.aws/adoption-policy": "adopt-or-create" } }),
  ]);
  const q = await waitForResourceCondition(
    e2e.kube,
    "Queue",
    "wb",
    "odd",
    "ACK.Terminal",
    "True",
    "UnrecordableValue",
  );
  const message = condition(q, "ACK.Terminal")?.message ?? "";
  assert.match(
    message,
    /^AWS's value for spec\.visibilityTimeout \("50000"\) cannot be recorded in this Queue's spec: /,
  );
  assert.match(message, /from 0 to 43200 seconds/, "the schema's own limit");
  assert.match(message, /Fix: set spec\.visibilityTimeout in the spec/);
  assert.equal(condition(q, "ACK.ResourceSynced")?.status, "False");
  assert.equal(q.spec?.["visibilityTimeout"], undefined, "nothing written to the spec");
  assert.equal(q.spec?.["delaySeconds"], undefined, "not even the values the schema accepts");

  const quiet = await quietFor("wb", "odd");
  assert.equal(quiet.refused, refusedBefore, "no write was refused: it was never sent");

  // The fix the condition names.
  await patchResource(e2e.kube, "Queue", "wb", "odd", { spec: { visibilityTimeout: "60" } });
  const fixed = await waitForResourceCondition(e2e.kube, "Queue", "wb", "odd", "ACK.ResourceSynced", "True");
  assert.equal(condition(fixed, "ACK.Terminal"), undefined);
  assert.equal((await attributesIn(X, name))["VisibilityTimeout"], "60");
  assert.equal(fixed.spec?.["delaySeconds"], "0", "the other defaults recorded now");
});

test("a Kubernetes write the apiserver refuses names the Kubernetes call and the apiserver's words, not AWS; it is not retried", async () => {
  await e2e.apply(frozenSpecs);
  // The policy is in force once the apiserver refuses a spec change in a frozen namespace.
  await e2e.apply([queue("wb-probe", "probe")]);
  let tries = 0;
  await waitFor(
    async () => {
      try {
        // A new value each time: a patch that changes nothing is no change to refuse.
        const delaySeconds = String(++tries);
        await patchResource(e2e.kube, "Queue", "wb-probe", "probe", { spec: { delaySeconds } });
        return false;
      } catch (err) {
        if (err instanceof KubeApiError && err.status === 422) return true;
        throw err;
      }
    },
    { what: "the ValidatingAdmissionPolicy in force", timeoutMs: 20_000 },
  );

  // The probe's own reconciles (each of the patches above queues one) may still send a write the
  // policy refuses: the count of refused writes is the controller's, not per object, so the probe
  // must be settled before it is read.
  await refusalsSettled();
  const refusedBefore = await answered(422);
  await e2e.apply([queue("wb-frozen", "orders")]);
  const q = await waitForResourceCondition(
    e2e.kube,
    "Queue",
    "wb-frozen",
    "orders",
    "ACK.Terminal",
    "True",
    "KubernetesError",
  );
  const message = condition(q, "ACK.Terminal")?.message ?? "";
  // The late-initialising spec PATCH is the write refused (it clears the create's intent, an
  // annotation, in the same request).
  assert.match(message, /^PATCH spec and metadata of Queue wb-frozen\/orders failed: 422 Invalid: /);
  assert.match(message, /Queue specs are frozen in this namespace/, "the apiserver's words");
  assert.match(message, /admission policy/, "the fix names what may refuse it");
  assert.doesNotMatch(message, /AWSError|KubeApiError|GetQueueAttributes/);
  assert.notEqual(condition(q, "ACK.ResourceSynced")?.reason, "AWSError");

  const quiet = await quietFor("wb-frozen", "orders");
  assert.equal(quiet.refused, refusedBefore + 1, "the refused write was sent once, not retried");
  const q2 = await getResource(e2e.kube, "Queue", "wb-frozen", "orders");
  assert.equal(q2?.spec?.["delaySeconds"], undefined);
});
