// Grants that had only unit tests, proven with the real controller process, apiserver and
// emulator (every placement checked as the owning account itself):
//   IAMRoleSelector mode — namespaceSelector.labelSelector, and a namespace label change that
//     routes a waiting resource within 2 s; resourceLabelSelector on the resource's own labels;
//   CARM mode — a resource-level owner-account-id with ResourceLevelCARM, honoured only for the
//     accounts the namespace lists; an identity edited in place whose allowedNamespaces shrinks
//     denies its resources within 2 s, and nothing more is created through it.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { accountsHoldingResource } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import {
  bucket,
  type ControllerProcess,
  condition,
  configMap,
  controllerAccount,
  type E2E,
  identity,
  namespace,
  region,
  startE2E,
  waitForCondition,
} from "./fixture.ts";

const accounts = [
  controllerAccount,
  "111111111111",
  "222222222222",
  "333333333333",
  "444444444444",
  "555555555555",
];
let e2e: E2E;
const holders = (name: string) =>
  accountsHoldingResource(e2e.stack.awsEndpoint ?? "", "Bucket", name, region, accounts);
const labelsPath = (ns: string) => `/api/v1/namespaces/${ns}`;

function selector(name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: "services.k8s.aws/v1alpha1",
    kind: "IAMRoleSelector",
    metadata: { name },
    spec,
  } as KubeObject;
}

before(async () => {
  e2e = await startE2E();
  await e2e.apply([
    namespace("ack-system"),
    // The controller's own credentials only as the source of the `edited` identity's chain
    // (every hop must admit the namespace): elsewhere a resource nothing grants is denied, never
    // created in the controller's account.
    identity("AWSControllerIdentity", "default", {
      allowedNamespaces: { list: ["ack-system", "grant-id-a", "grant-id-b"] },
    }),
  ]);
});
after(() => e2e?.stop());

describe("IAMRoleSelector mode", () => {
  let controller: ControllerProcess;
  before(async () => {
    await e2e.apply([
      namespace("grant-lbl", {}, { team: "none" }),
      namespace("grant-res"),
      selector("by-team-label", {
        arn: "arn:aws:iam::333333333333:role/blue",
        namespaceSelector: { labelSelector: { matchLabels: { team: "blue" } } },
      }),
      selector("by-resource-label", {
        arn: "arn:aws:iam::555555555555:role/gold",
        namespaceSelector: { names: ["grant-res"] },
        resourceLabelSelector: { matchLabels: { tier: "gold" } },
      }),
    ]);
    controller = await e2e.startController(["--feature-gates=IAMRoleSelector=true", "--enable-carm=false"], {
      name: "grants-selectors",
    });
  });
  after(() => controller?.stop());

  test("namespaceSelector.labelSelector: a namespace relabelled to match routes its waiting bucket within 2 s", async () => {
    await e2e.apply([bucket("grant-lbl", "waits")]);
    await waitForCondition(e2e.kube, "grant-lbl", "waits", "ACK.Recoverable", "True", "IdentityNotPermitted");
    assert.deepEqual(await holders("grant-lbl-waits"), [], "nothing created while no grant applies");

    await e2e.kube.request({
      method: "PATCH",
      path: labelsPath("grant-lbl"),
      contentType: "application/merge-patch+json",
      body: { metadata: { labels: { team: "blue" } } },
    });
    const t0 = performance.now();
    const b = await waitForCondition(
      e2e.kube,
      "grant-lbl",
      "waits",
      "ACK.ResourceSynced",
      "True",
      undefined,
      10_000,
    );
    const seconds = (performance.now() - t0) / 1000;
    assert.ok(seconds <= 2, `routed ${seconds.toFixed(2)} s after the label change (limit 2 s)`);
    assert.equal(b.status?.ackResourceMetadata?.iamRoleSelector?.["selectorName"], "by-team-label");
    assert.deepEqual(await holders("grant-lbl-waits"), ["333333333333"]);
  });

  test("resourceLabelSelector: only the resource carrying the label is placed by the selector", async () => {
    await e2e.apply([
      bucket("grant-res", "gold", {}, { labels: { tier: "gold" } }),
      bucket("grant-res", "plain", {}, { labels: { tier: "silver" } }),
    ]);
    const gold = await waitForCondition(e2e.kube, "grant-res", "gold", "ACK.ResourceSynced", "True");
    assert.equal(gold.status?.ackResourceMetadata?.ownerAccountID, "555555555555");
    assert.deepEqual(await holders("grant-res-gold"), ["555555555555"]);
    await waitForCondition(e2e.kube, "grant-res", "plain", "ACK.Recoverable", "True", "IdentityNotPermitted");
    assert.deepEqual(
      await holders("grant-res-plain"),
      [],
      "no selector matches it, and the default is not granted",
    );
  });
});

