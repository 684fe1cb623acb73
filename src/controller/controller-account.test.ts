import assert from "node:assert/strict";
import { test } from "node:test";
import { checkControllerAccount } from "./controller-account.ts";

const sts = { account: "123456789012", arn: "arn:aws:iam::123456789012:user/crossrole" };

test("STS decides the account; a flag that agrees, or none, is fine", () => {
  assert.deepEqual(checkControllerAccount({ flag: null, sts }), { ok: true, account: "123456789012" });
  assert.deepEqual(checkControllerAccount({ flag: "123456789012", sts }), {
    ok: true,
    account: "123456789012",
  });
});

test("a flag that disagrees with STS is refused, naming both accounts, the credentials and the fix", () => {
  const r = checkControllerAccount({ flag: "111111111111", sts });
  assert.equal(r.ok, false);
  assert.ok(!r.ok);
  assert.match(r.message, /told it acts in account 111111111111 \(--controller-account/);
  assert.match(r.message, /\(arn:aws:iam::123456789012:user\/crossrole\) are in account 123456789012/);
  assert.match(r.message, /Fix: set --controller-account=123456789012, or leave it out/);
});
