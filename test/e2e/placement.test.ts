// Every served kind, through every route that picks an account, in ONE controller process per
// mode (DESIGN §3.1), each placement checked in the emulator with every candidate account's own
// credentials — exactly one account holds each resource, and it is the decided one:
//   CARM mode (TeamLevelCARM + ServiceLevelCARM on):
//     - namespace owner-account-id → the account map                    → 111111111111
//     - namespace team-id → the service-level team key `<service>.<team>` → 444444444444
//       (the team's plain key points at 333333333333: the service key must win)
//     - spec.identityRef → an AWSRoleIdentity that admits the namespace  → 222222222222
//   IAMRoleSelector mode: one selector per kind whose resourceTypeSelector names only that kind
//     → 555555555555 (five selectors match the namespace; only the kind disambiguates, so a
//     selector matching the wrong kind would be an IdentityConflict, not a placement).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { lookupKind } from "../../src/api/kinds.ts";
import { accountsHoldingResource } from "../../src/local-stack/accounts.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { minimalKinds, minimalResource, namespaceObjectsFor } from "../support/minimal-resources.ts";
import {
  type ControllerProcess,
  configMap,
  controllerAccount,
  type E2E,
  identity,
  namespace,
  region,
  startE2E,
  waitForResourceCondition,
} from "./fixture.ts";

const kinds = minimalKinds;
const accounts = [
  controllerAccount,
  "111111111111",
  "222222222222",
  "333333333333",
  "444444444444",
  "555555555555",
];
const serviceOf = (kind: string): string => lookupKind(kind)?.service ?? "";

/** The routes of CARM mode: namespace, extra spec, expected account and identity source. */
const carmRoutes = [
  { ns: "place-acct", spec: {}, account: "111111111111", source: "accountCARM" },
  { ns: "place-team", spec: {}, account: "444444444444", source: "teamCARM" },
  {
    ns: "place-ref",
    spec: { identityRef: { kind: "AWSRoleIdentity", name: "place-central" } },
    account: "222222222222",
    source: "identityRef",
  },
] as const;

let e2e: E2E;
let endpoint: string;

/** An AWS name unique to kind and namespace (lowercase, short enough for every service). */
const awsName = (kind: string, ns: string): string => `${ns}-${kind.toLowerCase()}`;

async function expectPlaced(kind: string, ns: string, account: string, source: string): Promise<void> {
  const r = await waitForResourceCondition(
    e2e.kube,
    kind,
    ns,
    "placed",
    "ACK.ResourceSynced",
    "True",
    undefined,
    30_000,
  );
  const meta = r.status?.ackResourceMetadata;
  assert.equal(meta?.ownerAccountID, account, `${kind} in ${ns}: status account`);
  assert.equal(meta?.identity?.["source"], source, `${kind} in ${ns}: identity source`);
  assert.deepEqual(
    await accountsHoldingResource(endpoint, kind, awsName(kind, ns), meta?.region ?? region, accounts),
    [account],
    `${kind} in ${ns}: the emulator's accounts holding it`,
  );
}

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint!;
  const teamMap: Record<string, string> = { payments: "arn:aws:iam::333333333333:role/payments" };
  for (const kind of kinds)
    teamMap[`${serviceOf(kind)}.payments`] = `arn:aws:iam::444444444444:role/payments-${serviceOf(kind)}`;
  const namespaces = ["place-acct", "place-team", "place-ref", "place-sel"];
  await e2e.apply([
    namespace("ack-system"),
    namespace("place-acct", { "services.k8s.aws/owner-account-id": "111111111111" }),
    namespace("place-team", { "services.k8s.aws/team-id": "payments" }),
    namespace("place-ref"),
    namespace("place-sel"),
    configMap("ack-role-account-map", { "111111111111": "arn:aws:iam::111111111111:role/accounts" }),
    configMap("ack-role-team-map", teamMap),
    identity("AWSControllerIdentity", "default", { allowedNamespaces: {} }),
    identity("AWSRoleIdentity", "place-central", {
      sourceIdentityRef: { kind: "AWSControllerIdentity", name: "default" },
      roleARN: "arn:aws:iam::222222222222:role/central",
      allowedNamespaces: { list: ["place-ref"] },
    }),
    ...namespaces.flatMap((ns) => namespaceObjectsFor(kinds, ns)),
  ]);
});
after(() => e2e?.stop());

describe("CARM mode: every kind through the account map, the service-level team key and identityRef", () => {
  let controller: ControllerProcess;
  before(async () => {
    controller = await e2e.startController(["--feature-gates=TeamLevelCARM=true,ServiceLevelCARM=true"], {
      name: "placement-carm",
    });
    await e2e.apply(
      carmRoutes.flatMap((route) =>
        kinds.map((kind) =>
          minimalResource(kind, route.ns, "placed", awsName(kind, route.ns), route.spec, route.account),
        ),
      ),
    );
  });
  after(() => controller?.stop());

  for (const route of carmRoutes) {
    test(`${route.source}: each of ${kinds.join(", ")} in ${route.account}, and only there`, async () => {
      await Promise.all(kinds.map((kind) => expectPlaced(kind, route.ns, route.account, route.source)));
    });
  }
});

describe("IAMRoleSelector mode: a selector whose resourceTypeSelector names one kind places that kind", () => {
  let controller: ControllerProcess;
  before(async () => {
    await e2e.apply(
      kinds.map(
        (kind) =>
          ({
            apiVersion: "services.k8s.aws/v1alpha1",
            kind: "IAMRoleSelector",
            metadata: { name: `place-${kind.toLowerCase()}` },
            spec: {
              arn: `arn:aws:iam::555555555555:role/selected-${serviceOf(kind)}`,
              namespaceSelector: { names: ["place-sel"] },
              resourceTypeSelector: [
                { apiVersion: `${lookupKind(kind)?.group}/${lookupKind(kind)?.version}`, kind },
              ],
            },
          }) as KubeObject,
      ),
    );
    controller = await e2e.startController(["--feature-gates=IAMRoleSelector=true", "--enable-carm=false"], {
      name: "placement-selectors",
    });
    await e2e.apply(
      kinds.map((kind) =>
        minimalResource(kind, "place-sel", "placed", awsName(kind, "place-sel"), {}, "555555555555"),
      ),
    );
  });
  after(() => controller?.stop());

  test(`each of ${kinds.join(", ")} in 555555555555 through its own selector`, async () => {
    await Promise.all(
      kinds.map(async (kind) => {
        await expectPlaced(kind, "place-sel", "555555555555", "iamRoleSelector");
        const r = await waitForResourceCondition(
          e2e.kube,
          kind,
          "place-sel",
          "placed",
          "ACK.IAMRoleSelected",
          "True",
        );
        assert.equal(
          r.status?.ackResourceMetadata?.iamRoleSelector?.["selectorName"],
          `place-${kind.toLowerCase()}`,
        );
      }),
    );
  });
});
