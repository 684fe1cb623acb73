import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { judgeReference, type Referenced, type SetReference, setReferences } from "./references.ts";

const ref: SetReference = {
  path: "spec.dbSubnetGroupRef",
  plain: "dbSubnetGroupName",
  kind: "DBSubnetGroup",
  namespace: "shop",
  name: "shop-db-subnets",
};
const referrer = { kind: "DBInstance", namespace: "shop", account: "111111111111", region: "eu-west-1" };
const target = (over: Partial<Referenced> = {}): Referenced => ({
  spec: { name: "shop-db-subnets-aws" },
  generation: 2,
  deleting: false,
  synced: { status: "True", observedGeneration: 2 },
  decision: { outcome: "use", account: "111111111111", region: "eu-west-1" },
  ...over,
});
const judge = (t: Referenced | undefined, r: SetReference = ref, allowCrossNamespace = false) =>
  judgeReference(r, referrer, t, "name", allowCrossNamespace);
const failure = (j: ReturnType<typeof judge>) => {
  assert.equal(j.ok, false);
  return j.ok ? assert.fail() : j;
};

describe("judgeReference", () => {
  test("a Synced object in the same namespace, account and region gives its AWS name from its spec", () => {
    assert.deepEqual(judge(target()), { ok: true, value: "shop-db-subnets-aws" });
  });

  test("another namespace: refused unless cross-namespace references are allowed", () => {
    const other = { ...ref, namespace: "platform" };
    const refused = failure(judge(target(), other));
    assert.equal(refused.state.kind, "terminal");
    assert.equal(refused.state.reason, "ReferenceNotAllowed");
    assert.match(
      refused.state.message,
      /DBSubnetGroup platform\/shop-db-subnets in another namespace.*--allow-cross-namespace-references/,
    );
    assert.deepEqual(judge(target(), other, true), { ok: true, value: "shop-db-subnets-aws" });
  });

  test("placed in another account, or another region: Terminal naming both; never the other team's object", () => {
    const account = failure(
      judge(target({ decision: { outcome: "use", account: "222222222222", region: "eu-west-1" } })),
    );
    assert.equal(account.state.kind, "terminal");
    assert.equal(account.state.reason, "ReferenceAccountMismatch");
    assert.match(
      account.state.message,
      /placed in account 222222222222, but this DBInstance is placed in account 111111111111/,
    );
    const region = failure(
      judge(target({ decision: { outcome: "use", account: "111111111111", region: "us-east-1" } })),
    );
    assert.equal(region.state.reason, "ReferenceRegionMismatch");
  });

  test("not there, being deleted, not placed, or not Synced for its generation: wait, saying for what", () => {
    for (const [t, reason] of [
      [undefined, "ReferenceNotFound"],
      [target({ deleting: true }), "ReferenceDeleting"],
      [target({ decision: { outcome: "deny", account: null, region: null } }), "ReferenceNotPlaced"],
      // Its status records another account than it is decided in now (forged, or moved): not settled.
      [
        target({
          decision: {
            outcome: "use",
            account: "111111111111",
            region: "eu-west-1",
            drift: { message: "recorded in account 333333333333" },
          },
        }),
        "ReferenceNotPlaced",
      ],
      [target({ synced: { status: "False", observedGeneration: 2 } }), "ReferenceNotSynced"],
      // A Synced condition written for an older generation says nothing of the current spec.
      [target({ synced: { status: "True", observedGeneration: 1 } }), "ReferenceNotSynced"],
      [target({ spec: {} }), "ReferenceNotSynced"],
    ] as const) {
      const j = failure(judge(t));
      assert.equal(j.state.kind, "recoverable", reason);
      assert.equal(j.state.reason, reason);
      assert.equal(j.wait, true);
    }
  });

  test("the name comes from the spec, never from status: a forged status changes nothing it gives", () => {
    const forged = target({ spec: { name: "mine" } });
    assert.deepEqual(judge({ ...forged, synced: { status: "True", observedGeneration: 2 } }), {
      ok: true,
      value: "mine",
    });
  });
});

describe("setReferences", () => {
  const refs = [
    { path: ["dbSubnetGroupRef"], plain: "dbSubnetGroupName", kind: "DBSubnetGroup" },
    { path: ["kmsKeyRef"], plain: "kmsKeyID", kind: "Key" },
  ];

  test("the top-level references a spec sets, in the resource's namespace unless it names one", () => {
    assert.deepEqual(
      setReferences(
        { dbSubnetGroupRef: { from: { name: "a" } }, kmsKeyRef: { from: { name: "k", namespace: "keys" } } },
        refs,
        "shop",
      ),
      [
        {
          path: "spec.dbSubnetGroupRef",
          plain: "dbSubnetGroupName",
          kind: "DBSubnetGroup",
          namespace: "shop",
          name: "a",
        },
        { path: "spec.kmsKeyRef", plain: "kmsKeyID", kind: "Key", namespace: "keys", name: "k" },
      ],
    );
    assert.deepEqual(setReferences({ dbSubnetGroupRef: { from: {} } }, refs, "shop"), []);
  });
});
