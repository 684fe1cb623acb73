// The controller's own account, and creates that cannot loop (issue "operator mistakes must be
// loud, never wrong"):
//   - told an account (--controller-account) that STS contradicts for its credentials, the
//     controller refuses to start, naming both accounts and the fix, and touches nothing in AWS
//     (it used to record the wrong ownerAccountID, miss every read, and create a Topic 35 times);
//   - whatever makes a read miss an object the controller just created, there is one create call
//     per recorded intent: the next reconciles wait for it (CreatePending), they do not create again.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { accountsHoldingResource } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";
import { minimalResource } from "../support/minimal-resources.ts";
import {
  condition,
  controllerAccount,
  type E2E,
  eventsAbout,
  namespace,
  region,
  startE2E,
  waitForResourceCondition,
} from "./fixture.ts";

const ns = "own-account";
const accounts = [controllerAccount, "111111111111", "222222222222"];

let e2e: E2E;
let proxy: AwsProxy;

before(async () => {
  e2e = await startE2E();
  proxy = await startAwsProxy(e2e.stack.awsEndpoint ?? "");
  await e2e.apply([namespace("ack-system"), namespace(ns)]);
});
after(async () => {
  await e2e?.stop();
  await proxy?.close();
});

const holding = (kind: string, name: string) =>
  accountsHoldingResource(e2e.stack.awsEndpoint ?? "", kind, name, region, accounts);

test("--controller-account contradicting STS: the controller refuses to start, naming both accounts and the fix; nothing is created", async () => {
  await e2e.apply([minimalResource("Topic", ns, "announcements", "own-account-announcements")]);
  const wrong = "111111111111";
  const c = await e2e.startController([`--controller-account=${wrong}`], { waitReady: false });
  await waitFor(() => c.exited, { what: "the controller to exit", timeoutMs: 30_000 });
  assert.equal(await c.stop(), 2, "exit code 2: bad input");
  const line = c.logs().find((l) => l["event"] === "controller.account-mismatch");
  assert.ok(line, "one log line says why");
  assert.equal(line["claimed"], wrong);
  assert.equal(line["sts"], controllerAccount);
  assert.match(String(line["msg"]), new RegExp(`told it acts in account ${wrong}`));
  assert.match(String(line["msg"]), new RegExp(`Fix: set --controller-account=${controllerAccount}`));
  assert.deepEqual(await holding("Topic", "own-account-announcements"), [], "nothing created anywhere");
});

test("a create whose object the next reads do not find is not sent again: one CreateTopic per intent, CreatePending until it shows", async () => {
  const name = "own-account-unseen";
  // AWS made it, but every read says it is not there (a wrong account in the ARN did exactly this).
  const remove = proxy.addFault({
    name: "topic unseen",
    match: (r) => r.action === "GetTopicAttributes" && (r.params["TopicArn"] ?? "").endsWith(`:${name}`),
    respond: { status: 404, code: "NotFound", message: "Topic does not exist" },
  });
  const creates = () => proxy.calls("CreateTopic").filter((r) => r.params["Name"] === name).length;
  const c = await e2e.startController(["--create-intent-window-seconds=120"], {
    name: "agreeing",
    awsEndpoint: proxy.endpoint,
  });
  try {
    await e2e.apply([minimalResource("Topic", ns, "unseen", name)]);
    const pending = await waitForResourceCondition(
      e2e.kube,
      "Topic",
      ns,
      "unseen",
      "ACK.ResourceSynced",
      "False",
      "CreatePending",
    );
    assert.match(
      condition(pending, "ACK.ResourceSynced")?.message ?? "",
      /requested at \S+Z: AWS did not say whether it was made, so it is not sent again; looking for it until \S+Z/,
    );
    // Several more looks at it (the pending create is polled), and still one create.
    const reads = proxy.calls("GetTopicAttributes").length;
    await waitFor(() => proxy.calls("GetTopicAttributes").length >= reads + 3, {
      what: "three more reads of the unseen topic",
      timeoutMs: 20_000,
    });
    assert.equal(creates(), 1, "one create call per intent");

    remove();
    await waitForResourceCondition(e2e.kube, "Topic", ns, "unseen", "ACK.ResourceSynced", "True");
    assert.equal(creates(), 1, "found, not created again");
    const created = (await eventsAbout(e2e.kube, ns, "Topic", "unseen")).filter(
      (e) => e.reason === "Created",
    );
    assert.equal(created.length, 1, "one Created Event");
    assert.deepEqual(await holding("Topic", name), [controllerAccount]);
  } finally {
    remove();
    await c.stop();
  }
});
