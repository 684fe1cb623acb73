import assert from "node:assert/strict";
import { test } from "node:test";
import { bucketCount, bucketOf } from "./buckets.ts";
import { Assignment, ownerOf } from "./rendezvous.ts";

const namespaces = Array.from({ length: 2000 }, (_, i) => `ns-${i}`);
const owners = (members: string[]) => new Map(namespaces.map((n) => [n, ownerOf(n, members)]));

test("every member gets a fair share, and every replica computes the same owner", () => {
  const members = ["a", "b", "c", "d"];
  const counts = new Map<string, number>();
  for (const owner of owners(members).values()) counts.set(owner ?? "", (counts.get(owner ?? "") ?? 0) + 1);
  for (const m of members) {
    const share = (counts.get(m) ?? 0) / namespaces.length;
    assert.ok(share > 0.2 && share < 0.3, `${m} owns ${share}`);
  }
  assert.deepEqual(owners(["d", "c", "b", "a"]), owners(members), "order does not matter");
  assert.equal(ownerOf("ns-1", []), undefined);
});

test("a member leaving moves only its own namespaces; one joining takes only from the others", () => {
  const before = owners(["a", "b", "c"]);
  const left = owners(["a", "c"]);
  for (const n of namespaces) if (before.get(n) !== "b") assert.equal(left.get(n), before.get(n), n);
  const joined = owners(["a", "b", "c", "d"]);
  let moved = 0;
  for (const n of namespaces) {
    if (joined.get(n) === before.get(n)) continue;
    assert.equal(joined.get(n), "d", `${n} moved to the newcomer only`);
    moved++;
  }
  assert.ok(moved / namespaces.length > 0.2 && moved / namespaces.length < 0.3, `moved ${moved}`);
});

test("Assignment: members as a set, owners computed once", () => {
  const a = new Assignment(["b", "a", "b"]);
  assert.deepEqual(a.members, ["a", "b"]);
  assert.ok(a.equals(["a", "b"]));
  assert.ok(!a.equals(["a"]));
  assert.ok(!a.equals(undefined));
  assert.equal(a.ownerOf("ns-7"), a.ownerOfBucket(bucketOf("ns-7")));
  assert.equal(a.ownerOf("ns-7"), ownerOf("ns-7", ["b", "a"]));
});

test("Assignment: namespaces go with their bucket; a member's buckets are its share of them", () => {
  const a = new Assignment(["a", "b", "c"]);
  const shares = a.members.map((m) => a.bucketsOf(m));
  assert.equal(shares.flat().length, bucketCount, "every bucket has one owner");
  assert.equal(new Set(shares.flat()).size, bucketCount);
  for (const share of shares) assert.ok(share.length > bucketCount / 4 && share.length < bucketCount / 2.4);
  for (const ns of namespaces.slice(0, 200)) {
    const owner = a.ownerOf(ns);
    assert.ok(owner !== undefined && a.bucketsOf(owner).includes(bucketOf(ns)), ns);
  }
  // A member that left: its buckets move, each to one of the others; nobody else's do.
  const left = new Assignment(["a", "c"]);
  for (const b of a.bucketsOf("a")) assert.equal(left.ownerOfBucket(b), "a");
});
