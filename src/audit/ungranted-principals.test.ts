// The accounts a namespace is granted (every reach of the audit's, actual or potential) and the
// policy documents letting in others: what the controller warns of or refuses, and explain lists.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  configMap,
  controllerIdentity,
  namespace,
  role,
  settingsWith,
} from "../../test/support/resolver-fixtures.ts";
import { resourceKinds } from "../api/kinds.ts";
import { buildSnapshot } from "../resolver/snapshot.ts";
import type { ConfigObjects } from "../resolver/types.ts";
import { computeAudit } from "./compute.ts";
import { namespaceAccounts } from "./namespace-accounts.ts";
import { ungrantedPrincipals } from "./ungranted-principals.ts";

// ResourceLevelCARM: the allowed-owner-account-ids annotation is a potential reach.
const settings = settingsWith({ gates: { ResourceLevelCARM: true } });
const objects: ConfigObjects = {
  namespaces: [
    namespace("shop", {
      "services.k8s.aws/owner-account-id": "111111111111",
      "services.k8s.aws/allowed-owner-account-ids": "222222222222",
    }),
    namespace("other"),
  ],
  configMaps: [
    configMap("ack-role-account-map", {
      "111111111111": role("111111111111", "shop"),
      "222222222222": role("222222222222", "billing"),
    }),
  ],
  identities: [controllerIdentity({ list: ["other"] })],
};
const trust = (...accounts: string[]) =>
  JSON.stringify({
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Principal: { AWS: accounts }, Action: "sts:AssumeRole" }],
  });

describe("namespaceAccounts: what each namespace is granted", () => {
  test("actual and potential reaches, by account; the controller's own credentials by its account; the namespace alone as the whole cluster's audit says; remembered", () => {
    const snapshot = buildSnapshot(objects, settings);
    const input = { snapshot, settings, kinds: resourceKinds };
    const shop = namespaceAccounts(input, "shop");
    assert.deepEqual(shop, { accounts: ["111111111111", "222222222222"], unknown: false });
    assert.deepEqual(namespaceAccounts(input, "other"), { accounts: ["999999999999"], unknown: false });
    assert.equal(namespaceAccounts(input, "shop"), shop, "remembered with the snapshot");
    assert.deepEqual(namespaceAccounts(input, "nowhere"), { accounts: [], unknown: false });
    const whole = computeAudit({ ...input, source: { from: "files", detail: "test" } });
    for (const ns of ["shop", "other"]) {
      const accounts = whole.reaches.filter((r) => r.namespace === ns).map((r) => r.account ?? "");
      assert.deepEqual(namespaceAccounts(input, ns).accounts, [...new Set(accounts)].sort());
    }
  });
});

describe("ungrantedPrincipals", () => {
  const shop = { accounts: ["111111111111", "222222222222"], unknown: false };

  test("granted accounts, the resource's own and services pass; another account is named with the field and the fix", () => {
    assert.deepEqual(
      ungrantedPrincipals(
        { doc: trust("111111111111", "222222222222") },
        ["doc"],
        "shop",
        shop,
        "111111111111",
      ),
      [],
    );
    assert.deepEqual(
      ungrantedPrincipals({ doc: trust("444444444444") }, ["doc"], "shop", shop, "444444444444"),
      [],
    );
    const [found, ...rest] = ungrantedPrincipals(
      { doc: trust("111111111111", "333333333333") },
      ["doc"],
      "shop",
      shop,
      "111111111111",
    );
    assert.equal(rest.length, 0);
    assert.deepEqual(found?.accounts, ["333333333333"]);
    assert.equal(found?.certain, true);
    assert.equal(
      found?.why,
      "spec.doc lets in account 333333333333, which namespace shop is not granted (the accounts it may act in: 111111111111, 222222222222)",
    );
    assert.equal(
      found?.fix,
      "remove it from spec.doc, or have an administrator grant namespace shop that account",
    );
  });

  test("every account (*) is never granted; a field left out or not JSON is nothing", () => {
    const star = JSON.stringify({ Statement: [{ Effect: "Allow", Principal: "*", Action: "sqs:*" }] });
    const [found] = ungrantedPrincipals({ policy: star }, ["policy", "other"], "shop", shop, "111111111111");
    assert.equal(found?.everyone, true);
    assert.equal(found?.certain, true, "every account is never granted, whatever STS would say");
    assert.match(
      found?.why ?? "",
      /^spec\.policy lets in every AWS account \(Principal "\*" with no condition\)/,
    );
    assert.deepEqual(ungrantedPrincipals({ policy: "{" }, ["policy"], "shop", shop, null), []);
  });

  test("a namespace with a reach only STS can name says so", () => {
    const [found] = ungrantedPrincipals(
      { doc: trust("333333333333") },
      ["doc"],
      "dev",
      { accounts: [], unknown: true },
      null,
    );
    assert.match(found?.why ?? "", /\(the accounts it may act in: none, and one only STS can name\)$/);
    assert.equal(
      found?.certain,
      false,
      "the account only STS can name may be the one trusted: never refused",
    );
    const [own] = ungrantedPrincipals(
      { doc: trust("333333333333") },
      ["doc"],
      "dev",
      { accounts: [], unknown: false },
      null,
    );
    assert.equal(own?.certain, false, "the resource's own account known only from STS: likewise");
  });
});
