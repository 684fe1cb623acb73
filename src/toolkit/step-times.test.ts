import assert from "node:assert/strict";
import { test } from "node:test";
import { StepTimes, timeStep, timeStepSync, withStepTimes } from "./step-times.ts";

test("overlapping spans of one step count once; separate steps separately", () => {
  const t = new StepTimes();
  t.enter("aws", 0);
  t.enter("aws", 5);
  t.exit("aws", 10);
  t.exit("aws", 20);
  t.enter("kubernetes", 20);
  t.exit("kubernetes", 26);
  t.enter("aws", 30);
  assert.deepEqual(Object.fromEntries(t.totals(34)), { aws: 24, kubernetes: 6 });
  t.exit("aws", 35);
  t.exit("aws", 99); // an exit without an enter changes nothing
  assert.deepEqual(Object.fromEntries(t.totals(100)), { aws: 25, kubernetes: 6 });
});

test("calls find their unit through the async context; outside one they only run", async () => {
  const t = new StepTimes();
  const call = (step: string) =>
    timeStep(step, () => new Promise<string>((r) => setImmediate(() => r(step))));
  assert.equal(await call("aws"), "aws");
  await withStepTimes(t, async () => {
    await Promise.all([call("aws"), call("aws")]);
    await call("kubernetes");
  });
  assert.deepEqual([...t.totals().keys()].sort(), ["aws", "kubernetes"]);
  await assert.rejects(
    withStepTimes(t, () => timeStep("aws", () => Promise.reject(new Error("boom")))),
    /boom/,
  );
  assert.ok((t.totals().get("aws") ?? 0) >= 0);
});

test("synchronous work is a span of its step too, also when it throws; outside a unit it only runs", async () => {
  assert.equal(
    timeStepSync("decision", () => 42),
    42,
  );
  const t = new StepTimes();
  await withStepTimes(t, async () => {
    assert.equal(
      timeStepSync("decision", () => "use"),
      "use",
    );
    assert.throws(
      () =>
        timeStepSync("comparison", () => {
          throw new Error("refused");
        }),
      /refused/,
    );
    await timeStep("aws", () => Promise.resolve());
  });
  assert.deepEqual([...t.totals().keys()].sort(), ["aws", "comparison", "decision"]);
  // A span that threw is closed: nothing of it still counts up.
  const before = t.totals(1e12).get("comparison");
  assert.equal(t.totals(2e12).get("comparison"), before);
});
