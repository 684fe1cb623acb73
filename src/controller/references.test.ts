import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  asSeenBy,
  judgeReference,
  judgeReferencedInAws,
  type Referenced,
  type ReferencedInAws,
  type SetReference,
  setReferences,
  withValueAt,
} from "./references.ts";

const ref: SetReference = {
  path: "spec.dbSubnetGroupRef",
  plain: "dbSubnetGroupName",
  at: ["dbSubnetGroupName"],
  source: 0,
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

  test("a kind in no region (IAM's roles): any region's referrer may name it; another account still never", () => {
    const elsewhere = target({ decision: { outcome: "use", account: "111111111111", region: "us-east-1" } });
    assert.deepEqual(judgeReference(ref, referrer, elsewhere, "name", false, true), {
      ok: true,
      value: "shop-db-subnets-aws",
    });
    const account = failure(
      judgeReference(
        ref,
        referrer,
        target({ decision: { outcome: "use", account: "222222222222", region: "eu-west-1" } }),
        "name",
        false,
        true,
      ),
    );
    assert.equal(account.state.reason, "ReferenceAccountMismatch");
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

  test("an account only STS can name (static keys) is not judged here: judgeReferencedInAws holds it", () => {
    const staticKeys = { ...referrer, account: null };
    assert.deepEqual(judgeReference(ref, staticKeys, target(), "name", false), {
      ok: true,
      value: "shop-db-subnets-aws",
    });
    assert.deepEqual(judge(target({ decision: { outcome: "use", account: null, region: "eu-west-1" } })), {
      ok: true,
      value: "shop-db-subnets-aws",
    });
  });

  test("the name comes from the spec, never from status: a forged status changes nothing it gives", () => {
    const forged = target({ spec: { name: "mine" } });
    assert.deepEqual(judge({ ...forged, synced: { status: "True", observedGeneration: 2 } }), {
      ok: true,
      value: "mine",
    });
  });
});

describe("judgeReferencedInAws", () => {
  const found = (over: Partial<ReferencedInAws> = {}): ReferencedInAws => ({
    referrerAccount: "111111111111",
    referencedAccount: "111111111111",
    ownership: { kind: "ours" },
    readOnly: false,
    awsName: "shop-db-subnets-aws",
    region: "eu-west-1",
    ...over,
  });
  const judgeAws = (f: ReferencedInAws) => judgeReferencedInAws(ref, "DBInstance", f);
  const refusal = (j: ReturnType<typeof judgeAws>) => {
    if (j.ok) return assert.fail("expected a refusal");
    return j;
  };

  test("the same account, and the AWS object tagged as the referenced resource's own: it holds", () => {
    assert.deepEqual(judgeAws(found()), { ok: true });
  });

  test("accounts STS named apart (static keys on either side): Terminal naming both", () => {
    const j = refusal(judgeAws(found({ referencedAccount: "222222222222" })));
    assert.equal(j.state.kind, "terminal");
    assert.equal(j.state.reason, "ReferenceAccountMismatch");
    assert.match(
      j.state.message,
      /placed in account 222222222222, but this DBInstance is placed in account 111111111111/,
    );
  });

  test("nothing under the name in the referrer's account yet: wait, naming the account and region", () => {
    const j = refusal(judgeAws(found({ ownership: undefined })));
    assert.equal(j.state.kind, "recoverable");
    assert.equal(j.state.reason, "ReferenceNotInAWS");
    assert.equal(j.wait, true);
    assert.match(
      j.state.message,
      /no DBSubnetGroup "shop-db-subnets-aws" exists in account 111111111111 \(eu-west-1\)/,
    );
  });

  test("another object's, or untagged (a refused resource with a forged Synced status): Terminal, nothing lent", () => {
    const other = refusal(
      judgeAws(found({ ownership: { kind: "other", owner: "DBSubnetGroup/platform/net", uid: "u-2" } })),
    );
    assert.equal(other.state.kind, "terminal");
    assert.equal(other.state.reason, "ReferenceNotOwned");
    assert.match(
      other.state.message,
      /is not that resource's own \(owned by DBSubnetGroup\/platform\/net \(uid u-2\)\)/,
    );
    const untagged = refusal(judgeAws(found({ ownership: { kind: "untagged" } })));
    assert.equal(untagged.state.reason, "ReferenceNotOwned");
    const earlier = refusal(judgeAws(found({ ownership: { kind: "earlier", uid: "u-0" } })));
    assert.equal(earlier.state.reason, "ReferenceNotOwned");
  });

  test("a read-only referenced resource observes an object it never tags: untagged holds for it", () => {
    assert.deepEqual(judgeAws(found({ ownership: { kind: "untagged" }, readOnly: true })), { ok: true });
    const other = refusal(
      judgeAws(
        found({ ownership: { kind: "other", owner: "DBSubnetGroup/x/y", uid: "u-3" }, readOnly: true }),
      ),
    );
    assert.equal(other.state.reason, "ReferenceNotOwned");
  });
});

describe("asSeenBy: what a referrer learns of another namespace's object", () => {
  const elsewhere: SetReference = { ...ref, namespace: "net" };
  const seen = (j: ReturnType<typeof judge> | ReturnType<typeof judgeReferencedInAws>) =>
    j.ok ? assert.fail("expected a refusal") : asSeenBy(j, elsewhere, referrer);
  const refusals = [
    judge(undefined, elsewhere, true),
    judge(target({ deleting: true }), elsewhere, true),
    judge(target({ decision: { outcome: "deny", account: null, region: null } }), elsewhere, true),
    judge(target({ synced: undefined }), elsewhere, true),
    judge(
      target({ decision: { outcome: "use", account: "222222222222", region: "eu-west-1" } }),
      elsewhere,
      true,
    ),
    judge(
      target({ decision: { outcome: "use", account: "111111111111", region: "us-east-1" } }),
      elsewhere,
      true,
    ),
    judgeReferencedInAws(elsewhere, "DBInstance", {
      referrerAccount: "111111111111",
      referencedAccount: "222222222222",
      ownership: { kind: "ours" },
      readOnly: false,
      awsName: "x",
      region: "eu-west-1",
    }),
    judgeReferencedInAws(elsewhere, "DBInstance", {
      referrerAccount: "111111111111",
      referencedAccount: "111111111111",
      ownership: { kind: "other", owner: "DBSubnetGroup/net/other", uid: "u-9" },
      readOnly: false,
      awsName: "x",
      region: "eu-west-1",
    }),
  ];

  test("missing, deleting, unplaced, unsynced, another account or region, not its own in AWS: one and the same answer", () => {
    const answers = refusals.map((j) => seen(j));
    for (const a of answers) assert.deepEqual(a, answers[0]);
    const one = answers[0] ?? assert.fail();
    assert.equal(one.state.kind, "recoverable");
    assert.equal(one.state.reason, "ReferenceUnavailable");
    assert.equal(one.wait, true);
    assert.match(one.state.message, /DBSubnetGroup net\/shop-db-subnets in another namespace/);
    assert.match(
      one.state.message,
      /account 111111111111 and region eu-west-1/,
      "its own account and region",
    );
    assert.doesNotMatch(one.state.message, /222222222222|us-east-1|u-9|DBSubnetGroup\/net\/other/);
  });

  test("in its own namespace, the precise reason; cross-namespace references off: ReferenceNotAllowed as before", () => {
    const own = judge(target({ decision: { outcome: "use", account: "222222222222", region: "eu-west-1" } }));
    const ownRefused = own.ok ? assert.fail() : own;
    assert.equal(asSeenBy(ownRefused, ref, referrer), ownRefused);
    const off = judge(target(), elsewhere, false);
    const offRefused = off.ok ? assert.fail() : off;
    assert.equal(asSeenBy(offRefused, elsewhere, referrer).state.reason, "ReferenceNotAllowed");
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
          at: ["dbSubnetGroupName"],
          source: 0,
          kind: "DBSubnetGroup",
          namespace: "shop",
          name: "a",
        },
        {
          path: "spec.kmsKeyRef",
          plain: "kmsKeyID",
          at: ["kmsKeyID"],
          source: 1,
          kind: "Key",
          namespace: "keys",
          name: "k",
        },
      ],
    );
    assert.deepEqual(setReferences({ dbSubnetGroupRef: { from: {} } }, refs, "shop"), []);
  });

  test("inside objects, in lists of objects, and one per item of a list of references", () => {
    const nested = [
      { path: ["replication", "roleRef"], plain: "role", kind: "Role" },
      { path: ["policyRefs"], plain: "policies", kind: "Policy" },
      { path: ["rules", "[]", "groupRef"], plain: "groupID", kind: "SecurityGroup" },
    ];
    const set = setReferences(
      {
        replication: { roleRef: { from: { name: "r" } } },
        policyRefs: [{ from: { name: "p1" } }, { from: { name: "p2", namespace: "iam" } }],
        rules: [{}, { groupRef: { from: { name: "g" } } }],
      },
      nested,
      "shop",
    );
    assert.deepEqual(
      set.map((r) => [r.path, r.plain, r.at, r.source, `${r.namespace}/${r.name}`]),
      [
        ["spec.replication.roleRef", "replication.role", ["replication", "role"], 0, "shop/r"],
        ["spec.policyRefs[0]", "policies", ["policies", 0], 1, "shop/p1"],
        ["spec.policyRefs[1]", "policies", ["policies", 1], 1, "iam/p2"],
        ["spec.rules[1].groupRef", "rules[1].groupID", ["rules", 1, "groupID"], 2, "shop/g"],
      ],
    );
  });

  test("withValueAt fills a copy: objects and lists made on the way, the original untouched", () => {
    const spec = { replication: { rules: [{ id: "a" }] }, name: "b" };
    const role = withValueAt(spec, ["replication", "role"], "arn:r");
    const filled = withValueAt(withValueAt(role, ["policies", 0], "arn:p1"), ["policies", 1], "arn:p2");
    assert.deepEqual(filled, {
      replication: { rules: [{ id: "a" }], role: "arn:r" },
      name: "b",
      policies: ["arn:p1", "arn:p2"],
    });
    assert.deepEqual(spec, { replication: { rules: [{ id: "a" }] }, name: "b" });
  });
});
