// Alice's story end to end, with the real controller process: the same namespace's buckets
// land in two accounts, and the same identity reference from another namespace is denied.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { repoRoot } from "../harness/versions.ts";
import { bucketsIn, condition, controllerAccount, type E2E, startE2E, waitForCondition } from "./fixture.ts";

let e2e: E2E;
before(async () => {
  e2e = await startE2E();
  await e2e.apply(join(repoRoot, "examples/alice"));
  await e2e.startController();
});
after(() => e2e?.stop());

test("shop-assets lands in Alice's team account 111111111111 through the CARM account map", async () => {
  const b = await waitForCondition(e2e.kube, "shop", "shop-assets", "ACK.ResourceSynced", "True");
  assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, "111111111111");
  assert.equal(b.status?.ackResourceMetadata?.region, "eu-west-1");
  assert.deepEqual(b.status?.ackResourceMetadata?.identity, {
    source: "accountCARM",
    roleARN: "arn:aws:iam::111111111111:role/shop-team",
    sessionName: "crossrole-111111111111",
  });
  assert.ok((await bucketsIn(e2e.stack.awsEndpoint!, "111111111111")).includes("shop-assets"));
});

test("shop-billing-exports lands in central IT's account 222222222222 through spec.identityRef", async () => {
  const b = await waitForCondition(e2e.kube, "shop", "shop-billing-exports", "Ready", "True");
  assert.equal(b.status?.ackResourceMetadata?.ownerAccountID, "222222222222");
  assert.equal(b.status?.ackResourceMetadata?.arn, "arn:aws:s3:::shop-billing-exports");
  assert.deepEqual(await bucketsIn(e2e.stack.awsEndpoint!, "222222222222"), ["shop-billing-exports"]);
  assert.ok(!(await bucketsIn(e2e.stack.awsEndpoint!, "111111111111")).includes("shop-billing-exports"));
});

test("the same identityRef from namespace sandbox is denied and nothing is created anywhere", async () => {
  const b = await waitForCondition(
    e2e.kube,
    "sandbox",
    "sandbox-billing-exports",
    "ACK.Recoverable",
    "True",
    "IdentityNotPermitted",
  );
  const message = condition(b, "ACK.Recoverable")?.message ?? "";
  assert.match(message, /AWSRoleIdentity central-it/);
  assert.match(message, /namespace sandbox/);
  assert.equal(condition(b, "ACK.ResourceSynced")?.status, "False");
  assert.equal(b.status?.ackResourceMetadata, undefined);
  for (const account of ["111111111111", "222222222222", controllerAccount]) {
    assert.ok(
      !(await bucketsIn(e2e.stack.awsEndpoint!, account)).includes("sandbox-billing-exports"),
      account,
    );
  }
});
