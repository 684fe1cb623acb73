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
const owner = { "services.k8s.aws/owner-uid": "u1", "services.k8s.aws/namespace": "shop" };

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
        { Key: "services.k8s.aws/owner-uid", Value: "u1" },
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
    assert.deepEqual(instanceTags([{ key: "services.k8s.aws/owner-uid", value: "forged" }], owner), owner);
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
      { Key: "services.k8s.aws/owner-uid", Value: "u1" },
    ],
  };
  test("spec form keeps the spec's identifier spelling and every tag", () => {
    const { masterUserPassword: _p, ...withoutPassword } = spec;
    assert.deepEqual(fieldsFromAws(described, "Orders-DB"), {
      ...withoutPassword,
      port: 5432,
      tags: [
        { key: "services.k8s.aws/owner-uid", value: "u1" },
        { key: "team", value: "shop" },
      ],
    });
    assert.equal(fieldsFromAws(described).dbInstanceIdentifier, "orders-db");
    assert.deepEqual(userTags({ team: "shop", "services.k8s.aws/owner-uid": "u1" }), [
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

describe("every ACK field group on the wire (the SDK input the module builds)", () => {
  const vpc: DBInstanceFields = {
    ...spec,
    dbSubnetGroupName: "private",
    vpcSecurityGroupIDs: ["sg-1", "sg-2"],
    kmsKeyID: "key-1",
    port: 5433,
    copyTagsToSnapshot: true,
    iops: 3000,
    storageThroughput: 125,
    maxAllocatedStorage: 100,
    preferredBackupWindow: "03:00-03:30",
    preferredMaintenanceWindow: "sun:05:00-sun:06:00",
    enableCloudwatchLogsExports: ["postgresql"],
    enableIAMDatabaseAuthentication: true,
    monitoringInterval: 60,
    monitoringRoleARN: "arn:aws:iam::1:role/m",
    performanceInsightsEnabled: true,
    performanceInsightsKMSKeyID: "pi-key",
    performanceInsightsRetentionPeriod: 7,
    processorFeatures: [{ name: "coreCount", value: "2" }],
    tdeCredentialARN: "arn:tde",
    tdeCredentialPassword: "tde-pw",
    timezone: "UTC",
  };

  test("CreateDBInstance carries every field under RDS's member names", () => {
    const input = createDBInstanceInput(vpc, {}, undefined);
    assert.deepEqual(
      {
        DBSubnetGroupName: input.DBSubnetGroupName,
        VpcSecurityGroupIds: input.VpcSecurityGroupIds,
        KmsKeyId: input.KmsKeyId,
        Port: input.Port,
        CopyTagsToSnapshot: input.CopyTagsToSnapshot,
        Iops: input.Iops,
        StorageThroughput: input.StorageThroughput,
        MaxAllocatedStorage: input.MaxAllocatedStorage,
        EnableCloudwatchLogsExports: input.EnableCloudwatchLogsExports,
        EnableIAMDatabaseAuthentication: input.EnableIAMDatabaseAuthentication,
        MonitoringInterval: input.MonitoringInterval,
        MonitoringRoleArn: input.MonitoringRoleArn,
        EnablePerformanceInsights: input.EnablePerformanceInsights,
        PerformanceInsightsKMSKeyId: input.PerformanceInsightsKMSKeyId,
        ProcessorFeatures: input.ProcessorFeatures,
        TdeCredentialArn: input.TdeCredentialArn,
        TdeCredentialPassword: input.TdeCredentialPassword,
        Timezone: input.Timezone,
      },
      {
        DBSubnetGroupName: "private",
        VpcSecurityGroupIds: ["sg-1", "sg-2"],
        KmsKeyId: "key-1",
        Port: 5433,
        CopyTagsToSnapshot: true,
        Iops: 3000,
        StorageThroughput: 125,
        MaxAllocatedStorage: 100,
        EnableCloudwatchLogsExports: ["postgresql"],
        EnableIAMDatabaseAuthentication: true,
        MonitoringInterval: 60,
        MonitoringRoleArn: "arn:aws:iam::1:role/m",
        EnablePerformanceInsights: true,
        PerformanceInsightsKMSKeyId: "pi-key",
        ProcessorFeatures: [{ Name: "coreCount", Value: "2" }],
        TdeCredentialArn: "arn:tde",
        TdeCredentialPassword: "tde-pw",
        Timezone: "UTC",
      },
    );
    assert.equal(input.ManageMasterUserPassword, undefined, "absent fields are left to RDS");
  });

  test("ModifyDBInstance: the port as DBPortNumber, log exports as a change, TDE with its password", () => {
    const observed: DBInstanceFields = { ...vpc, enableCloudwatchLogsExports: ["upgrade"] };
    const input = modifyDBInstanceInput(
      { ...vpc, enableCloudwatchLogsExports: ["postgresql", "upgrade"], port: 6000 },
      [
        "port",
        "enableCloudwatchLogsExports",
        "tdeCredentialARN",
        "vpcSecurityGroupIDs",
        "performanceInsightsEnabled",
      ],
      undefined,
      { ...observed, enableCloudwatchLogsExports: ["upgrade", "iam-db-auth-error"] },
    );
    assert.deepEqual(input, {
      DBInstanceIdentifier: "orders-db",
      ApplyImmediately: true,
      DBPortNumber: 6000,
      CloudwatchLogsExportConfiguration: {
        EnableLogTypes: ["postgresql"],
        DisableLogTypes: ["iam-db-auth-error"],
      },
      TdeCredentialArn: "arn:tde",
      TdeCredentialPassword: "tde-pw",
      VpcSecurityGroupIds: ["sg-1", "sg-2"],
      EnablePerformanceInsights: true,
    });
  });

  test("ModifyDBInstance for removed fields: off, 0, autoscaling off, out of the domain, default processor features", () => {
    const {
      copyTagsToSnapshot: _c,
      enableIAMDatabaseAuthentication: _i,
      performanceInsightsEnabled: _p,
      monitoringInterval: _m,
      maxAllocatedStorage: _a,
      enableCloudwatchLogsExports: _l,
      processorFeatures: _f,
      dbParameterGroupName: _g,
      ...removed
    } = vpc;
    const input = modifyDBInstanceInput(
      { ...removed, useDefaultProcessorFeatures: true },
      [
        "copyTagsToSnapshot",
        "enableIAMDatabaseAuthentication",
        "performanceInsightsEnabled",
        "monitoringInterval",
        "maxAllocatedStorage",
        "enableCloudwatchLogsExports",
        "domain",
        "processorFeatures",
        "dbParameterGroupName",
      ],
      undefined,
      { ...vpc, domain: "d-1" },
    );
    assert.deepEqual(input, {
      DBInstanceIdentifier: "orders-db",
      ApplyImmediately: true,
      CopyTagsToSnapshot: false,
      EnableIAMDatabaseAuthentication: false,
      EnablePerformanceInsights: false,
      MonitoringInterval: 0,
      MaxAllocatedStorage: 20,
      CloudwatchLogsExportConfiguration: { EnableLogTypes: [], DisableLogTypes: ["postgresql"] },
      DisableDomain: true,
      UseDefaultProcessorFeatures: true,
    });
  });

  test("DescribeDBInstances: memberships and renamed members read back in spec form; pending values count", () => {
    const f = fieldsFromAws({
      DBInstanceIdentifier: "orders-db",
      DBInstanceClass: "db.t3.micro",
      Engine: "postgres",
      Endpoint: { Address: "a", Port: 5433 },
      DBSubnetGroup: { DBSubnetGroupName: "private" },
      VpcSecurityGroups: [
        { VpcSecurityGroupId: "sg-1", Status: "active" },
        { VpcSecurityGroupId: "sg-2", Status: "adding" },
      ],
      DBParameterGroups: [{ DBParameterGroupName: "pg16", ParameterApplyStatus: "in-sync" }],
      OptionGroupMemberships: [{ OptionGroupName: "default:postgres-16", Status: "in-sync" }],
      IAMDatabaseAuthenticationEnabled: true,
      PerformanceInsightsEnabled: true,
      EnabledCloudwatchLogsExports: ["postgresql"],
      DomainMemberships: [{ Domain: "d-1", IAMRoleName: "dom" }],
      MasterUserSecret: { SecretArn: "arn:secret", KmsKeyId: "arn:aws:kms:eu-west-1:1:key/k" },
      CopyTagsToSnapshot: true,
      KmsKeyId: "arn:aws:kms:eu-west-1:1:key/k2",
      ProcessorFeatures: [{ Name: "coreCount", Value: "2" }],
      PendingModifiedValues: {
        Port: 6000,
        PendingCloudwatchLogsExports: { LogTypesToEnable: ["upgrade"], LogTypesToDisable: ["postgresql"] },
        IAMDatabaseAuthenticationEnabled: false,
      },
    });
    assert.deepEqual(
      {
        port: f.port,
        dbSubnetGroupName: f.dbSubnetGroupName,
        vpcSecurityGroupIDs: f.vpcSecurityGroupIDs,
        dbParameterGroupName: f.dbParameterGroupName,
        optionGroupName: f.optionGroupName,
        enableIAMDatabaseAuthentication: f.enableIAMDatabaseAuthentication,
        performanceInsightsEnabled: f.performanceInsightsEnabled,
        enableCloudwatchLogsExports: f.enableCloudwatchLogsExports,
        domain: f.domain,
        domainIAMRoleName: f.domainIAMRoleName,
        manageMasterUserPassword: f.manageMasterUserPassword,
        masterUserSecretKMSKeyID: f.masterUserSecretKMSKeyID,
        copyTagsToSnapshot: f.copyTagsToSnapshot,
        kmsKeyID: f.kmsKeyID,
        processorFeatures: f.processorFeatures,
      },
      {
        port: 6000,
        dbSubnetGroupName: "private",
        vpcSecurityGroupIDs: ["sg-1", "sg-2"],
        dbParameterGroupName: "pg16",
        optionGroupName: "default:postgres-16",
        enableIAMDatabaseAuthentication: false,
        performanceInsightsEnabled: true,
        enableCloudwatchLogsExports: ["upgrade"],
        domain: "d-1",
        domainIAMRoleName: "dom",
        manageMasterUserPassword: true,
        masterUserSecretKMSKeyID: "arn:aws:kms:eu-west-1:1:key/k",
        copyTagsToSnapshot: true,
        kmsKeyID: "arn:aws:kms:eu-west-1:1:key/k2",
        processorFeatures: [{ name: "coreCount", value: "2" }],
      },
    );
  });

  test("status: every ACK status field DescribeDBInstances reports, in ACK's names, timestamps in whole seconds", () => {
    const status = statusFromInstance({
      DBInstanceStatus: "modifying",
      DbInstancePort: 0,
      VpcSecurityGroups: [{ VpcSecurityGroupId: "sg-1", Status: "active" }],
      DBSubnetGroup: {
        DBSubnetGroupName: "private",
        VpcId: "vpc-1",
        Subnets: [{ SubnetIdentifier: "subnet-1", SubnetAvailabilityZone: { Name: "eu-west-1a" } }],
      },
      CertificateDetails: {
        CAIdentifier: "rds-ca-rsa2048-g1",
        ValidTill: new Date("2061-01-01T00:00:00.250Z"),
      },
      PendingModifiedValues: { DBInstanceClass: "db.t3.small", MasterUserPassword: "****" },
      MasterUserSecret: { SecretArn: "arn:secret", SecretStatus: "active" },
      LatestRestorableTime: new Date("2024-05-01T10:00:00.999Z"),
      EnabledCloudwatchLogsExports: ["postgresql"],
      IAMDatabaseAuthenticationEnabled: true,
    });
    assert.deepEqual(status, {
      dbInstanceStatus: "modifying",
      certificateDetails: { cAIdentifier: "rds-ca-rsa2048-g1", validTill: "2061-01-01T00:00:00Z" },
      dbInstancePort: 0,
      dbSubnetGroup: {
        dbSubnetGroupName: "private",
        vpcID: "vpc-1",
        subnets: [{ subnetIdentifier: "subnet-1", subnetAvailabilityZone: { name: "eu-west-1a" } }],
      },
      enabledCloudwatchLogsExports: ["postgresql"],
      iamDatabaseAuthenticationEnabled: true,
      latestRestorableTime: "2024-05-01T10:00:00Z",
      masterUserSecret: { secretARN: "arn:secret", secretStatus: "active" },
      pendingModifiedValues: { dbInstanceClass: "db.t3.small", masterUserPassword: "****" },
      vpcSecurityGroups: [{ vpcSecurityGroupID: "sg-1", status: "active" }],
    });
  });
});
