import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  classifyError,
  errorCode,
  fieldFromMessage,
  isAlreadyExists,
  isDeletionProtected,
  isInvalidState,
  isNotFound,
} from "./errors.ts";

const sdk = (name: string, message = "", status = 400) =>
  Object.assign(new Error(message), { name, $metadata: { httpStatusCode: status } });

describe("RDS errors", () => {
  test("codes drop the SDK's Fault / Exception suffix", () => {
    assert.equal(errorCode(sdk("DBInstanceNotFoundFault", "", 404)), "DBInstanceNotFound");
    assert.ok(isNotFound(sdk("DBInstanceNotFoundFault", "", 404)));
    assert.ok(isAlreadyExists(sdk("DBInstanceAlreadyExistsFault")));
    assert.ok(isInvalidState(sdk("InvalidDBInstanceStateFault")));
    assert.equal(
      errorCode(Object.assign(new Error("x"), { name: "Error", Code: "Throttling" })),
      "Throttling",
    );
    assert.equal(errorCode(Object.assign(new Error("x"), { code: "ECONNREFUSED" })), "ECONNREFUSED");
  });

  test("ACK's terminal codes are terminal and name the field the message mentions", () => {
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
      const e = classifyError(sdk(code, message), { operation: "CreateDBInstance", dbInstance: "orders" });
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

  test("a ModifyDBInstance of one field names it; of several, the one RDS names or all of them", () => {
    const one = classifyError(sdk("InvalidParameterCombination", "Cannot upgrade"), {
      operation: "ModifyDBInstance",
      dbInstance: "orders",
      field: "spec.engineVersion",
    });
    assert.equal(one.field, "spec.engineVersion");
    const named = classifyError(sdk("InvalidParameterValue", "Invalid DB Instance class"), {
      operation: "ModifyDBInstance",
      dbInstance: "orders",
      fields: ["spec.dbInstanceClass", "spec.multiAZ"],
    });
    assert.equal(named.field, "spec.dbInstanceClass");
    const unnamed = classifyError(sdk("InvalidParameterCombination", "Something is wrong"), {
      operation: "ModifyDBInstance",
      dbInstance: "orders",
      fields: ["spec.dbInstanceClass", "spec.multiAZ"],
    });
    assert.equal(unnamed.field, undefined);
    assert.match(unnamed.message, /applying spec\.dbInstanceClass, spec\.multiAZ/);
  });

  test("quotas, capacity, state, throttling, access and server errors are retryable", () => {
    for (const [name, status] of [
      ["InstanceQuotaExceededFault", 400],
      ["StorageQuotaExceededFault", 400],
      ["InsufficientDBInstanceCapacityFault", 400],
      ["InvalidDBInstanceStateFault", 400],
      ["Throttling", 400],
      ["AccessDenied", 403],
      ["InternalFailure", 500],
    ] as const) {
      const e = classifyError(sdk(name, "", status), { operation: "ModifyDBInstance", dbInstance: "o" });
      assert.equal(e.terminal, false, name);
    }
    const denied = classifyError(sdk("AccessDenied", "", 403), {
      operation: "CreateDBInstance",
      dbInstance: "o",
    });
    assert.match(denied.message, /lacks rds:CreateDBInstance/);
    const busy = classifyError(sdk("InvalidDBInstanceStateFault"), {
      operation: "ModifyDBInstance",
      dbInstance: "o",
    });
    assert.match(busy.message, /busy with an earlier change/);
  });

  test("deletion protection names spec.deletionProtection and the fix, and is retried", () => {
    const err = sdk(
      "InvalidParameterCombination",
      "Cannot delete protected DB Instance, please disable deletion protection and try again.",
    );
    assert.ok(isDeletionProtected(err));
    const e = classifyError(err, { operation: "DeleteDBInstance", dbInstance: "orders" });
    assert.equal(e.terminal, false);
    assert.equal(e.field, "spec.deletionProtection");
    assert.match(e.message, /set spec\.deletionProtection: false/);
    assert.match(e.message, /deletion-policy: retain/);
  });

  test("a call that carried the password shows none of RDS's message, nor keeps the SDK error", () => {
    // classifyError is never given the password itself: the message cannot depend on it, so a
    // password that is part of RDS's words ("pass", "word") leaves no trace either.
    const message =
      "The parameter MasterUserPassword is not a valid password because it is shorter than 8 characters.";
    const err = sdk("InvalidParameterValue", message);
    for (const operation of ["CreateDBInstance", "ModifyDBInstance"] as const) {
      const e = classifyError(err, {
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
    const plain = classifyError(err, { operation: "DescribeDBInstances", dbInstance: "o" });
    assert.ok(plain.message.includes(message), plain.message);
    assert.equal(plain.cause, err);
  });

  test("parameters map to spec fields", () => {
    assert.equal(fieldFromMessage("EngineVersion 99 not found"), "spec.engineVersion");
    assert.equal(fieldFromMessage("Engine nosuch"), "spec.engine");
    assert.equal(
      fieldFromMessage("BackupRetentionPeriod must be between 0 and 35"),
      "spec.backupRetentionPeriod",
    );
    assert.equal(fieldFromMessage("nothing known"), undefined);
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
      assert.equal(fieldFromMessage(message), field, message);
    }
  });

  test("an engine and class pair RDS refuses is terminal, naming spec.dbInstanceClass, with RDS's reason", () => {
    const reason =
      "RDS does not support creating a DB instance with the following combination: DBInstanceClass=db.t2.micro, Engine=postgres, EngineVersion=16.3, LicenseModel=postgresql-license.";
    const e = classifyError(sdk("InvalidParameterCombination", reason), {
      operation: "CreateDBInstance",
      dbInstance: "orders",
    });
    assert.ok(e.terminal);
    assert.equal(e.field, "spec.dbInstanceClass");
    assert.ok(e.message.includes(reason), e.message);
  });

  test("a group, key or network RDS cannot find names its field; one that may appear later is retried", () => {
    for (const [name, field, terminal] of [
      ["DBSubnetGroupNotFoundFault", "spec.dbSubnetGroupName", false],
      ["DBParameterGroupNotFoundFault", "spec.dbParameterGroupName", false],
      ["OptionGroupNotFoundFault", "spec.optionGroupName", false],
      ["AuthorizationNotFoundFault", "spec.vpcSecurityGroupIDs", false],
      ["KMSKeyNotAccessibleFault", "spec.kmsKeyID", false],
      ["NetworkTypeNotSupported", "spec.networkType", true],
      ["DBSubnetGroupDoesNotCoverEnoughAZs", "spec.dbSubnetGroupName", true],
    ] as const) {
      const e = classifyError(sdk(name, "not there", 404), {
        operation: "CreateDBInstance",
        dbInstance: "orders",
      });
      assert.equal(e.field, field, name);
      assert.equal(e.terminal, terminal, name);
      assert.ok(e.message.startsWith(`${field}: `), e.message);
    }
  });
});
