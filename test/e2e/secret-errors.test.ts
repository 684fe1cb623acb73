// A failed AWS call that carried a secret value shows none of AWS's message, anywhere, with the
// real controller process: DBInstance (the kind with a secret field today) whose master password
// is part of RDS's own words ("pass" in "...not a valid password..."). Cutting the password out
// of the message left "[redacted]word", which told anyone who may read the resource or its
// Events the value. The fault-injecting proxy answers CreateDBInstance and ModifyDBInstance as
// RDS does when it refuses a password (the emulator accepts any); the tests then read the
// conditions, the Events and the controller's whole log (debug level, with the errors' causes).
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import { waitFor } from "../../src/local-stack/wait.ts";
import { patchTypes } from "../../src/runtime/kube-client.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";
import {
  type ControllerProcess,
  condition,
  type E2E,
  namespace,
  startE2E,
  waitForEvent,
  waitForResourceCondition,
} from "./fixture.ts";

const ns = "pw";

/** What RDS answers when it refuses a master password; each password below is part of it. */
const refusals = {
  create: "The parameter MasterUserPassword is not a valid password because it is shorter than 8 characters.",
  modify:
    "The parameter MasterUserPassword is not a valid password. Only printable ASCII characters besides '/', '@', '\"', ' ' may be used.",
};
const passwords = {
  /** In "...not a valid password..." (create's refusal). */
  create: "pass",
  /** Accepted at creation. */
  first: "first-Pw-12345",
  /** In "Only printable ASCII characters..." (modify's refusal). */
  rotated: "printable",
};
/** Pieces of RDS's refusals (and of the old redaction) that must not show anywhere. */
const awsWords = ["not a valid", "shorter than 8", "printable ASCII", "besides", "[redacted]"];

let e2e: E2E;
let proxy: AwsProxy;
let controller: ControllerProcess;

function secret(name: string, password: string): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name, namespace: ns },
    stringData: { password },
  } as KubeObject;
}

function dbInstance(name: string, secretName: string): KubeObject {
  return {
    apiVersion: "rds.services.k8s.aws/v1alpha1",
    kind: "DBInstance",
    metadata: { name, namespace: ns },
    spec: {
      dbInstanceIdentifier: `${ns}-${name}`,
      dbInstanceClass: "db.t3.micro",
      engine: "postgres",
      allocatedStorage: 20,
      masterUsername: "admin_user",
      masterUserPassword: { name: secretName, key: "password" },
    },
  } as KubeObject;
}

/** RDS refusing `action` on instance `id` with `message`, as the SDK parses RDS's errors. */
function refuse(action: string, id: string, message: string): () => void {
  return proxy.addFault({
    name: `${action} refused`,
    match: (r) => r.action === action && r.params["DBInstanceIdentifier"] === id,
    respond: { status: 400, code: "InvalidParameterValue", message },
  });
}

before(async () => {
  e2e = await startE2E();
  proxy = await startAwsProxy(e2e.stack.awsEndpoint ?? "");
  await e2e.apply([
    namespace("ack-system"),
    namespace(ns),
    secret("refused-db", passwords.create),
    secret("rotated-db", passwords.first),
  ]);
  controller = await e2e.startController([], { awsEndpoint: proxy.endpoint });
});
after(async () => {
  await e2e?.stop();
  await proxy?.close();
});

/** Every Event in the namespace and the controller's whole log: none may hold RDS's words. */
async function assertNoAwsWords(): Promise<void> {
  const events = await e2e.kube.request<{ items: unknown[] }>({
    method: "GET",
    path: `/api/v1/namespaces/${ns}/events`,
  });
  const eventText = JSON.stringify(events.items);
  const logs = await readFile(controller.logFile, "utf8");
  // The failures are in the log (with their causes): what they say there is checked below.
  assert.ok(logs.includes("RDS's message is withheld"), "the log records the failures");
  for (const words of awsWords) {
    assert.ok(!eventText.includes(words), `"${words}" in an Event`);
    assert.ok(!logs.includes(words), `"${words}" in the controller's log`);
  }
  for (const value of [passwords.first]) {
    assert.ok(!logs.includes(value) && !eventText.includes(value), "a password in the log or an Event");
  }
}

test("a CreateDBInstance refused over a password that is part of RDS's message: code, field and hint, none of RDS's words", async () => {
  const id = `${ns}-refused`;
  refuse("CreateDBInstance", id, refusals.create);
  await e2e.apply([dbInstance("refused", "refused-db")]);
  const d = await waitForResourceCondition(e2e.kube, "DBInstance", ns, "refused", "ACK.Terminal", "True");
  // The refusal really answered a call that carried this password.
  const sent = proxy.calls("CreateDBInstance").filter((r) => r.params["DBInstanceIdentifier"] === id);
  assert.ok(sent.length > 0 && sent.every((r) => r.fault === "CreateDBInstance refused"));
  assert.equal(sent[0]?.params["MasterUserPassword"], passwords.create);

  const expected = `spec.masterUserPassword: CreateDBInstance on DB instance "${id}" failed with InvalidParameterValue; RDS's message is withheld because the call carried a secret (spec.masterUserPassword) (RDS refused the value of spec.masterUserPassword; fix spec.masterUserPassword and the DB instance is reconciled again)`;
  for (const type of ["ACK.Terminal", "ACK.ResourceSynced", "Ready"]) {
    assert.equal(condition(d, type)?.message, expected, type);
  }
  const event = await waitForEvent(e2e.kube, ns, "DBInstance", "refused", "AWSError", /withheld/);
  assert.equal(event.message, expected);
  await assertNoAwsWords();
});

test("a ModifyDBInstance refused over a rotated password that is part of RDS's message: the same, nothing of RDS's words", async () => {
  const id = `${ns}-rotated`;
  await e2e.apply([dbInstance("rotated", "rotated-db")]);
  await waitForResourceCondition(
    e2e.kube,
    "DBInstance",
    ns,
    "rotated",
    "ACK.ResourceSynced",
    "True",
    undefined,
    30_000,
  );
  refuse("ModifyDBInstance", id, refusals.modify);
  await e2e.kube.request({
    method: "PATCH",
    path: `/api/v1/namespaces/${ns}/secrets/rotated-db`,
    contentType: patchTypes.merge,
    body: { stringData: { password: passwords.rotated } },
  });
  const d = await waitForResourceCondition(e2e.kube, "DBInstance", ns, "rotated", "ACK.Terminal", "True");
  const modify = await waitFor(
    async () =>
      proxy
        .calls("ModifyDBInstance")
        .find((r) => r.params["DBInstanceIdentifier"] === id && r.fault === "ModifyDBInstance refused"),
    { what: "the refused ModifyDBInstance", timeoutMs: 5_000 },
  );
  assert.equal(modify.params["MasterUserPassword"], passwords.rotated);

  const message = condition(d, "ACK.Terminal")?.message ?? "";
  assert.match(
    message,
    new RegExp(
      `^spec\\.masterUserPassword: ModifyDBInstance on DB instance "${id}" failed with InvalidParameterValue; RDS's message is withheld because the call carried a secret \\(spec\\.masterUserPassword\\)`,
    ),
  );
  assert.match(message, /fix spec\.masterUserPassword and the DB instance is reconciled again/);
  await waitForEvent(e2e.kube, ns, "DBInstance", "rotated", "AWSError", /ModifyDBInstance.*withheld/);
  await assertNoAwsWords();
});
