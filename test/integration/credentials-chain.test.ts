// Issue 4, against the real AWS emulator: a three-hop chain (controller -> role in
// 222222222222 -> role in 333333333333) yields credentials of 333333333333, resources made
// with them live there only, STS received exactly the configured parameters (checked at a
// recording proxy and in the emulator's own recorder), and every hop refreshes on its own.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { CreateQueueCommand, ListQueuesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { Registry } from "prom-client";
import { createCredentialService } from "../../src/credentials/service.ts";
import { type Emulator, startEmulator } from "../../src/local-stack/stack.ts";
import { sqsClientFactory } from "../../src/services/sqs/client.ts";
import { FakeClock } from "../../src/toolkit/fake-clock.ts";
import { type AwsProxy, startAwsProxy } from "../support/aws-proxy.ts";
import { controllerHop, roleHop, useDecision } from "../support/credential-decisions.ts";
import {
  captureLog,
  controllerKeys,
  issued,
  metricValue,
  useControllerEnvironment,
  whoAmI,
} from "../support/credentials-fixture.ts";
import { readMotoRecording } from "../support/moto-recording.ts";

const region = "us-east-1";
const billingRole = "arn:aws:iam::222222222222:role/billing";
const tenantRole = "arn:aws:iam::333333333333:role/tenant";
const shopQueue = { namespace: "shop", kind: "Queue", name: "orders" };
const policy = '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"sqs:*","Resource":"*"}]}';

let dir: string;
let emulator: Emulator;
let proxy: AwsProxy;
/** The emulator stamps expiry in real time; a test with a moved clock shifts it to that clock. */
let expirationShift: () => number = () => 0;
before(async () => {
  useControllerEnvironment();
  dir = await mkdtemp(join(tmpdir(), "crossrole-credentials-chain-"));
  emulator = await startEmulator({ dir, recording: true });
  proxy = await startAwsProxy(emulator.endpoint, { expirationShiftMs: () => expirationShift() });
});
after(async () => {
  await proxy?.close();
  await emulator?.stop();
  await rm(dir, { recursive: true, force: true });
});

function threeHopChain() {
  return [
    controllerHop,
    roleHop("billing", billingRole, {
      sessionName: "crossrole-billing",
      durationSeconds: 7200,
      externalID: "billing-external-id",
      inlinePolicy: policy,
      policyARNs: ["arn:aws:iam::aws:policy/AmazonSQSFullAccess", "arn:aws:iam::aws:policy/ReadOnlyAccess"],
      sessionTags: [
        { key: "team", value: "payments" },
        { key: "cost-center", value: "cc-42" },
      ],
      transitiveTagKeys: ["team"],
      sourceIdentity: "alice",
    }),
    roleHop("tenant", tenantRole, {
      sessionName: "crossrole-shop",
      durationSeconds: 7200,
      externalID: "tenant-external-id",
      tenantSessionTags: true,
    }),
  ];
}

