import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  deletionProtectedError,
  failureError,
  objectErrorClass,
  type ServiceRules,
} from "./service-error.ts";

type Op = "CreateThing" | "DeleteThing";
const ThingError = objectErrorClass<Op, "thing">("ThingError", "thing");
const rules: ServiceRules<Op> = {
  service: "Things",
  noun: "thing",
  genericNames: new Set(["Error"]),
  terminalCodes: new Set(["InvalidParameterValue"]),
  iamActions: { CreateThing: "things:Create", DeleteThing: "things:Delete" },
  refusedValue: new Set(["InvalidParameterValue"]),
};

const awsSays = "The parameter Token is not a valid token: s3cr3t-tok3n";
const sdkError = (name: string) =>
  Object.assign(new Error(awsSays), { name, $metadata: { httpStatusCode: 400 } });

describe("service errors of calls that carried a secret", () => {
  test("keep code, operation, field and hint, say why AWS's message is missing, and drop the cause", () => {
    const err = sdkError("InvalidParameterValue");
    const e = failureError(ThingError, rules, err, {
      operation: "CreateThing",
      name: "t1",
      code: "InvalidParameterValue",
      field: "spec.token",
      secretFields: ["spec.token"],
    });
    assert.equal(
      e.message,
      `spec.token: CreateThing on thing "t1" failed with InvalidParameterValue; Things's message is withheld because the call carried a secret (spec.token) (Things refused the value of spec.token; fix spec.token and the thing is reconciled again)`,
    );
    assert.equal(e.cause, undefined);
    assert.equal(e.code, "InvalidParameterValue");
    assert.equal(e.operation, "CreateThing");
    assert.equal(e.field, "spec.token");
    assert.ok(e.terminal);
    assert.equal((e as unknown as { thing: string }).thing, "t1");
  });

  test("a call without a secret shows AWS's message and keeps the SDK error as its cause", () => {
    const err = sdkError("InvalidParameterValue");
    for (const secretFields of [undefined, []]) {
      const e = failureError(ThingError, rules, err, {
        operation: "CreateThing",
        name: "t1",
        code: "InvalidParameterValue",
        field: "spec.token",
        secretFields,
      });
      assert.ok(e.message.includes(`failed with InvalidParameterValue: ${awsSays}`), e.message);
      assert.equal(e.cause, err);
    }
  });

  test("a failure AWS never answered (credentials, connection) keeps its cause: nothing AWS said is in it", () => {
    const credentials = Object.assign(new Error("hop 1 of 1: AssumeRole denied"), {
      name: "AccessDeniedError",
    });
    const e = failureError(ThingError, rules, credentials, {
      operation: "CreateThing",
      name: "t1",
      code: "AccessDeniedError",
      field: undefined,
      secretFields: ["spec.token"],
    });
    assert.equal(e.cause, credentials, "the reconciler reads it to tell a credential failure");
    assert.doesNotMatch(e.message, /AssumeRole denied/, "the message itself is still withheld");
  });

  test("a refused delete of a protected object withholds AWS's message the same way", () => {
    const err = sdkError("InvalidParameterCombination");
    const p = {
      operation: "DeleteThing" as const,
      name: "t1",
      code: "InvalidParameterCombination",
      field: "spec.deletionProtection",
      keep: "thing",
    };
    const withheld = deletionProtectedError(ThingError, rules, err, { ...p, secretFields: ["spec.token"] });
    assert.ok(!withheld.message.includes("s3cr3t") && !withheld.message.includes("not a valid"));
    assert.match(withheld.message, /deletion protection is on; Things's message is withheld/);
    assert.equal(withheld.cause, undefined);
    const plain = deletionProtectedError(ThingError, rules, err, p);
    assert.ok(plain.message.includes(awsSays));
    assert.equal(plain.cause, err);
  });
});

describe("a not-found answer", () => {
  const withGone: ServiceRules<Op> = { ...rules, gone: new Set(["ResourceNotFound"]), create: "CreateThing" };
  const failed = (operation: Op, field?: string) =>
    failureError(ThingError, withGone, sdkError("ResourceNotFound"), {
      operation,
      name: "t1",
      code: "ResourceNotFound",
      field,
    }).message;

  test("of a call on the object says the object is gone", () => {
    assert.match(failed("DeleteThing"), /\(the thing is gone; retrying\)$/);
  });

  test("of the create is about what the spec names, never the object, which does not exist yet", () => {
    assert.match(
      failed("CreateThing"),
      /\(Things finds no such thing as the spec names: create it or fix the spec; retrying\)$/,
    );
    assert.match(
      failed("CreateThing", "spec.layers"),
      /\(Things finds no such spec\.layers: create it or fix spec\.layers; retrying\)$/,
    );
    assert.doesNotMatch(failed("CreateThing"), /is gone/);
  });
});
