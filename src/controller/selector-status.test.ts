import assert from "node:assert/strict";
import { test } from "node:test";
import { selector, settingsWith } from "../../test/support/resolver-fixtures.ts";
import { buildSnapshot } from "../resolver/snapshot.ts";
import { planSelectorStatus, type SelectorStatusInput } from "./selector-status.ts";

const t0 = new Date("2025-01-01T00:00:00Z");
const t1 = new Date("2025-01-01T01:00:00Z");
const valid: SelectorStatusInput = {
  generation: 1,
  status: undefined,
  problems: [],
  enabled: true,
  matched: 2,
};

test("a valid selector in use: Ready=True and its match count", () => {
  assert.deepEqual(planSelectorStatus(valid, t0), {
    matchedResources: 2,
    conditions: [
      {
        type: "Ready",
        status: "True",
        reason: "Valid",
        message: "The selector is valid and in use.",
        lastTransitionTime: "2025-01-01T00:00:00Z",
        observedGeneration: 1,
      },
    ],
  });
});

test("nothing to write when the status already says it; a new count is written, the transition time kept", () => {
  const status = planSelectorStatus(valid, t0)!;
  assert.equal(planSelectorStatus({ ...valid, status }, t1), null);
  const next = planSelectorStatus({ ...valid, status, matched: 3 }, t1);
  assert.equal(next?.matchedResources, 3);
  assert.equal(next?.conditions?.[0]?.lastTransitionTime, "2025-01-01T00:00:00Z");
});

test("an invalid selector: Ready=False naming the field, value and fix; 0 matched", () => {
  const problems = buildSnapshot(
    { iamRoleSelectors: [selector("s", { arn: "arn:aws:iam::12:role/x" })] },
    settingsWith(),
  ).problems;
  const status = planSelectorStatus({ ...valid, problems, matched: 5 }, t1)!;
  assert.equal(status.matchedResources, 0);
  const ready = status.conditions?.[0];
  assert.equal(ready?.status, "False");
  assert.equal(ready?.reason, "InvalidSelector");
  assert.match(
    ready?.message ?? "",
    /^The selector is invalid and ignored: spec\.arn = "arn:aws:iam::12:role\/x": .*Fix: correct spec\.arn/,
  );
});

test("CARM mode: Ready=False FeatureGateDisabled, saying how to turn selectors on", () => {
  const status = planSelectorStatus({ ...valid, enabled: false, matched: 0 }, t0)!;
  assert.equal(status.matchedResources, 0);
  assert.equal(status.conditions?.[0]?.reason, "FeatureGateDisabled");
  assert.match(
    status.conditions?.[0]?.message ?? "",
    /--feature-gates=IAMRoleSelector=true --enable-carm=false/,
  );
});

test("warnings alone do not make a selector invalid", () => {
  const warning = {
    object: { kind: "IAMRoleSelector", name: "s" },
    field: "f",
    severity: "warning" as const,
    message: "m",
    fix: "x",
  };
  assert.equal(planSelectorStatus({ ...valid, problems: [warning] }, t0)?.conditions?.[0]?.status, "True");
});
