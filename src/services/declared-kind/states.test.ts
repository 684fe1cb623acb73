import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { heldBy, waitFor } from "./states.ts";

describe("a long-running object's states", () => {
  // Lambda's: a function is busy while created (State) or updated (LastUpdateStatus).
  const lambda = { member: ["State", "LastUpdateStatus"], busy: ["Pending", "InProgress"] } as const;

  it("with several members, the first holding a busy state says it; none busy, writable", () => {
    assert.equal(heldBy(lambda, { State: "Pending", LastUpdateStatus: "InProgress" }), "Pending");
    assert.equal(heldBy(lambda, { State: "Active", LastUpdateStatus: "InProgress" }), "InProgress");
    assert.equal(heldBy(lambda, { State: "Active", LastUpdateStatus: "Successful" }), undefined);
    assert.equal(
      heldBy(lambda, { State: "Failed" }),
      undefined,
      "an open list: only the busy states hold writes",
    );
  });

  it("one member and a list of ready states, as RDS's", () => {
    const rds = { member: "DBInstanceStatus", ready: ["available"] } as const;
    assert.equal(heldBy(rds, { DBInstanceStatus: "modifying" }), "modifying");
    assert.equal(heldBy(rds, { DBInstanceStatus: "available" }), undefined);
    assert.equal(waitFor(rds, "instance db", "RDS", "modifying").reason, "DBInstanceStatus");
    assert.equal(waitFor(lambda, "function f", "Lambda", "InProgress").reason, "State");
  });
});
