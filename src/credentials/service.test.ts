// Unit tests of the service's wiring with an in-process STS (pure logic only; the behaviour
// against real STS semantics is in test/integration/credentials*.test.ts).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { pino } from "pino";
import { Registry } from "prom-client";
import { controllerHop, roleHop, useDecision } from "../../test/support/credential-decisions.ts";
import { FakeClock } from "../toolkit/fake-clock.ts";
import { ExpiredCredentialsError, InvalidParameterError } from "./errors.ts";
import { createCredentialService } from "./service.ts";
import type { AssumeRoleRequest, StsApi } from "./sts.ts";

const roleA = "arn:aws:iam::222222222222:role/a";
const roleB = "arn:aws:iam::333333333333:role/b";

function fakeSts(clock: { now(): number }) {
  const calls: { request: AssumeRoleRequest; sourceKey: string }[] = [];
  let expiredOnce = false;
  let n = 0;
  const sts: StsApi = {
    async assumeRole({ source, request }) {
      calls.push({ request, sourceKey: source.key });
      await source.provider();
      if (expiredOnce) {
        expiredOnce = false;
        throw Object.assign(new Error("token expired"), {
          name: "ExpiredToken",
          $metadata: { httpStatusCode: 400 },
        });
      }
      n += 1;
      return {
        credentials: {
          accessKeyId: `ASIA${n}`,
          secretAccessKey: "s",
          sessionToken: "t",
          expiration: new Date(clock.now() + 3_600_000),
        },
        assumedRoleARN: `arn:aws:sts::${request.roleARN.split(":")[4]}:assumed-role/x/${request.sessionName}`,
      };
    },
    assumeRoleWithWebIdentity: async () => assert.fail("not used"),
    getCallerIdentity: async () => assert.fail("not used"),
  };
  return { sts, calls, expireNext: () => (expiredOnce = true) };
}

function service() {
  const clock = new FakeClock();
  const fake = fakeSts(clock);
  const svc = createCredentialService({
    logger: pino({ level: "silent" }),
    registry: new Registry(),
    systemNamespace: "crossrole-system",
    sts: fake.sts,
    controllerChain: () => async () => ({ accessKeyId: "AKIACONTROLLER", secretAccessKey: "s" }),
    clock,
    sleep: clock.sleep,
    random: () => 0,
  });
  return { svc, clock, ...fake };
}

describe("createCredentialService", () => {
  test("a refused decision stays refused even when the same chain was planned before", async () => {
    const { svc } = service();
    const chain = [controllerHop, roleHop("a", roleA)];
    await svc.credentialsFor(useDecision(chain));
    await assert.rejects(
      svc.credentialsFor({ ...useDecision(chain), outcome: "deny" }),
      InvalidParameterError,
    );
    await assert.rejects(
      svc.credentialsFor({ ...useDecision(chain), drift: { kind: "region", message: "m" } }),
      InvalidParameterError,
    );
  });

  test("tenant-tagged chains get per-resource credentials; plain chains share them", async () => {
    const { svc, calls } = service();
    const plain = useDecision([controllerHop, roleHop("a", roleA)]);
    const tenant = useDecision([controllerHop, roleHop("b", roleB, { tenantSessionTags: true })]);
    const q1 = { namespace: "shop", kind: "Queue", name: "one" };
    const q2 = { namespace: "shop", kind: "Queue", name: "two" };
    await Promise.all([svc.credentialsFor(plain, q1), svc.credentialsFor(plain, q2)]);
    assert.equal(calls.length, 1);
    await Promise.all([
      svc.credentialsFor(tenant, q1),
      svc.credentialsFor(tenant, q2),
      svc.credentialsFor(tenant, q1),
    ]);
    assert.equal(calls.length, 3);
    assert.deepEqual(
      calls.slice(1).map((c) => c.request.tags?.find((t) => t.key === "kubernetes-name")?.value),
      ["one", "two"],
    );
  });

  test("STS saying the source expired makes the source refresh, then one retry", async () => {
    const { svc, calls, expireNext } = service();
    const decision = useDecision([controllerHop, roleHop("a", roleA), roleHop("b", roleB)]);
    await svc.credentialsFor(decision);
    assert.equal(calls.length, 2);
    svc.cache.invalidate((await svc.plan(decision)).key);
    expireNext();
    const creds = await svc.credentialsFor(decision);
    // b: ExpiredToken -> invalidate a -> a refreshed -> b again.
    assert.deepEqual(
      calls.slice(2).map((c) => c.request.roleARN),
      [roleB, roleA, roleB],
    );
    assert.equal(creds.accessKeyId, "ASIA4");
  });

  test("an expired source that stays expired surfaces as ExpiredCredentialsError after one retry", async () => {
    const clock = new FakeClock();
    let calls = 0;
    const svc = createCredentialService({
      logger: pino({ level: "silent" }),
      registry: new Registry(),
      systemNamespace: "crossrole-system",
      controllerChain: () => async () => ({ accessKeyId: "AKIACONTROLLER", secretAccessKey: "s" }),
      sts: {
        async assumeRole() {
          calls += 1;
          throw Object.assign(new Error("expired"), {
            name: "ExpiredToken",
            $metadata: { httpStatusCode: 400 },
          });
        },
        assumeRoleWithWebIdentity: async () => assert.fail("not used"),
        getCallerIdentity: async () => assert.fail("not used"),
      },
      clock,
      sleep: clock.sleep,
    });
    await assert.rejects(
      svc.credentialsFor(useDecision([controllerHop, roleHop("a", roleA)])),
      ExpiredCredentialsError,
    );
    assert.equal(calls, 2);
  });

  test("providers handed to the SDK say they are memoized, so the SDK does not cache on top", async () => {
    const { svc } = service();
    const provider = svc.providerFor(await svc.plan(useDecision([controllerHop, roleHop("a", roleA)])));
    assert.equal(provider.memoized, true);
    assert.equal((await provider()).accessKeyId, "ASIA1");
  });
});
