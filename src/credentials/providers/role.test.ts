import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { effectiveDurationSeconds } from "./role.ts";

const keys = { accessKeyId: "AKIA", secretAccessKey: "s" };

describe("effectiveDurationSeconds", () => {
  test("long sessions from long-lived keys are sent as asked", () => {
    assert.equal(effectiveDurationSeconds(43200, false, keys), 43200);
  });
  test("a hop whose source is a role is capped at 3600", () => {
    assert.equal(effectiveDurationSeconds(43200, true, keys), 3600);
    assert.equal(effectiveDurationSeconds(900, true, keys), 900);
  });
  test("temporary source credentials (IRSA, Pod Identity) are treated as role chaining", () => {
    assert.equal(effectiveDurationSeconds(7200, false, { ...keys, sessionToken: "t" }), 3600);
  });
  test("no duration asked, none sent", () => {
    assert.equal(effectiveDurationSeconds(undefined, true, keys), undefined);
  });
});
