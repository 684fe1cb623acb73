// Properties of the resolver over random configurations and resources (issue 3, deliverable 5):
// it never throws (not even internally), its answer does not depend on list order, and `use`
// is never returned for a namespace that an identity in the chain does not admit.

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import {
  configObjects,
  reordered,
  resourceAndNamespace,
  settings,
} from "../../test/support/resolver-arbitraries.ts";
import { resolve } from "./resolve.ts";
import { buildSnapshot } from "./snapshot.ts";
import {
  clusterIdentityKey,
  controllerIdentityKey,
  serviceAccountIdentityKey,
} from "./snapshot-identities.ts";
import type { Snapshot } from "./snapshot-types.ts";
import type { Decision } from "./types.ts";

const numRuns = 10_000;

/** Every identity hop of a `use` decision admits the namespace (DESIGN §2.5, §3.1 step 1, §3.2). */
function checkChainAdmits(d: Decision, namespace: string, snapshot: Snapshot): void {
  if (d.outcome !== "use") return;
  const ns = snapshot.namespaces.get(namespace);
  assert.ok(ns !== undefined, "use for a namespace the snapshot does not know");
  for (const hop of d.chain) {
    if (hop.kind === "IAMRoleSelector" || hop.kind === "CARM") continue;
    if (hop.kind === "AWSServiceAccountIdentity") {
      assert.equal(hop.namespace, namespace, "AWSServiceAccountIdentity from another namespace");
      assert.ok(snapshot.identities.serviceAccount.has(serviceAccountIdentityKey(namespace, hop.name)));
      continue;
    }
    const key = clusterIdentityKey(hop.kind, hop.name);
    // The controller's credentials serve as the base to assume a role an IAMRoleSelector or a
    // CARM map grants; AWSControllerIdentity/default governs acting *as* the controller.
    if (
      key === controllerIdentityKey &&
      (d.source === "iamRoleSelector" || d.source === "accountCARM" || d.source === "teamCARM")
    )
      continue;
    assert.ok(!snapshot.identities.invalid.has(key), `${key} is invalid but was used`);
    const identity = snapshot.identities.cluster.get(key);
    if (identity === undefined) {
      assert.equal(key, controllerIdentityKey, `${key} does not exist but was used`);
      continue;
    }
    assert.ok(identity.allowedNamespaces?.allows(namespace, ns.labels), `${key} does not admit ${namespace}`);
  }
}

test(`resolver properties over ${numRuns} random configurations and resources`, () => {
  fc.assert(
    fc.property(
      configObjects,
      resourceAndNamespace,
      settings,
      fc.integer(),
      (objects, { resource, namespace }, s, seed) => {
        const snapshot = buildSnapshot(objects, s);
        const decision = resolve(resource, namespace, snapshot, s);

        // 1. Never throws — and not even an exception caught by resolve's guard.
        assert.doesNotMatch(decision.message, /internal resolver error/);
        assert.ok(decision.message.length > 0 && !decision.message.includes("\n"), "message is one line");
        assert.ok(decision.trace.length > 0, "the trace names the rules consulted");

        // 2. The same input in another order gives the same decision and the same problems.
        const shuffledSnapshot = buildSnapshot(reordered(objects, seed), s);
        assert.deepEqual(resolve(resource, namespace, shuffledSnapshot, s), decision);
        assert.deepEqual(shuffledSnapshot.problems, snapshot.problems);

        // 3. `use` only for namespaces every identity in the chain admits.
        checkChainAdmits(decision, namespace, snapshot);

        // 4. Fail closed: where CARM applies and the namespace asks for an account, `use`
        //    never means the controller's own credentials.
        const ns = snapshot.namespaces.get(namespace);
        const carmMode = s.enableCARM && !s.featureGates.IAMRoleSelector;
        if (
          carmMode &&
          decision.outcome === "use" &&
          ns?.ownerAccountId?.ok &&
          decision.source !== "identityRef"
        ) {
          assert.ok(
            decision.source === "accountCARM" || decision.source === "teamCARM",
            `fell back to ${decision.source}`,
          );
        }

        // 5. Non-use decisions never carry anything to call AWS with.
        if (decision.outcome !== "use") {
          assert.deepEqual([decision.roleARN, decision.account, decision.chain.length], [null, null, 0]);
        }
      },
    ),
    { numRuns },
  );
});

test("buildSnapshot never throws on arbitrary JSON-like input", () => {
  const anything = fc.array(fc.anything({ maxDepth: 3 }), { maxLength: 5 });
  fc.assert(
    fc.property(
      anything,
      anything,
      anything,
      anything,
      (namespaces, configMaps, iamRoleSelectors, identities) => {
        const s = buildSnapshot(
          { namespaces, configMaps, iamRoleSelectors, identities },
          { systemNamespace: "ack-system" },
        );
        assert.ok(Array.isArray(s.problems));
      },
    ),
    { numRuns: 2_000 },
  );
});
