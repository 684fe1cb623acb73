// How the DBInstance kind reads RDS's errors, driven through the generic runtime (db-instance.ts)
// on an in-process RDS (test/support/fake-sdk.ts): each case makes the call it is about fail with
// RDS's error (CreateDBInstance, a ModifyDBInstance of one field or several, DeleteDBInstance,
// DescribeDBInstances) and reads the error the module throws, in the shapes this test was first
// written against (the shims below are named as the hand-written errors.ts's functions were).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { awsError, type Fields, fakeSdk, type SentCall } from "../../../test/support/fake-sdk.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import type { DeclaredObserved } from "../declared-kind/source.ts";
import { ServiceError } from "../service-error.ts";
import { noSecrets, type SecretValues } from "../service-module.ts";
import { dbInstanceSource } from "./db-instance.ts";

type DBInstanceError = ServiceError & { readonly object: string };

/** RDS where `operation` fails with `err`; every DB instance it reads is in `status`. */
function rds(operation: string, err: unknown, status = "available") {
  return fakeSdk((call: SentCall): Fields => {
    if (call.operation === operation) throw err;
    if (call.operation !== "DescribeDBInstances") return {};
    const id = String(call.input["DBInstanceIdentifier"]);
    return {
      DBInstances: [
        {
          DBInstanceIdentifier: id,
          DBInstanceStatus: status,
          DBInstanceArn: `arn:aws:rds:us-east-1:111111111111:db:${id}`,
        },
      ],
    };
  });
}

/** The DBInstance module on this fake RDS. */
const on = (aws: { readonly sdk: Readonly<Record<string, unknown>> }) =>
  declaredKindModule({ ...dbInstanceSource, sdk: aws.sdk } as unknown as typeof dbInstanceSource);

/** The error the module throws when `operation` fails; `run` drives the module to that call. */
async function failure(
  operation: string,
  err: unknown,
  run: (aws: ReturnType<typeof rds>) => Promise<unknown>,
): Promise<DBInstanceError> {
  const aws = rds(operation, err);
  const thrown = await run(aws).then(
    () => assert.fail(`${operation} failed and the module went on`),
    (e: unknown) => e,
  );
  assert.equal(aws.sent.at(-1)?.operation, operation, "the failing call is the last one sent");
  assert.ok(thrown instanceof ServiceError, String(thrown));
  assert.equal(thrown.name, "DBInstanceError");
  return thrown as DBInstanceError;
}

const password = "s3cret-pw";
const secretRef = { name: "orders-db", key: "password" };
/** The Secret's value of each spec path, as the reconciler reads them; changed: set again. */
const withSecrets = (paths: readonly string[]): SecretValues =>
  paths.length === 0 ? noSecrets : { values: new Map(paths.map((p) => [p, password])), changed: [...paths] };

/** A change of each field a ModifyDBInstance may apply: [RDS's value, the spec's]. */
const changes: Readonly<Record<string, readonly [unknown, unknown]>> = {
  "spec.engineVersion": ["15.7", "16.4"],
  "spec.dbInstanceClass": ["db.t3.micro", "db.t3.small"],
  "spec.multiAZ": [false, true],
  "spec.backupRetentionPeriod": [7, 14],
};

/**
 * A ModifyDBInstance of exactly `fields` failing with `err`: desired and observed differ in those
 * fields alone (a secret field: its Secret changed, so the call carries it again).
 */
function modifyFails(err: unknown, name: string, fields: readonly string[], secretFields: readonly string[]) {
  const desired: Fields = { dbInstanceIdentifier: name };
  const have: Fields = { dbInstanceIdentifier: name };
  for (const path of fields) {
    if (secretFields.includes(path)) {
      desired[path.slice("spec.".length)] = secretRef;
      continue;
    }
    const change = changes[path];
    if (change === undefined) throw new Error(`no change of ${path} in this test`);
    have[path.slice("spec.".length)] = change[0];
    desired[path.slice("spec.".length)] = change[1];
  }
  const observed: DeclaredObserved = {
    fields: have,
    tags: {},
    status: {},
    arn: `arn:aws:rds:us-east-1:111111111111:db:${name}`,
  };
  return failure("ModifyDBInstance", err, async (aws) => {
    const module = on(aws);
    assert.deepEqual(
      module.diff(desired, observed),
      fields.filter((f) => !secretFields.includes(f)),
      "desired and observed differ in exactly these fields",
    );
    return module.update(aws.client, desired, observed, {}, {}, withSecrets(secretFields));
  });
}

