import assert from "node:assert/strict";
import { test } from "node:test";
import type { Decision } from "../resolver/types.ts";
import { type Candidate, proveTakeover, type Seen } from "./proof.ts";

const use = (account: string | null = "111111111111") =>
  ({
    outcome: account ? "use" : "deny",
    account,
    region: "us-east-1",
    message: "denied: no grant",
  }) as unknown as Decision;
const ackTags = { "services.k8s.aws/controller-version": "s3-v1.10.0", "services.k8s.aws/namespace": "shop" };

function candidate(name: string, o: Partial<Candidate> = {}): Candidate {
  return {
    kind: "Bucket",
    service: "s3",
    group: "s3.services.k8s.aws",
    namespace: "shop",
    name,
    uid: `uid-${name}`,
    finalizers: ["finalizers.s3.services.k8s.aws/Bucket"],
    recordedAccount: "111111111111",
    identifier: `aws-${name}`,
    decision: use(),
    ...o,
  };
}
const prove = (cs: Candidate[], seen: Record<string, Seen>) =>
  Object.fromEntries(
    proveTakeover(cs, new Map(Object.entries(seen))).map((r) => [r.name, [r.verdict, r.why]]),
  );

test("ready: ACK's object of this namespace, in the granted account, named by no other object", () => {
  const rows = prove([candidate("a")], { "Bucket/shop/a": { found: true, tags: ackTags } });
  assert.equal(rows["a"]?.[0], "ready");
  assert.match(
    rows["a"]?.[1] ?? "",
    /"aws-a" in account 111111111111 \(us-east-1\) exists, carries ACK's tags \(s3-v1\.10\.0, namespace shop\)/,
  );
});

test("each refusal names its reason", () => {
  const rows = prove(
    [
      candidate("denied", { decision: use(null) }),
      candidate("moved", { recordedAccount: "222222222222" }),
      candidate("twin-1", { identifier: "shared" }),
      candidate("twin-2", { identifier: "shared" }),
      candidate("missing"),
      candidate("elsewhere"),
      candidate("broken"),
      candidate("plain"),
      candidate("foreign"),
      candidate("others"),
      candidate("unparsed", { identifier: undefined }),
    ],
    {
      "Bucket/shop/missing": { found: false },
      "Bucket/shop/elsewhere": { found: false, heldElsewhere: "owned by another AWS account" },
      "Bucket/shop/broken": { error: "AccessDenied" },
      "Bucket/shop/plain": { found: true, tags: {} },
      "Bucket/shop/foreign": { found: true, tags: { ...ackTags, "services.k8s.aws/namespace": "billing" } },
      "Bucket/shop/others": {
        found: true,
        tags: { "services.k8s.aws/owner-uid": "uid-x", "services.k8s.aws/owner": "Bucket/b/x" },
      },
    },
  );
  const why = (n: string) => {
    assert.equal(rows[n]?.[0], "refused", n);
    return rows[n]?.[1] ?? "";
  };
  assert.match(why("denied"), /not granted an account today/);
  assert.match(
    why("moved"),
    /ACK placed it in account 222222222222, but shop is granted account 111111111111/,
  );
  assert.match(why("twin-1"), /Bucket shop\/twin-2 also name "shared"/);
  assert.match(why("twin-2"), /Bucket shop\/twin-1 also name "shared"/);
  assert.match(why("missing"), /does not exist: nothing to take over/);
  assert.match(why("elsewhere"), /owned by another AWS account/);
  assert.match(why("broken"), /could not be read: AccessDenied/);
  assert.match(why("plain"), /does not carry ACK's tags .*adoption-policy/);
  assert.match(why("foreign"), /made it for namespace billing, not for shop/);
  assert.match(why("others"), /crossrole's owner tags for another object/);
  assert.match(why("unparsed"), /spec does not parse/);
});

test("done when already crossrole's; skipped when ACK never managed it", () => {
  const rows = prove(
    [candidate("ours"), candidate("fresh", { finalizers: [], recordedAccount: undefined })],
    {
      "Bucket/shop/ours": {
        found: true,
        tags: { "services.k8s.aws/owner-uid": "uid-ours", "services.k8s.aws/owner": "Bucket/shop/ours" },
      },
    },
  );
  assert.equal(rows["ours"]?.[0], "done");
  assert.equal(rows["fresh"]?.[0], "skipped");
});

test("an object elsewhere than the region decided today is refused, naming the region and the fix", () => {
  const rows = prove(
    [candidate("recorded", { recordedRegion: "eu-west-1" }), candidate("lives"), candidate("here")],
    {
      "Bucket/shop/recorded": { found: true, tags: ackTags },
      "Bucket/shop/lives": { found: true, tags: ackTags, region: "us-west-2" },
      "Bucket/shop/here": { found: true, tags: ackTags, region: "us-east-1" },
    },
  );
  assert.deepEqual(rows["recorded"], [
    "refused",
    "ACK placed it in region eu-west-1, but it is decided into us-east-1 today: annotate it services.k8s.aws/region: eu-west-1 (or the namespace's services.k8s.aws/default-region) first",
  ]);
  assert.deepEqual(rows["lives"], [
    "refused",
    '"aws-lives" in account 111111111111 (us-east-1) lives in region us-west-2: annotate it services.k8s.aws/region: us-west-2 (or the namespace\'s services.k8s.aws/default-region) first',
  ]);
  assert.equal(rows["here"]?.[0], "ready");
});