describe("a three-hop chain against the emulator", () => {
  test("the default (non-assumed) keys act in account 123456789012", async () => {
    const service = createCredentialService({
      logger: captureLog().logger,
      registry: new Registry(),
      systemNamespace: "crossrole-system",
    });
    try {
      const decision = useDecision([controllerHop], { endpoint: proxy.endpoint });
      const who = await service.callerIdentity(decision);
      assert.equal(who.account, emulator.defaultAccount);
      assert.equal(emulator.defaultAccount, "123456789012");
      const credentials = await service.credentialsFor(decision);
      assert.equal(
        credentials.accessKeyId,
        controllerKeys.accessKeyId,
        "the SDK default chain read the environment",
      );
    } finally {
      service.close();
    }
  });

  test("controller -> 222222222222 -> 333333333333 acts in 333333333333 only, with exactly the configured parameters sent", async () => {
    proxy.clearRecording();
    const log = captureLog();
    const registry = new Registry();
    const service = createCredentialService({
      logger: log.logger,
      registry,
      systemNamespace: "crossrole-system",
    });
    try {
      const decision = useDecision(threeHopChain(), { endpoint: proxy.endpoint });
      const credentials = await service.credentialsFor(decision, shopQueue);

      // Checked outside the code under test: who these credentials are.
      const who = await whoAmI(emulator.endpoint, credentials);
      assert.equal(who.Account, "333333333333");
      assert.equal(who.Arn, "arn:aws:sts::333333333333:assumed-role/tenant/crossrole-shop");

      // A queue made through the service's SQS client lands in 333333333333 ...
      const sqs = await service.client(sqsClientFactory, decision, shopQueue);
      assert.equal(
        await service.client(sqsClientFactory, decision, shopQueue),
        sqs,
        "the client is reused for the same chain",
      );
      const created = await sqs.send(new CreateQueueCommand({ QueueName: "orders" }));
      assert.match(created.QueueUrl ?? "", /\/333333333333\/orders$/);
      // ... and nowhere else: not in the middle hop's account, not in the default account.
      const middle = await service.credentialsFor(
        useDecision(threeHopChain().slice(0, 2), { endpoint: proxy.endpoint }),
      );
      for (const [who, creds] of [
        ["222222222222", middle],
        ["123456789012", controllerKeys],
      ] as const) {
        const client = new SQSClient({ region, endpoint: emulator.endpoint, credentials: creds });
        const listed = await client.send(new ListQueuesCommand({}));
        client.destroy();
        assert.deepEqual(listed.QueueUrls ?? [], [], `no queue visible from ${who}`);
      }

      // What was sent, at the proxy: two AssumeRole calls, each signed by its source.
      const calls = proxy.calls("AssumeRole");
      assert.equal(calls.length, 2);
      const [first, second] = calls;
      assert.equal(first?.accessKeyId, controllerKeys.accessKeyId);
      assert.equal(second?.accessKeyId, middle.accessKeyId, "hop 3 is signed with hop 2's credentials");
      assert.deepEqual(first?.params, {
        Action: "AssumeRole",
        Version: "2011-06-15",
        RoleArn: billingRole,
        RoleSessionName: "crossrole-billing",
        DurationSeconds: "7200",
        ExternalId: "billing-external-id",
        Policy: policy,
        "PolicyArns.member.1.arn": "arn:aws:iam::aws:policy/AmazonSQSFullAccess",
        "PolicyArns.member.2.arn": "arn:aws:iam::aws:policy/ReadOnlyAccess",
        "Tags.member.1.Key": "team",
        "Tags.member.1.Value": "payments",
        "Tags.member.2.Key": "cost-center",
        "Tags.member.2.Value": "cc-42",
        "TransitiveTagKeys.member.1": "team",
        SourceIdentity: "alice",
      });
      assert.deepEqual(second?.params, {
        Action: "AssumeRole",
        Version: "2011-06-15",
        RoleArn: tenantRole,
        RoleSessionName: "crossrole-shop",
        // Asked for 7200; capped because the source is itself a role session.
        DurationSeconds: "3600",
        ExternalId: "tenant-external-id",
        "Tags.member.1.Key": "kubernetes-namespace",
        "Tags.member.1.Value": "shop",
        "Tags.member.2.Key": "kubernetes-kind",
        "Tags.member.2.Value": "Queue",
        "Tags.member.3.Key": "kubernetes-name",
        "Tags.member.3.Value": "orders",
        "TransitiveTagKeys.member.1": "kubernetes-namespace",
        "TransitiveTagKeys.member.2": "kubernetes-kind",
        "TransitiveTagKeys.member.3": "kubernetes-name",
      });

      // The emulator's own recorder saw the same two requests.
      const recorded = (await readMotoRecording(emulator.recordingPath!)).filter(
        (r) => r.params["Action"] === "AssumeRole",
      );
      assert.deepEqual(
        recorded.map((r) => r.params),
        calls.map((c) => c.params),
      );

      // Audit: one line per new credentials, with identity, chain, account, session, expiry.
      const lines = issued(log);
      assert.deepEqual(
        lines.map((l) => [l["identity"], l["account"], l["sessionName"], l["durationSeconds"]]),
        [
          ["AWSControllerIdentity/default", null, null, null],
          ["AWSRoleIdentity/billing", "222222222222", "crossrole-billing", 7200],
          ["AWSRoleIdentity/tenant", "333333333333", "crossrole-shop", 3600],
        ],
      );
      assert.deepEqual(lines[2]?.["chain"], [
        "AWSControllerIdentity/default",
        "AWSRoleIdentity/billing",
        "AWSRoleIdentity/tenant",
      ]);
      assert.equal(
        lines[2]?.["assumedRoleARN"],
        "arn:aws:sts::333333333333:assumed-role/tenant/crossrole-shop",
      );
      assert.ok(Date.parse(String(lines[2]?.["expiration"])) > Date.now());
      // Never a secret, a session token or a key ID in the log.
      const all = log.raw.join("");
      for (const c of [credentials, middle, controllerKeys]) {
        assert.ok(!all.includes(c.secretAccessKey), "a secret key was logged");
        assert.ok(!all.includes(c.accessKeyId), "an access key ID was logged");
        if ("sessionToken" in c && c.sessionToken)
          assert.ok(!all.includes(c.sessionToken), "a session token was logged");
      }

      assert.equal(
        await metricValue(registry, "crossrole_sts_calls_total", {
          operation: "AssumeRole",
          outcome: "success",
        }),
        2,
      );
    } finally {
      service.close();
    }
  });

  test("every hop refreshes on its own: the outer role's refresh uses the middle hop's NEW credentials", async () => {
    proxy.clearRecording();
    const clock = new FakeClock(Date.now());
    expirationShift = () => clock.now() - Date.now();
    const minute = 60_000;
    const service = createCredentialService({
      logger: captureLog().logger,
      registry: new Registry(),
      systemNamespace: "crossrole-system",
      clock,
      cache: { idleMs: 24 * 60 * minute },
      stsRateLimit: { ratePerSecond: 1000, burst: 1000 },
    });
    try {
      const chain = [
        controllerHop,
        roleHop("short", billingRole, { durationSeconds: 900, sessionName: "short" }),
        roleHop("long", tenantRole, { durationSeconds: 3600, sessionName: "long" }),
      ];
      const decision = useDecision(chain, { endpoint: proxy.endpoint });
      const middleDecision = useDecision(chain.slice(0, 2), { endpoint: proxy.endpoint });
      const outer1 = await service.credentialsFor(decision);
      const middle1 = await service.credentialsFor(middleDecision);

      // The middle hop (15 min) expires; the outer one (1 h) is untouched and still served.
      clock.advance(20 * minute);
      assert.equal((await service.credentialsFor(decision)).accessKeyId, outer1.accessKeyId);
      assert.equal(proxy.calls("AssumeRole").length, 2, "no STS call while the outer role is fresh");

      // Near the outer role's expiry it refreshes, re-reading its source, which refreshes too.
      clock.advance(36 * minute);
      const outer2 = await service.credentialsFor(decision);
      const middle2 = await service.credentialsFor(middleDecision);
      assert.notEqual(outer2.accessKeyId, outer1.accessKeyId);
      assert.notEqual(middle2.accessKeyId, middle1.accessKeyId);
      const calls = proxy.calls("AssumeRole");
      assert.deepEqual(
        calls.map((c) => [c.params["RoleArn"], c.accessKeyId]),
        [
          [billingRole, controllerKeys.accessKeyId],
          [tenantRole, middle1.accessKeyId],
          [billingRole, controllerKeys.accessKeyId],
          [tenantRole, middle2.accessKeyId],
        ],
      );
      assert.equal((await whoAmI(emulator.endpoint, outer2)).Account, "333333333333");
    } finally {
      expirationShift = () => 0;
      service.close();
    }
  });
});
