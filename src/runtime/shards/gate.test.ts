import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { type MemberState, mayAct } from "./gate.ts";
import { Assignment } from "./rendezvous.ts";

const view = (...m: string[]) => new Assignment(m);
const namespaces = Array.from({ length: 200 }, (_, i) => `ns-${i}`);
/** A namespace `owner` owns under `members`. */
const ownedBy = (owner: string, members: string[]) => {
  const a = view(...members);
  const ns = namespaces.find((n) => a.ownerOf(n) === owner);
  assert.ok(ns);
  return ns;
};

describe("mayAct", () => {
  test("alone, with its view acknowledged: every namespace", () => {
    const s: MemberState = { self: "a", view: view("a"), acknowledged: view("a"), peers: [], fenced: false };
    for (const n of namespaces) assert.deepEqual(mayAct(s, n), { act: true });
  });

  test("a member that could not renew its Lease in time acts on nothing", () => {
    const s: MemberState = { self: "a", view: view("a"), acknowledged: view("a"), peers: [], fenced: true };
    const r = mayAct(s, "ns-1");
    assert.equal(r.act, false);
    assert.match(r.act ? "" : r.why, /has not renewed its Lease in time/);
  });

  test("a newcomer takes a namespace only once the previous owner has acknowledged letting it go", () => {
    const ns = ownedBy("b", ["a", "b"]);
    // a acknowledged only itself: ns is still a's.
    const b: MemberState = {
      self: "b",
      view: view("a", "b"),
      acknowledged: view("a", "b"),
      peers: [{ name: "a", acknowledged: view("a") }],
      fenced: false,
    };
    const waiting = mayAct(b, ns);
    assert.equal(waiting.act, false);
    assert.match(waiting.act ? "" : waiting.why, /member a has not yet let ns-\d+ go/);
    // a drained and acknowledged the new view: b acts.
    assert.deepEqual(mayAct({ ...b, peers: [{ name: "a", acknowledged: view("a", "b") }] }, ns), {
      act: true,
    });
    // ... but not before b's own Lease says it acknowledged that view.
    const unpublished = mayAct(
      { ...b, acknowledged: undefined, peers: [{ name: "a", acknowledged: view("a", "b") }] },
      ns,
    );
    assert.match(unpublished.act ? "" : unpublished.why, /has not yet acknowledged the view/);
  });

  test("the old owner stops at once on seeing the newcomer, whatever it acknowledged", () => {
    const ns = ownedBy("b", ["a", "b"]);
    const a: MemberState = {
      self: "a",
      view: view("a", "b"),
      acknowledged: view("a"),
      peers: [],
      fenced: false,
    };
    const r = mayAct(a, ns);
    assert.equal(r.act, false);
    assert.equal(r.act ? undefined : r.owner, "b");
  });

  test("a killed member's namespaces move once it is no longer live (its Lease expired)", () => {
    const ns = ownedBy("b", ["a", "b"]);
    // b is gone from a's view (expired) and a has acknowledged that view.
    const a: MemberState = { self: "a", view: view("a"), acknowledged: view("a"), peers: [], fenced: false };
    assert.deepEqual(mayAct(a, ns), { act: true });
    // While b still counts as live, with b's acknowledged view giving ns to b: a waits.
    const r = mayAct(
      { ...a, view: view("a", "b"), peers: [{ name: "b", acknowledged: view("a", "b") }] },
      ns,
    );
    assert.equal(r.act, false);
  });

  test("two members who see each other never both act on a namespace, whatever their views", () => {
    const members = ["a", "b", "c", "d"];
    const sub = fc.subarray(members, { minLength: 1 });
    fc.assert(
      fc.property(
        sub,
        sub,
        fc.option(sub, { nil: undefined }),
        fc.option(sub, { nil: undefined }),
        fc.constantFrom(...namespaces),
        (vx, vy, ax, ay, ns) => {
          const x: MemberState = {
            self: "a",
            view: view(...vx, "a"),
            acknowledged: ax === undefined ? undefined : view(...ax, "a"),
            peers: [{ name: "b", acknowledged: ay === undefined ? undefined : view(...ay, "b") }],
            fenced: false,
          };
          const y: MemberState = {
            self: "b",
            view: view(...vy, "b"),
            acknowledged: ay === undefined ? undefined : view(...ay, "b"),
            peers: [{ name: "a", acknowledged: ax === undefined ? undefined : view(...ax, "a") }],
            fenced: false,
          };
          assert.ok(!(mayAct(x, ns).act && mayAct(y, ns).act), `both act on ${ns}`);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