describe("CARM mode", () => {
  let controller: ControllerProcess;
  before(async () => {
    await e2e.apply([
      namespace("grant-rl", {
        "services.k8s.aws/owner-account-id": "111111111111",
        "services.k8s.aws/allowed-owner-account-ids": "111111111111,222222222222",
      }),
      namespace("grant-id-a"),
      namespace("grant-id-b"),
      configMap("ack-role-account-map", {
        "111111111111": "arn:aws:iam::111111111111:role/rl",
        "222222222222": "arn:aws:iam::222222222222:role/rl",
        "444444444444": "arn:aws:iam::444444444444:role/rl",
      }),
      identity("AWSRoleIdentity", "edited", {
        sourceIdentityRef: { kind: "AWSControllerIdentity", name: "default" },
        roleARN: "arn:aws:iam::444444444444:role/edited",
        allowedNamespaces: { list: ["grant-id-a", "grant-id-b"] },
      }),
    ]);
    controller = await e2e.startController(["--feature-gates=ResourceLevelCARM=true"], {
      name: "grants-carm",
    });
  });
  after(() => controller?.stop());

  test("a resource-level owner-account-id is honoured for a listed account and denied for any other", async () => {
    const own = (account: string) => ({ annotations: { "services.k8s.aws/owner-account-id": account } });
    await e2e.apply([
      bucket("grant-rl", "listed", {}, own("222222222222")),
      bucket("grant-rl", "unlisted", {}, own("444444444444")),
    ]);
    const listed = await waitForCondition(e2e.kube, "grant-rl", "listed", "ACK.ResourceSynced", "True");
    assert.equal(listed.status?.ackResourceMetadata?.ownerAccountID, "222222222222");
    assert.deepEqual(await holders("grant-rl-listed"), ["222222222222"]);

    const unlisted = await waitForCondition(
      e2e.kube,
      "grant-rl",
      "unlisted",
      "ACK.Recoverable",
      "True",
      "IdentityNotPermitted",
    );
    assert.match(condition(unlisted, "ACK.Recoverable")?.message ?? "", /444444444444/);
    assert.deepEqual(
      await holders("grant-rl-unlisted"),
      [],
      "the account map has a role for it, but the namespace does not list it",
    );
  });

  test("an identity edited in place: its shrunk allowedNamespaces denies within 2 s and creates nothing more", async () => {
    const ref = { identityRef: { kind: "AWSRoleIdentity", name: "edited" } };
    await e2e.apply([bucket("grant-id-a", "first", ref)]);
    await waitForCondition(e2e.kube, "grant-id-a", "first", "ACK.ResourceSynced", "True");
    assert.deepEqual(await holders("grant-id-a-first"), ["444444444444"]);

    await e2e.kube.request({
      method: "PATCH",
      path: "/apis/identity.crossrole.dev/v1alpha1/awsroleidentities/edited",
      contentType: "application/merge-patch+json",
      body: { spec: { allowedNamespaces: { list: ["grant-id-b"] } } },
    });
    const t0 = performance.now();
    const denied = await waitForCondition(
      e2e.kube,
      "grant-id-a",
      "first",
      "ACK.Recoverable",
      "True",
      "IdentityNotPermitted",
      10_000,
    );
    const seconds = (performance.now() - t0) / 1000;
    assert.ok(seconds <= 2, `denied ${seconds.toFixed(2)} s after the edit (limit 2 s)`);
    assert.match(condition(denied, "ACK.Recoverable")?.message ?? "", /AWSRoleIdentity edited/);

    await e2e.apply([bucket("grant-id-a", "second", ref)]);
    await waitForCondition(
      e2e.kube,
      "grant-id-a",
      "second",
      "ACK.Recoverable",
      "True",
      "IdentityNotPermitted",
    );
    assert.deepEqual(await holders("grant-id-a-second"), [], "nothing created through the withdrawn grant");
    // The namespace still allowed keeps using it.
    await e2e.apply([bucket("grant-id-b", "still", ref)]);
    await waitForCondition(e2e.kube, "grant-id-b", "still", "ACK.ResourceSynced", "True");
    await waitFor(async () => ((await holders("grant-id-b-still")).length === 1 ? true : undefined), {
      what: "grant-id-b-still in AWS",
      timeoutMs: 5_000,
    });
    assert.deepEqual(await holders("grant-id-b-still"), ["444444444444"]);
  });
});