/** What the hand-written classifyError was told, now the call the module makes that fails. */
interface FailedCall {
  readonly operation: "CreateDBInstance" | "ModifyDBInstance" | "DeleteDBInstance" | "DescribeDBInstances";
  readonly dbInstance: string;
  readonly field?: string;
  readonly fields?: readonly string[];
  readonly secretFields?: readonly string[];
}

/** The module's error when `c.operation` fails with `err` on DB instance `c.dbInstance`. */
function classifyError(err: unknown, c: FailedCall): Promise<DBInstanceError> {
  const name = c.dbInstance;
  const secretFields = c.secretFields ?? [];
  switch (c.operation) {
    case "CreateDBInstance": {
      const spec: Fields = { dbInstanceIdentifier: name };
      for (const path of secretFields) spec[path.slice("spec.".length)] = secretRef;
      return failure(c.operation, err, (aws) =>
        on(aws).create(aws.client, spec, "us-east-1", {}, {}, withSecrets(secretFields)),
      );
    }
    case "ModifyDBInstance":
      // One field changed when the old context named none: a ModifyDBInstance always applies some.
      return modifyFails(
        err,
        name,
        c.fields ?? (c.field === undefined ? ["spec.backupRetentionPeriod"] : [c.field]),
        secretFields,
      );
    case "DeleteDBInstance":
      return failure(c.operation, err, (aws) =>
        on(aws).delete(aws.client, { dbInstanceIdentifier: name }, {}, {}),
      );
    case "DescribeDBInstances":
      return failure(c.operation, err, (aws) => on(aws).read(aws.client, { dbInstanceIdentifier: name }, {}));
  }
}

/** The code of the module's error when a ModifyDBInstance fails with `err`. */
const errorCode = async (err: unknown) =>
  (await classifyError(err, { operation: "ModifyDBInstance", dbInstance: "o" })).code;
/** A DeleteDBInstance failing with `err` is taken as the instance being gone already. */
const isNotFound = async (err: unknown) => {
  const aws = rds("DeleteDBInstance", err);
  return (await on(aws).delete(aws.client, { dbInstanceIdentifier: "o" }, {}, {})) === "not-found";
};
/** A CreateDBInstance failing with `err` is taken as the instance existing already. */
const isAlreadyExists = async (err: unknown) => {
  const aws = rds("CreateDBInstance", err);
  const made = await on(aws).create(
    aws.client,
    { dbInstanceIdentifier: "o" },
    "us-east-1",
    {},
    {},
    noSecrets,
  );
  return !made.created;
};
/**
 * A DeleteDBInstance refused with `err` is taken as the instance being busy: read again, and
 * deleted when RDS is already deleting it.
 */
const isInvalidState = async (err: unknown) => {
  const aws = rds("DeleteDBInstance", err, "deleting");
  const deleted = await on(aws).delete(aws.client, { dbInstanceIdentifier: "o" }, {}, {});
  return deleted === "deleted" && aws.sent.at(-1)?.operation === "DescribeDBInstances";
};
/** A DeleteDBInstance failing with `err` names the deletion protection as the field to fix. */
const isDeletionProtected = async (err: unknown) =>
  (await classifyError(err, { operation: "DeleteDBInstance", dbInstance: "o" })).field ===
  "spec.deletionProtection";
/** The field named by a CreateDBInstance RDS refuses with `message`. */
const fieldFromMessage = async (message: string) =>
  (
    await classifyError(awsError("InvalidParameterValue", message), {
      operation: "CreateDBInstance",
      dbInstance: "o",
    })
  ).field;

const sdk = (name: string, message = "", status = 400) =>
  Object.assign(awsError(name, message), { $metadata: { httpStatusCode: status } });

