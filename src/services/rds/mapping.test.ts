import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  arnOf,
  awsIdentifier,
  createDBInstanceInput,
  fieldsFromAws,
  instanceTags,
  modifyDBInstanceInput,
  parseDBInstanceArn,
  statusFromInstance,
  userTags,
} from "./mapping.ts";
import type { DBInstanceFields } from "./schema.ts";

const spec: DBInstanceFields = {
  dbInstanceIdentifier: "Orders-DB",
  dbInstanceClass: "db.t3.micro",
  engine: "postgres",
  engineVersion: "16.3",
  allocatedStorage: 20,
  masterUsername: "admin",
  masterUserPassword: { name: "orders-db", key: "password" },
  dbName: "orders",
  multiAZ: false,
  storageType: "gp3",
  storageEncrypted: true,
  publiclyAccessible: false,
  backupRetentionPeriod: 7,
  deletionProtection: false,
  tags: [{ key: "team", value: "shop" }],
};
const owner = { "crossrole.dev/owner-uid": "u1", "services.k8s.aws/namespace": "shop" };

describe("identifiers and ARNs", () => {
  test("RDS is asked in lowercase; the ARN names the lowercase identifier", () => {
    assert.equal(awsIdentifier(spec), "orders-db");
    assert.equal(
      arnOf("Orders-DB", "eu-west-1", "111111111111"),
      "arn:aws:rds:eu-west-1:111111111111:db:orders-db",
    );
    assert.equal(arnOf("x", "cn-north-1", "1"), "arn:aws-cn:rds:cn-north-1:1:db:x");
    assert.deepEqual(parseDBInstanceArn("arn:aws:rds:eu-west-1:111111111111:db:orders-db"), {
      region: "eu-west-1",
      account: "111111111111",
      identifier: "orders-db",
    });
    assert.equal(parseDBInstanceArn("arn:aws:rds:eu-west-1:1:snapshot:x"), undefined);
    assert.equal(parseDBInstanceArn("arn:aws:dynamodb:eu-west-1:1:table/x"), undefined);
  });
});

describe("CreateDBInstance input", () => {
  test("every spec field, the password from its Secret, the user's and the ownership tags", () => {
    const input = createDBInstanceInput(spec, owner, "pw-from-secret");
    assert.deepEqual(input, {
      DBInstanceIdentifier: "orders-db",
      DBInstanceClass: "db.t3.micro",
      Engine: "postgres",
      EngineVersion: "16.3",
      AllocatedStorage: 20,
      MasterUsername: "admin",
      MasterUserPassword: "pw-from-secret",
      DBName: "orders",
      MultiAZ: false,
      StorageType: "gp3",
      StorageEncrypted: true,
      PubliclyAccessible: false,
      BackupRetentionPeriod: 7,
      DeletionProtection: false,
      Tags: [
        { Key: "team", Value: "shop" },
        { Key: "crossrole.dev/owner-uid", Value: "u1" },
        { Key: "services.k8s.aws/namespace", Value: "shop" },
      ],
    });
  });
  test("absent fields are left to RDS; no password without a Secret value", () => {
    const input = createDBInstanceInput(
      { dbInstanceIdentifier: "a", dbInstanceClass: "db.t3.micro", engine: "mysql" },
      {},
      undefined,
    );
    assert.deepEqual(input, { DBInstanceIdentifier: "a", DBInstanceClass: "db.t3.micro", Engine: "mysql" });
  });
  test("ownership tags win over a same-keyed user tag", () => {
    assert.deepEqual(instanceTags([{ key: "crossrole.dev/owner-uid", value: "forged" }], owner), owner);
  });
});

describe("ModifyDBInstance input", () => {
  test("only the changed fields, ApplyImmediately always, AllowMajorVersionUpgrade with a version change", () => {
    assert.deepEqual(
      modifyDBInstanceInput(spec, ["backupRetentionPeriod", "deletionProtection"], undefined),
      {
        DBInstanceIdentifier: "orders-db",
        ApplyImmediately: true,
        BackupRetentionPeriod: 7,
        DeletionProtection: false,
      },
    );
    assert.deepEqual(modifyDBInstanceInput(spec, ["engineVersion", "dbInstanceClass"], undefined), {
      DBInstanceIdentifier: "orders-db",
      ApplyImmediately: true,
      EngineVersion: "16.3",
      AllowMajorVersionUpgrade: true,
      DBInstanceClass: "db.t3.micro",
    });
  });
  test("a new password alone", () => {
    assert.deepEqual(modifyDBInstanceInput(spec, [], "rotated"), {
      DBInstanceIdentifier: "orders-db",
      ApplyImmediately: true,
      MasterUserPassword: "rotated",
    });
  });
});

describe("DescribeDBInstances answer → spec and status", () => {
  const described = {
    DBInstanceIdentifier: "orders-db",
    DBInstanceClass: "db.t3.micro",
    Engine: "postgres",
    EngineVersion: "16.3",
    DBInstanceStatus: "available",
    MasterUsername: "admin",
    DBName: "orders",
    AllocatedStorage: 20,
    MultiAZ: false,
    StorageType: "gp3",
    StorageEncrypted: true,
    PubliclyAccessible: false,
    BackupRetentionPeriod: 7,
    DeletionProtection: false,
    Endpoint: {
      Address: "orders-db.x.eu-west-1.rds.amazonaws.com",
      Port: 5432,
      HostedZoneId: "Z2R2ITUGPM61AM",
    },
    DbiResourceId: "db-ABC",
    InstanceCreateTime: new Date("2024-05-01T10:00:00.123Z"),
    DBInstanceArn: "arn:aws:rds:eu-west-1:111111111111:db:orders-db",
    TagList: [
      { Key: "team", Value: "shop" },
      { Key: "crossrole.dev/owner-uid", Value: "u1" },
    ],
  };
  test("spec form keeps the spec's identifier spelling and every tag", () => {
    const { masterUserPassword: _p, ...withoutPassword } = spec;
    assert.deepEqual(fieldsFromAws(described, "Orders-DB"), {
      ...withoutPassword,
      tags: [
        { key: "crossrole.dev/owner-uid", value: "u1" },
        { key: "team", value: "shop" },
      ],
    });
    assert.equal(fieldsFromAws(described).dbInstanceIdentifier, "orders-db");
    assert.deepEqual(userTags({ team: "shop", "crossrole.dev/owner-uid": "u1" }), [
      { key: "team", value: "shop" },
    ]);
  });
  test("pending modifications count as the instance's (no flip-flop while RDS applies them)", () => {
    const f = fieldsFromAws({
      ...described,
      PendingModifiedValues: {
        DBInstanceClass: "db.t3.small",
        AllocatedStorage: 50,
        MasterUserPassword: "****",
      },
    });
    assert.equal(f.dbInstanceClass, "db.t3.small");
    assert.equal(f.allocatedStorage, 50);
    assert.ok(!("masterUserPassword" in f));
  });
  test("status: ACK's dbInstanceStatus, endpoint {address, port, hostedZoneID}, dbiResourceID, instanceCreateTime", () => {
    assert.deepEqual(statusFromInstance(described), {
      dbInstanceStatus: "available",
      endpoint: {
        address: "orders-db.x.eu-west-1.rds.amazonaws.com",
        port: 5432,
        hostedZoneID: "Z2R2ITUGPM61AM",
      },
      dbiResourceID: "db-ABC",
      instanceCreateTime: "2024-05-01T10:00:00Z",
    });
    assert.deepEqual(statusFromInstance({ DBInstanceStatus: "creating" }), { dbInstanceStatus: "creating" });
  });
});
