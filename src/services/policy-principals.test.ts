import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { principalAccounts } from "./policy-principals.ts";

const doc = (...statements: unknown[]) => JSON.stringify({ Version: "2012-10-17", Statement: statements });
const allow = (principal: unknown, extra: object = {}) => ({
  Effect: "Allow",
  Principal: principal,
  Action: "sts:AssumeRole",
  ...extra,
});

describe("principalAccounts: the accounts a policy document lets in", () => {
  test("account IDs and IAM/STS ARNs name their account; each once, sorted", () => {
    assert.deepEqual(
      principalAccounts(
        doc(
          allow({ AWS: "222222222222" }),
          allow({
            AWS: [
              "arn:aws:iam::111111111111:root",
              "arn:aws:iam::333333333333:role/deploy",
              "arn:aws:sts::111111111111:assumed-role/ci/session",
            ],
          }),
        ),
      ),
      { accounts: ["111111111111", "222222222222", "333333333333"], everyone: false },
    );
  });

  test("services and web identity providers name no account; an identity provider ARN names its own", () => {
    assert.deepEqual(
      principalAccounts(
        doc(
          allow({ Service: "ec2.amazonaws.com" }),
          allow({ Federated: "accounts.google.com" }),
          allow({ Federated: "arn:aws:iam::444444444444:oidc-provider/oidc.eks.amazonaws.com/id/X" }),
        ),
      ),
      { accounts: ["444444444444"], everyone: false },
    );
  });

  test("* and NotPrincipal let every account in, unless a condition narrows it", () => {
    assert.equal(principalAccounts(doc(allow("*"))).everyone, true);
    assert.equal(principalAccounts(doc(allow({ AWS: "*" }))).everyone, true);
    assert.equal(
      principalAccounts(doc({ Effect: "Allow", NotPrincipal: { AWS: "111111111111" }, Action: "*" }))
        .everyone,
      true,
    );
    const narrowed = allow("*", { Condition: { StringEquals: { "aws:PrincipalOrgID": "o-1" } } });
    assert.deepEqual(principalAccounts(doc(narrowed)), { accounts: [], everyone: false });
  });

  test("Deny statements, a single statement object, and what is no policy document", () => {
    assert.deepEqual(principalAccounts(doc({ Effect: "Deny", Principal: { AWS: "222222222222" } })), {
      accounts: [],
      everyone: false,
    });
    assert.deepEqual(
      principalAccounts(JSON.stringify({ Statement: allow({ AWS: "555555555555" }) })).accounts,
      ["555555555555"],
    );
    for (const notOne of ["not json", "[]", "null", undefined, 42]) {
      assert.deepEqual(principalAccounts(notOne), { accounts: [], everyone: false });
    }
  });
});
