// What the DBInstance kind sends and reads, driven through the generic runtime (db-instance.ts)
// on an in-process RDS (test/support/fake-sdk.ts): CreateDBInstance's input, the one
// ModifyDBInstance an update sends, DescribeDBInstances' answer in spec form and as ACK's status
// fields, the ARN and the region it names. The shims below are named as the hand-written
// mapping.ts's functions this test was first written against.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isDeepStrictEqual } from "node:util";
import type {
  DBInstance as AwsDBInstance,
  CreateDBInstanceCommandInput,
  ModifyDBInstanceCommandInput,
} from "@aws-sdk/client-rds";
import { type Fields, fakeSdk, type SentCall } from "../../../test/support/fake-sdk.ts";
import { parseRegionalArn } from "../arn.ts";
import { declaredKindModule } from "../declared-kind/module.ts";
import type { DeclaredObserved } from "../declared-kind/source.ts";
import { noSecrets, type SecretValues } from "../service-module.ts";
import { type AwsTag, tagMapFromAws } from "../tag-list.ts";
import { dbInstanceService, dbInstanceSource } from "./db-instance.ts";
import { dbInstanceFieldGroups } from "./generated/db-instance-fields.ts";
import type { DBInstanceFields, Tag } from "./schema.ts";

// ---- the module's calls, named as the functions this test was first written against ----

/** The DBInstance module on an in-process RDS answering each call as `answer` says. */
function on(answer: (call: SentCall) => Fields) {
  const aws = fakeSdk(answer);
  return {
    aws,
    module: declaredKindModule({ ...dbInstanceSource, sdk: aws.sdk } as unknown as typeof dbInstanceSource),
  };
}

/** The Secret's value of spec.masterUserPassword as the reconciler reads it (changed: sent again). */
const passwordFromSecret = (password: string | undefined, changed: boolean): SecretValues =>
  password === undefined
    ? noSecrets
    : {
        values: new Map([["spec.masterUserPassword", password]]),
        changed: changed ? ["spec.masterUserPassword"] : [],
      };

/** What RDS is asked about when the module reads the spec's instance. */
async function awsIdentifier(spec: Pick<DBInstanceFields, "dbInstanceIdentifier">): Promise<string> {
  const { aws, module } = on(() => ({ DBInstances: [] }));
  await module.read(aws.client, spec, {});
  const asked = aws.sent.find((c) => c.operation === "DescribeDBInstances");
  return String(asked?.input["DBInstanceIdentifier"]);
}

const arnOf = (identifier: string, region: string, account: string) =>
  dbInstanceService.arn({ dbInstanceIdentifier: identifier }, region, account);

/**
 * The region, account and identifier of a DB instance whose DescribeDBInstances answer gives
 * `arn`: undefined where the module takes no region from it (not a DB instance's ARN).
 */
async function parseDBInstanceArn(
  arn: string,
): Promise<{ readonly region: string; readonly account: string; readonly identifier: string } | undefined> {
  const observed = await read({ DBInstanceIdentifier: "orders-db", DBInstanceArn: arn });
  assert.equal(observed.arn, arn);
  const region = dbInstanceService.observedRegion?.(observed);
  if (region === undefined) return undefined;
  const parts = parseRegionalArn(observed.arn, "rds");
  assert.ok(parts !== undefined);
  return { region, account: parts.account, identifier: parts.resource.slice(1).join(":") };
}

/** The CreateDBInstance input the module sends for `spec` (the password: its Secret's value). */
async function createDBInstanceInput(
  spec: DBInstanceFields,
  ownerTags: Readonly<Record<string, string>>,
  masterUserPassword: string | undefined,
): Promise<CreateDBInstanceCommandInput> {
  const { aws, module } = on(() => ({}));
  const made = await module.create(
    aws.client,
    spec,
    "us-east-1",
    ownerTags,
    {},
    passwordFromSecret(masterUserPassword, false),
  );
  assert.equal(made.created, true);
  const sent = aws.sent.filter((c) => c.operation === "CreateDBInstance");
  assert.equal(sent.length, 1);
  return sent[0]?.input as unknown as CreateDBInstanceCommandInput;
}

/** The tags the module creates an instance with, from the user's and the ownership tags. */
async function instanceTags(
  tags: readonly Tag[],
  ownerTags: Readonly<Record<string, string>>,
): Promise<Record<string, string>> {
  const input = await createDBInstanceInput(
    { dbInstanceIdentifier: "a", dbInstanceClass: "db.t3.micro", engine: "mysql", tags: [...tags] },
    ownerTags,
    undefined,
  );
  return tagMapFromAws(input.Tags as AwsTag[] | undefined);
}

