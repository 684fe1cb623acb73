import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseSpecWith, parseStatusWith } from "../services/service-module.ts";
import { queueSpecSchema, queueStatusSchema } from "../services/sqs/schema.ts";
import { asStored, checkSpecWrite, checkStatusWrite, unrecordableReason } from "./write-check.ts";

const parseSpec = parseSpecWith(queueSpecSchema);
const parseStatus = parseStatusWith(queueStatusSchema);
const key = "arn:aws:kms:us-east-1:222222222222:key/1234abcd-12ab-34cd-56ef-1234567890ab";

describe("checkSpecWrite: late initialisation writes only what the kind's schema accepts", () => {
  test("AWS's defaults the schema accepts: nothing to report", () => {
    const current = { queueName: "orders", kmsMasterKeyID: key };
    const next = { ...current, delaySeconds: "0", kmsDataKeyReusePeriodSeconds: "300" };
    assert.equal(
      checkSpecWrite({
        kind: "Queue",
        parseSpec,
        current,
        next,
        filled: ["spec.delaySeconds", "spec.kmsDataKeyReusePeriodSeconds"],
        strictAdoption: false,
      }),
      undefined,
    );
  });

  test("a default that conflicts with a field the spec set: Terminal, naming only that field, its value and the fix", () => {
    const current = { queueName: "orders", kmsMasterKeyID: key };
    const next = { ...current, delaySeconds: "0", sqsManagedSSEEnabled: "true" };
    const state = checkSpecWrite({
      kind: "Queue",
      parseSpec,
      current,
      next,
      filled: ["spec.delaySeconds", "spec.sqsManagedSSEEnabled"],
      strictAdoption: false,
    });
    assert.ok(state);
    assert.equal(state.kind, "terminal");
    assert.equal(state.reason, unrecordableReason);
    assert.match(
      state.message,
      /^AWS's value for spec\.sqsManagedSSEEnabled \("true"\) cannot be recorded in this Queue's spec: /,
    );
    assert.match(state.message, /two kinds of encryption/, "the schema's own words");
    assert.match(state.message, /Fix: set spec\.sqsManagedSSEEnabled in the spec to the value you want/);
    assert.doesNotMatch(state.message, /delaySeconds/, "a field the schema accepts is not blamed");
  });

  test("a value beyond the schema's limit (a limit AWS raised since): named with the limit", () => {
    const current = { queueName: "orders" };
    const state = checkSpecWrite({
      kind: "Queue",
      parseSpec,
      current,
      next: { ...current, visibilityTimeout: "50000", messageRetentionPeriod: "2000000" },
      filled: ["spec.visibilityTimeout", "spec.messageRetentionPeriod"],
      strictAdoption: false,
    });
    assert.ok(state);
    assert.match(
      state.message,
      /^AWS's values for spec\.visibilityTimeout \("50000"\), spec\.messageRetentionPeriod \("2000000"\) cannot be recorded/,
    );
    assert.match(state.message, /from 0 to 43200 seconds/);
    assert.match(state.message, /Fix: set spec\.visibilityTimeout, spec\.messageRetentionPeriod in the spec/);
  });

  test("a strict adoption: the adopted configuration's refused fields and values, and adopt-or-create as the fix", () => {
    const next = { queueName: "orders", visibilityTimeout: "50000" };
    const state = checkSpecWrite({
      kind: "Queue",
      parseSpec,
      current: { queueName: "orders" },
      next,
      filled: [],
      strictAdoption: true,
    });
    assert.ok(state);
    assert.match(
      state.message,
      /adopted AWS object cannot be recorded as this Queue's spec \(spec\.visibilityTimeout = "50000"\)/,
    );
    assert.match(state.message, /adoption-policy: adopt-or-create/);
  });
});

describe("checkStatusWrite: status records only what the kind's status schema accepts", () => {
  test("a status with nulls (a merge patch deletes them) and unknown fields (intent) is accepted", () => {
    const status = {
      conditions: [{ type: "Ready", status: "True", lastTransitionTime: "2026-01-01T00:00:00Z" }],
      ackResourceMetadata: {
        arn: "arn:aws:sqs:us-east-1:1:o",
        identity: { source: "default", roleARN: null },
      },
      queueURL: "http://127.0.0.1/1/o",
      queueARN: undefined,
      intent: null,
    };
    assert.equal(checkStatusWrite({ kind: "Queue", parseStatus, status }), undefined);
  });

  test("a value of the wrong type: Terminal, naming the field and its value", () => {
    const state = checkStatusWrite({ kind: "Queue", parseStatus, status: { queueURL: 5 } });
    assert.ok(state);
    assert.equal(state.kind, "terminal");
    assert.equal(state.reason, unrecordableReason);
    assert.match(
      state.message,
      /^What AWS reports cannot be recorded in this Queue's status \(status\.queueURL = 5\): status\.queueURL: /,
    );
    assert.match(state.message, /report it to crossrole's maintainers/);
  });
});

describe("asStored", () => {
  test("what the apiserver holds: JSON, without null members", () => {
    assert.deepEqual(asStored({ a: null, b: [1, { c: null, d: undefined }], e: new Date(0) }), {
      b: [1, {}],
      e: "1970-01-01T00:00:00.000Z",
    });
    assert.equal(asStored(undefined), undefined);
  });
});
