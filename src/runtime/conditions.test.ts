import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  type Condition,
  conditionsEqual,
  findCondition,
  formatTime,
  isConditionTrue,
  removeCondition,
  setCondition,
  setConditions,
} from "./conditions.ts";

const t0 = new Date("2024-05-01T10:00:00.123Z");
const t1 = new Date("2024-05-01T10:05:00.999Z");

describe("setCondition (apimachinery SetStatusCondition semantics)", () => {
  test("adds a new condition stamped with the given time, at second precision", () => {
    const out = setCondition(
      undefined,
      { type: "Ready", status: "False", reason: "Creating", observedGeneration: 1 },
      t0,
    );
    assert.deepEqual(out, [
      {
        type: "Ready",
        status: "False",
        reason: "Creating",
        lastTransitionTime: "2024-05-01T10:00:00Z",
        observedGeneration: 1,
      },
    ]);
  });

  test("keeps lastTransitionTime when the status does not change, but takes the new reason, message and generation", () => {
    const first = setCondition(
      [],
      { type: "Ready", status: "False", reason: "A", message: "a", observedGeneration: 1 },
      t0,
    );
    const second = setCondition(
      first,
      { type: "Ready", status: "False", reason: "B", message: "b", observedGeneration: 2 },
      t1,
    );
    assert.deepEqual(second, [
      {
        type: "Ready",
        status: "False",
        reason: "B",
        message: "b",
        lastTransitionTime: "2024-05-01T10:00:00Z",
        observedGeneration: 2,
      },
    ]);
  });

  test("moves lastTransitionTime when the status flips", () => {
    const first = setCondition([], { type: "Ready", status: "False" }, t0);
    const second = setCondition(first, { type: "Ready", status: "True" }, t1);
    assert.equal(second[0]?.lastTransitionTime, "2024-05-01T10:05:00Z");
  });

  test("keeps the order of existing conditions and appends new ones; does not modify its input", () => {
    const input: Condition[] = [
      { type: "A", status: "True", lastTransitionTime: "x" },
      { type: "B", status: "True", lastTransitionTime: "y" },
    ];
    const frozen = structuredClone(input);
    const out = setConditions(
      input,
      [
        { type: "C", status: "False" },
        { type: "A", status: "False" },
      ],
      t0,
    );
    assert.deepEqual(
      out.map((c) => c.type),
      ["A", "B", "C"],
    );
    assert.equal(findCondition(out, "A")?.status, "False");
    assert.deepEqual(input, frozen);
  });

  test("an update without observedGeneration keeps the previous one", () => {
    const first = setCondition([], { type: "Ready", status: "True", observedGeneration: 3 }, t0);
    const second = setCondition(first, { type: "Ready", status: "True", reason: "Again" }, t1);
    assert.equal(second[0]?.observedGeneration, 3);
  });

  test("helpers: isConditionTrue, removeCondition, conditionsEqual, formatTime", () => {
    const list = setConditions(
      [],
      [
        { type: "Ready", status: "True" },
        { type: "Synced", status: "False" },
      ],
      t0,
    );
    assert.equal(isConditionTrue(list, "Ready"), true);
    assert.equal(isConditionTrue(list, "Synced"), false);
    assert.equal(isConditionTrue(list, "Missing"), false);
    assert.deepEqual(
      removeCondition(list, "Ready").map((c) => c.type),
      ["Synced"],
    );
    assert.equal(conditionsEqual(list, setConditions(list, [{ type: "Ready", status: "True" }], t1)), true);
    assert.equal(
      conditionsEqual(list, setConditions(list, [{ type: "Ready", status: "True", message: "m" }], t1)),
      false,
    );
    assert.equal(formatTime(new Date("2030-01-02T03:04:05.678Z")), "2030-01-02T03:04:05Z");
  });
});