describe("RDS errors", () => {
  test("codes drop the SDK's Fault / Exception suffix", async () => {
    assert.equal(await errorCode(sdk("DBInstanceNotFoundFault", "", 404)), "DBInstanceNotFound");
    assert.ok(await isNotFound(sdk("DBInstanceNotFoundFault", "", 404)));
    assert.ok(await isAlreadyExists(sdk("DBInstanceAlreadyExistsFault")));
    assert.ok(await isInvalidState(sdk("InvalidDBInstanceStateFault")));
    assert.equal(
      await errorCode(Object.assign(new Error("x"), { name: "Error", Code: "Throttling" })),
      "Throttling",
    );
    assert.equal(await errorCode(Object.assign(new Error("x"), { code: "ECONNREFUSED" })), "ECONNREFUSED");
  });

  test("ACK's terminal codes are terminal and name the field the message mentions", async () => {
    for (const [code, message, field] of [
      ["InvalidParameterValue", "Invalid DB Instance class: db.x9.huge", "spec.dbInstanceClass"],
      ["InvalidParameterCombination", "Cannot find version 99.1 for postgres", "spec.engineVersion"],
      [
        "InvalidParameterValue",
        "The parameter MasterUsername is not a valid identifier",
        "spec.masterUsername",
      ],
      [
        "InvalidParameterValue",
        "Invalid storage size for engine name postgres and storage type gp2: 5",
        "spec.allocatedStorage",
      ],
      ["InvalidParameter", "Value nosuch for parameter Engine is invalid", "spec.engine"],
    ] as const) {
      const e = await classifyError(sdk(code, message), {
        operation: "CreateDBInstance",
        dbInstance: "orders",
      });
      assert.ok(e.terminal, code);
      assert.equal(e.field, field, message);
      assert.match(
        e.message,
        new RegExp(
          `^${field.replace(".", "\\.")}: CreateDBInstance on DB instance "orders" failed with ${code}`,
        ),
      );
      assert.match(e.message, /fix spec\.\w+ and the DB instance is reconciled again/);
    }
  });

  test("a ModifyDBInstance of one field names it; of several, the one RDS names or all of them", async () => {
    const one = await classifyError(sdk("InvalidParameterCombination", "Cannot upgrade"), {
      operation: "ModifyDBInstance",
      dbInstance: "orders",
      field: "spec.engineVersion",
    });
    assert.equal(one.field, "spec.engineVersion");
    const named = await classifyError(sdk("InvalidParameterValue", "Invalid DB Instance class"), {
      operation: "ModifyDBInstance",
      dbInstance: "orders",
      fields: ["spec.dbInstanceClass", "spec.multiAZ"],
    });
    assert.equal(named.field, "spec.dbInstanceClass");
    const unnamed = await classifyError(sdk("InvalidParameterCombination", "Something is wrong"), {
      operation: "ModifyDBInstance",
      dbInstance: "orders",
      fields: ["spec.dbInstanceClass", "spec.multiAZ"],
    });
    assert.equal(unnamed.field, undefined);
    assert.match(unnamed.message, /applying spec\.dbInstanceClass, spec\.multiAZ/);
  });

  test("quotas, capacity, state, throttling, access and server errors are retryable", async () => {
    for (const [name, status] of [
      ["InstanceQuotaExceededFault", 400],
      ["StorageQuotaExceededFault", 400],
      ["InsufficientDBInstanceCapacityFault", 400],
      ["InvalidDBInstanceStateFault", 400],
      ["Throttling", 400],
      ["AccessDenied", 403],
      ["InternalFailure", 500],
    ] as const) {
      const e = await classifyError(sdk(name, "", status), {
        operation: "ModifyDBInstance",
        dbInstance: "o",
      });
      assert.equal(e.terminal, false, name);
    }
    const denied = await classifyError(sdk("AccessDenied", "", 403), {
      operation: "CreateDBInstance",
      dbInstance: "o",
    });
    assert.match(denied.message, /lacks rds:CreateDBInstance/);
    const busy = await classifyError(sdk("InvalidDBInstanceStateFault"), {
      operation: "ModifyDBInstance",
      dbInstance: "o",
    });
    assert.match(busy.message, /busy with an earlier change/);
  });

  test("deletion protection names spec.deletionProtection and the fix, and is retried", async () => {
    const err = sdk(
      "InvalidParameterCombination",
      "Cannot delete protected DB Instance, please disable deletion protection and try again.",
    );
    assert.ok(await isDeletionProtected(err));
    const e = await classifyError(err, { operation: "DeleteDBInstance", dbInstance: "orders" });
    assert.equal(e.terminal, false);
    assert.equal(e.field, "spec.deletionProtection");
    assert.match(e.message, /set spec\.deletionProtection: false/);
    assert.match(e.message, /deletion-policy: retain/);
  });

  test("a call that carried the password shows none of RDS's message, nor keeps the SDK error", async () => {
    // The error's message is made without the password (the call carried it; the error never
    // reads it): a password that is part of RDS's words ("pass", "word") leaves no trace either.
    const message =
      "The parameter MasterUserPassword is not a valid password because it is shorter than 8 characters.";
    const err = sdk("InvalidParameterValue", message);
    for (const operation of ["CreateDBInstance", "ModifyDBInstance"] as const) {
      const e = await classifyError(err, {
        operation,
        dbInstance: "orders",
        secretFields: ["spec.masterUserPassword"],
        ...(operation === "ModifyDBInstance" ? { fields: ["spec.masterUserPassword"] } : {}),
      });
      assert.equal(
        e.message,
        `spec.masterUserPassword: ${operation} on DB instance "orders" failed with InvalidParameterValue; RDS's message is withheld because the call carried a secret (spec.masterUserPassword) (RDS refused the value of spec.masterUserPassword; fix spec.masterUserPassword and the DB instance is reconciled again)`,
      );
      assert.equal(e.cause, undefined, "the SDK error, which holds RDS's message, is not kept");
      assert.equal(e.code, "InvalidParameterValue");
      assert.equal(e.operation, operation);
      assert.equal(e.field, "spec.masterUserPassword", "the field is still read from RDS's message");
      assert.ok(e.terminal);
      assert.ok(!JSON.stringify({ ...e, message: e.message }).includes("shorter than"));
    }
    // A call that carried no secret shows RDS's message, and keeps the SDK error for the logs.
    const plain = await classifyError(err, { operation: "DescribeDBInstances", dbInstance: "o" });
    assert.ok(plain.message.includes(message), plain.message);
    assert.equal(plain.cause, err);
  });

  test("parameters map to spec fields", async () => {
    assert.equal(await fieldFromMessage("EngineVersion 99 not found"), "spec.engineVersion");
    assert.equal(await fieldFromMessage("Engine nosuch"), "spec.engine");
    assert.equal(
      await fieldFromMessage("BackupRetentionPeriod must be between 0 and 35"),
      "spec.backupRetentionPeriod",
    );
    assert.equal(await fieldFromMessage("nothing known"), undefined);
    for (const [message, field] of [
      ["Invalid security group , groupId= sg-1, groupName=.", "spec.vpcSecurityGroupIDs"],
      ["DBSubnetGroupName must be set", "spec.dbSubnetGroupName"],
      ["Invalid value for MaxAllocatedStorage", "spec.maxAllocatedStorage"],
      ["The specified KmsKeyId is not valid", "spec.kmsKeyID"],
      ["Invalid PerformanceInsightsKMSKeyId", "spec.performanceInsightsKMSKeyID"],
      ["ManageMasterUserPassword can't be used with MasterUserPassword", "spec.manageMasterUserPassword"],
      ["Invalid port number: 80", "spec.port"],
      ["Invalid Iops to storage ratio", "spec.iops"],
      ["The preferred maintenance window overlaps the backup window", "spec.preferredBackupWindow"],
      ["You must specify a MonitoringInterval value other than 0", "spec.monitoringInterval"],
      ["Invalid log types: slowquery", "spec.enableCloudwatchLogsExports"],
    ] as const) {
      assert.equal(await fieldFromMessage(message), field, message);
    }
  });

  test("an engine and class pair RDS refuses is terminal, naming spec.dbInstanceClass, with RDS's reason", async () => {
    const reason =
      "RDS does not support creating a DB instance with the following combination: DBInstanceClass=db.t2.micro, Engine=postgres, EngineVersion=16.3, LicenseModel=postgresql-license.";
    const e = await classifyError(sdk("InvalidParameterCombination", reason), {
      operation: "CreateDBInstance",
      dbInstance: "orders",
    });
    assert.ok(e.terminal);
    assert.equal(e.field, "spec.dbInstanceClass");
    assert.ok(e.message.includes(reason), e.message);
  });

  test("a group, key or network RDS cannot find names its field; one that may appear later is retried", async () => {
    for (const [name, field, terminal] of [
      ["DBSubnetGroupNotFoundFault", "spec.dbSubnetGroupName", false],
      ["DBParameterGroupNotFoundFault", "spec.dbParameterGroupName", false],
      ["OptionGroupNotFoundFault", "spec.optionGroupName", false],
      ["AuthorizationNotFoundFault", "spec.vpcSecurityGroupIDs", false],
      ["KMSKeyNotAccessibleFault", "spec.kmsKeyID", false],
      ["NetworkTypeNotSupported", "spec.networkType", true],
      ["DBSubnetGroupDoesNotCoverEnoughAZs", "spec.dbSubnetGroupName", true],
    ] as const) {
      const e = await classifyError(sdk(name, "not there", 404), {
        operation: "CreateDBInstance",
        dbInstance: "orders",
      });
      assert.equal(e.field, field, name);
      assert.equal(e.terminal, terminal, name);
      assert.ok(e.message.startsWith(`${field}: `), e.message);
    }
  });
});