/** What AWS has, as the module's read gives it, for spec-form fields. */
const observedOf = (fields: DBInstanceFields): DeclaredObserved => ({
  fields,
  tags: Object.fromEntries((fields.tags ?? []).map((t) => [t.key, t.value ?? ""])),
  status: {},
  arn: `arn:aws:rds:us-east-1:111111111111:db:${fields.dbInstanceIdentifier.toLowerCase()}`,
});

/** Spec fields RDS never reports or the module never compares (the password, processor defaults). */
const notCompared = new Set(Object.keys(dbInstanceFieldGroups.notCompared));

/**
 * The ModifyDBInstance input the module's update sends where RDS has `observed` and the spec says
 * `desired`: the two differ in exactly `fields` (checked), and a password is the Secret's new
 * value (sent again).
 */
async function modifyDBInstanceInput(
  desired: DBInstanceFields,
  fields: readonly string[],
  masterUserPassword: string | undefined,
  observed: DBInstanceFields,
): Promise<ModifyDBInstanceCommandInput> {
  const have = observed as unknown as Fields;
  const want = desired as unknown as Fields;
  for (const f of new Set([...fields, ...Object.keys(want), ...Object.keys(have)])) {
    if (notCompared.has(f)) continue;
    assert.equal(
      !isDeepStrictEqual(want[f], have[f]),
      fields.includes(f),
      `desired and observed differ in exactly ${fields.join(", ") || "nothing"} (${f})`,
    );
  }
  const seen = observedOf(observed);
  const drift = dbInstanceService.diff(desired, seen);
  assert.deepEqual(
    drift.filter((p) => !fields.includes(p.slice("spec.".length))),
    [],
    "the module sees no other change",
  );
  const { aws, module } = on(() => ({}));
  await module.update(aws.client, desired, seen, {}, {}, passwordFromSecret(masterUserPassword, true));
  const sent = aws.sent.filter((c) => c.operation === "ModifyDBInstance");
  assert.deepEqual(
    aws.sent.map((c) => c.operation),
    ["ModifyDBInstance"],
    "one ModifyDBInstance and nothing else",
  );
  return sent[0]?.input as unknown as ModifyDBInstanceCommandInput;
}

/** What the module reads from a DescribeDBInstances answer holding `instance`. */
async function read(instance: AwsDBInstance, specIdentifier?: string): Promise<DeclaredObserved> {
  const described = { DBInstanceIdentifier: "orders-db", ...instance };
  const { module, aws } = on((call) =>
    call.operation === "DescribeDBInstances" ? { DBInstances: [described] } : {},
  );
  const r = await module.read(
    aws.client,
    { dbInstanceIdentifier: specIdentifier ?? described.DBInstanceIdentifier },
    {},
  );
  assert.ok(r.found);
  return r.observed;
}

/** What DescribeDBInstances says, in spec form (tags: every tag, ownership tags included). */
const fieldsFromAws = async (instance: AwsDBInstance, specIdentifier?: string) =>
  (await read(instance, specIdentifier)).fields as unknown as DBInstanceFields;

const statusFromInstance = async (instance: AwsDBInstance) =>
  dbInstanceService.statusFrom?.(await read(instance)) ?? {};

/** The user's tags of a tag map, as adoption writes them into a spec. */
const userTags = (tags: Readonly<Record<string, string>>) =>
  (
    dbInstanceService.specFromObserved(
      { fields: { dbInstanceIdentifier: "x" }, tags, status: {}, arn: "" },
      { dbInstanceIdentifier: "x" },
    ) as { tags?: unknown }
  ).tags;

// ---- the tests ----

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
  test("RDS is asked in lowercase; the ARN names the lowercase identifier", async () => {
    assert.equal(await awsIdentifier(spec), "orders-db");
    assert.equal(
      arnOf("Orders-DB", "eu-west-1", "111111111111"),
      "arn:aws:rds:eu-west-1:111111111111:db:orders-db",
    );
    assert.equal(arnOf("x", "cn-north-1", "1"), "arn:aws-cn:rds:cn-north-1:1:db:x");
    assert.deepEqual(await parseDBInstanceArn("arn:aws:rds:eu-west-1:111111111111:db:orders-db"), {
      region: "eu-west-1",
      account: "111111111111",
      identifier: "orders-db",
    });
    assert.equal(await parseDBInstanceArn("arn:aws:rds:eu-west-1:1:snapshot:x"), undefined);
    assert.equal(await parseDBInstanceArn("arn:aws:dynamodb:eu-west-1:1:table/x"), undefined);
  });
});

describe("CreateDBInstance input", () => {
  test("every spec field, the password from its Secret, the user's and the ownership tags", async () => {
    const input = await createDBInstanceInput(spec, owner, "pw-from-secret");
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
  test("absent fields are left to RDS; no password without a Secret value", async () => {
    const input = await createDBInstanceInput(
      { dbInstanceIdentifier: "a", dbInstanceClass: "db.t3.micro", engine: "mysql" },
      {},
      undefined,
    );
    assert.deepEqual(input, { DBInstanceIdentifier: "a", DBInstanceClass: "db.t3.micro", Engine: "mysql" });
  });
  test("ownership tags win over a same-keyed user tag", async () => {
    assert.deepEqual(
      await instanceTags([{ key: "services.k8s.aws/owner-uid", value: "forged" }], owner),
      owner,
    );
  });
});

describe("ModifyDBInstance input", () => {
  test("only the changed fields, ApplyImmediately always, AllowMajorVersionUpgrade with a version change", async () => {
    assert.deepEqual(
      await modifyDBInstanceInput(spec, ["backupRetentionPeriod", "deletionProtection"], undefined, {
        ...spec,
        backupRetentionPeriod: 1,
        deletionProtection: true,
      }),
      {
        DBInstanceIdentifier: "orders-db",
        ApplyImmediately: true,
        BackupRetentionPeriod: 7,
        DeletionProtection: false,
      },
    );
    assert.deepEqual(
      await modifyDBInstanceInput(spec, ["engineVersion", "dbInstanceClass"], undefined, {
        ...spec,
        engineVersion: "15.7",
        dbInstanceClass: "db.t3.small",
      }),
      {
        DBInstanceIdentifier: "orders-db",
        ApplyImmediately: true,
        EngineVersion: "16.3",
        AllowMajorVersionUpgrade: true,
        DBInstanceClass: "db.t3.micro",
      },
    );
  });
  test("a new password alone", async () => {
    assert.deepEqual(await modifyDBInstanceInput(spec, [], "rotated", spec), {
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
    // In key order: the spec form keeps AWS's order (the hand-written module sorted it; nothing
    // compares tags by order: drift and adoption take them as a set).
    TagList: [
      { Key: "services.k8s.aws/owner-uid", Value: "u1" },
      { Key: "team", Value: "shop" },
    ],
  };
  test("spec form keeps the spec's identifier spelling and every tag", async () => {
    const { masterUserPassword: _p, ...withoutPassword } = spec;
    assert.deepEqual(await fieldsFromAws(described, "Orders-DB"), {
      ...withoutPassword,
      port: 5432,
      tags: [
        { key: "services.k8s.aws/owner-uid", value: "u1" },
        { key: "team", value: "shop" },
      ],
    });
    assert.equal((await fieldsFromAws(described)).dbInstanceIdentifier, "orders-db");
    assert.deepEqual(userTags({ team: "shop", "services.k8s.aws/owner-uid": "u1" }), [
      { key: "team", value: "shop" },
    ]);
  });
  test("pending modifications count as the instance's (no flip-flop while RDS applies them)", async () => {
    const f = await fieldsFromAws({
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
  test("status: ACK's dbInstanceStatus, endpoint {address, port, hostedZoneID}, dbiResourceID, instanceCreateTime", async () => {
    assert.deepEqual(await statusFromInstance(described), {
      dbInstanceStatus: "available",
      endpoint: {
        address: "orders-db.x.eu-west-1.rds.amazonaws.com",
        port: 5432,
        hostedZoneID: "Z2R2ITUGPM61AM",
      },
      dbiResourceID: "db-ABC",
      instanceCreateTime: "2024-05-01T10:00:00Z",
    });
    assert.deepEqual(await statusFromInstance({ DBInstanceStatus: "creating" }), {
      dbInstanceStatus: "creating",
    });
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

  test("CreateDBInstance carries every field under RDS's member names", async () => {
    // The spec names a Secret for the master password: the module creates only with its value
    // (as the hand-written module did: SecretUnavailable otherwise).
    const input = await createDBInstanceInput(vpc, {}, "pw-from-secret");
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

  test("ModifyDBInstance: the port as DBPortNumber, log exports as a change, TDE with its password", async () => {
    // RDS has another TDE credential, one security group and Performance Insights off.
    const observed: DBInstanceFields = {
      ...vpc,
      enableCloudwatchLogsExports: ["upgrade"],
      tdeCredentialARN: "arn:tde-old",
      vpcSecurityGroupIDs: ["sg-1"],
      performanceInsightsEnabled: false,
    };
    const input = await modifyDBInstanceInput(
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

  test("ModifyDBInstance for removed fields: off, 0, autoscaling off, out of the domain, default processor features", async () => {
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
    const input = await modifyDBInstanceInput(
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
      // RDS has a domain and a parameter group the spec left out (a kept field: nothing sent).
      { ...vpc, domain: "d-1", dbParameterGroupName: "pg16" },
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

  test("DescribeDBInstances: memberships and renamed members read back in spec form; pending values count", async () => {
    const f = await fieldsFromAws({
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

  test("status: every ACK status field DescribeDBInstances reports, in ACK's names, timestamps in whole seconds", async () => {
    const status = await statusFromInstance({
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
