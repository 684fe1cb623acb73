// Drift and late initialisation of the DBInstance kind served by the generic runtime
// (db-instance.ts): the module's diff and lateInitialize, on what it observes of these spec-form
// fields, in the shapes this test was first written against (the shims below are named as the
// hand-written diff.ts's functions were).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { DeclaredObserved } from "../declared-kind/source.ts";
import { compareVersions, dbInstanceService, dbInstanceSource, engineVersionDrift } from "./db-instance.ts";
import type { DBInstanceFields } from "./schema.ts";

/**
 * What the module observes when RDS has `fields`: as its read holds them (the kind's observedFields
 * hook: no storage type the spec cannot hold, no Availability Zone beside Multi-AZ), every tag as a map.
 */
function observedOf(fields: DBInstanceFields): DeclaredObserved {
  return {
    fields: dbInstanceSource.hooks.observedFields(fields),
    tags: Object.fromEntries((fields.tags ?? []).map((t) => [t.key, t.value ?? ""])),
    status: {},
    arn: "",
  };
}

/** The spec paths that differ between the spec and what RDS has, in the old diff's shape. */
function diff(desired: DBInstanceFields, observed: DBInstanceFields): { path: string }[] {
  return dbInstanceService.diff(desired, observedOf(observed)).map((path) => ({ path }));
}

/** The spec with the late-initialised fields filled, and those fields (without "spec."). */
function lateInitialize(
  spec: DBInstanceFields,
  observed: DBInstanceFields,
): { spec: DBInstanceFields; initialized: string[] } {
  const r = dbInstanceService.lateInitialize(spec, observedOf(observed));
  return {
    spec: r.spec as DBInstanceFields,
    initialized: r.initialized.map((path) => path.replace(/^spec\./, "")),
  };
}

const base: DBInstanceFields = {
  dbInstanceIdentifier: "orders",
  dbInstanceClass: "db.t3.micro",
  engine: "postgres",
  engineVersion: "16.3",
  allocatedStorage: 20,
  masterUsername: "admin",
  multiAZ: false,
  storageType: "gp2",
  storageEncrypted: false,
  publiclyAccessible: false,
  backupRetentionPeriod: 1,
  deletionProtection: false,
};
const paths = (d: DBInstanceFields, o: DBInstanceFields) => diff(d, o).map((x) => x.path);

describe("diff", () => {
  test("nothing differs when RDS has the spec", () => {
    assert.deepEqual(paths(base, base), []);
  });
  test("each modifiable setting is drift, named by its spec path", () => {
    assert.deepEqual(
      paths(base, {
        ...base,
        dbInstanceClass: "db.t3.small",
        multiAZ: true,
        storageType: "gp3",
        publiclyAccessible: true,
        backupRetentionPeriod: 0,
        deletionProtection: true,
      }),
      [
        "spec.dbInstanceClass",
        "spec.multiAZ",
        "spec.storageType",
        "spec.publiclyAccessible",
        "spec.backupRetentionPeriod",
        "spec.deletionProtection",
      ],
    );
  });
  test("absent fields are whatever RDS has; what RDS cannot change is never drift", () => {
    const minimal: DBInstanceFields = {
      dbInstanceIdentifier: "orders",
      dbInstanceClass: "db.t3.micro",
      engine: "postgres",
    };
    assert.deepEqual(paths(minimal, { ...base, backupRetentionPeriod: 30, deletionProtection: true }), []);
    assert.deepEqual(
      paths(
        {
          ...base,
          masterUsername: "root",
          dbName: "a",
          storageEncrypted: true,
          masterUserPassword: { name: "s", key: "k" },
        },
        { ...base, dbName: "b" },
      ),
      [],
    );
  });
  test("allocatedStorage: only a larger spec is drift (RDS cannot shrink storage)", () => {
    assert.deepEqual(paths({ ...base, allocatedStorage: 50 }, base), ["spec.allocatedStorage"]);
    assert.deepEqual(paths(base, { ...base, allocatedStorage: 50 }), []);
  });
  test("engineVersion: a major version matches its minors; an RDS minor upgrade is not undone; a newer spec is applied", () => {
    assert.deepEqual(paths({ ...base, engineVersion: "16" }, base), []);
    assert.deepEqual(paths(base, { ...base, engineVersion: "16.4" }), []);
    assert.deepEqual(paths({ ...base, engineVersion: "16.4" }, base), ["spec.engineVersion"]);
    assert.deepEqual(paths({ ...base, engineVersion: "17.1" }, base), ["spec.engineVersion"]);
    assert.deepEqual(paths(base, { ...base, engineVersion: "17.1" }), ["spec.engineVersion"]);
    assert.equal(engineVersionDrift("1", "16.3"), true, "'1' is not a prefix version of 16.3");
    assert.equal(engineVersionDrift("8.0", "8.0.39"), false);
    assert.equal(compareVersions("16.10", "16.9"), 1);
    assert.equal(compareVersions("8.0.39", "8.0.39"), 0);
    assert.equal(
      compareVersions("19.0.0.0.ru-2024-01.rur-2024-01.r1", "19.0.0.0.ru-2023-10.rur-2023-10.r1"),
      1,
    );
  });
  test("tags compare as a map without ownership tags; out-of-band tags are drift", () => {
    assert.deepEqual(
      paths(
        { ...base, tags: [{ key: "a", value: "1" }] },
        {
          ...base,
          tags: [
            { key: "services.k8s.aws/owner-uid", value: "u" },
            { key: "a", value: "1" },
          ],
        },
      ),
      [],
    );
    assert.deepEqual(paths(base, { ...base, tags: [{ key: "x", value: "1" }] }), ["spec.tags"]);
    assert.deepEqual(
      paths({ ...base, tags: [{ key: "a" }] }, { ...base, tags: [{ key: "a", value: "" }] }),
      [],
    );
  });
});

describe("lateInitialize", () => {
  test("fills what the spec leaves out with RDS's values, as ACK does", () => {
    const minimal: DBInstanceFields = {
      dbInstanceIdentifier: "orders",
      dbInstanceClass: "db.t3.micro",
      engine: "postgres",
    };
    const r = lateInitialize(minimal, { ...base, dbName: "postgres" });
    assert.deepEqual(r.initialized, [
      "engineVersion",
      "allocatedStorage",
      "masterUsername",
      "dbName",
      "multiAZ",
      "storageType",
      "storageEncrypted",
      "publiclyAccessible",
      "backupRetentionPeriod",
      "deletionProtection",
    ]);
    assert.deepEqual(r.spec, { ...base, dbName: "postgres" });
    assert.equal(lateInitialize(base, base).spec, base, "nothing to fill: the same object");
  });
  test("never writes a value the spec's schema refuses (aurora's storage) nor one RDS does not have", () => {
    const minimal: DBInstanceFields = {
      dbInstanceIdentifier: "orders",
      dbInstanceClass: "db.t3.micro",
      engine: "postgres",
    };
    const { dbName: _d, ...noDbName } = { ...base, dbName: undefined };
    const r = lateInitialize(minimal, {
      ...noDbName,
      storageType: "aurora" as DBInstanceFields["storageType"],
    });
    assert.ok(!r.initialized.includes("storageType"));
    assert.ok(!r.initialized.includes("dbName"));
  });
});

describe("diff of the fields RDS normalises, and of the ones whose absence means off", () => {
  test("windows and group names compare case-insensitively; security groups and log types as sets", () => {
    const desired: DBInstanceFields = {
      ...base,
      preferredMaintenanceWindow: "Sun:05:00-Sun:06:00",
      dbSubnetGroupName: "Private",
      dbParameterGroupName: "PG16",
      vpcSecurityGroupIDs: ["sg-2", "sg-1"],
      enableCloudwatchLogsExports: ["upgrade", "postgresql"],
    };
    const observed: DBInstanceFields = {
      ...base,
      preferredMaintenanceWindow: "sun:05:00-sun:06:00",
      dbSubnetGroupName: "private",
      dbParameterGroupName: "pg16",
      vpcSecurityGroupIDs: ["sg-1", "sg-2"],
      enableCloudwatchLogsExports: ["postgresql", "upgrade"],
    };
    assert.deepEqual(paths(desired, observed), []);
    assert.deepEqual(paths(desired, { ...observed, vpcSecurityGroupIDs: ["sg-1"] }), [
      "spec.vpcSecurityGroupIDs",
    ]);
  });

  test("absent copyTagsToSnapshot, IAM auth, Performance Insights, monitoring, log exports and autoscaling mean off", () => {
    const on: DBInstanceFields = {
      ...base,
      copyTagsToSnapshot: true,
      enableIAMDatabaseAuthentication: true,
      performanceInsightsEnabled: true,
      monitoringInterval: 60,
      enableCloudwatchLogsExports: ["postgresql"],
      maxAllocatedStorage: 100,
      domain: "d-1",
    };
    assert.deepEqual(paths(on, on), []);
    assert.deepEqual(paths(base, on), [
      "spec.maxAllocatedStorage",
      "spec.copyTagsToSnapshot",
      "spec.enableIAMDatabaseAuthentication",
      "spec.enableCloudwatchLogsExports",
      "spec.monitoringInterval",
      "spec.performanceInsightsEnabled",
      "spec.domain",
    ]);
    assert.deepEqual(
      paths(base, { ...base, maxAllocatedStorage: 20, monitoringInterval: 0, copyTagsToSnapshot: false }),
      [],
      "RDS's way of saying off is not drift",
    );
  });

  test("a KMS key matches by ARN or key ID; an alias is taken as matching", () => {
    const arn = "arn:aws:kms:eu-west-1:111111111111:key/1234";
    for (const want of [arn, "1234", "alias/rds"]) {
      assert.deepEqual(
        paths({ ...base, performanceInsightsKMSKeyID: want }, { ...base, performanceInsightsKMSKeyID: arn }),
        [],
        want,
      );
    }
    assert.deepEqual(
      paths({ ...base, performanceInsightsKMSKeyID: "5678" }, { ...base, performanceInsightsKMSKeyID: arn }),
      ["spec.performanceInsightsKMSKeyID"],
    );
  });

  test("manageMasterUserPassword, processor features and TDE are compared only while the spec sets them", () => {
    const managed: DBInstanceFields = {
      ...base,
      manageMasterUserPassword: true,
      processorFeatures: [{ name: "coreCount", value: "2" }],
    };
    assert.deepEqual(paths(base, managed), []);
    assert.deepEqual(paths({ ...base, manageMasterUserPassword: false }, managed), [
      "spec.manageMasterUserPassword",
    ]);
    assert.deepEqual(paths({ ...base, useDefaultProcessorFeatures: true }, managed), [
      "spec.processorFeatures",
    ]);
    assert.deepEqual(paths({ ...base, tdeCredentialARN: "arn:tde" }, base), ["spec.tdeCredentialARN"]);
  });

  test("late initialisation copies RDS's placement and settings, but no Availability Zone beside Multi-AZ", () => {
    const observed: DBInstanceFields = {
      ...base,
      availabilityZone: "eu-west-1a",
      port: 5432,
      vpcSecurityGroupIDs: ["sg-1"],
      dbSubnetGroupName: "default",
      preferredBackupWindow: "03:00-03:30",
    };
    const r = lateInitialize(
      { dbInstanceIdentifier: "orders", dbInstanceClass: "db.t3.micro", engine: "postgres" },
      observed,
    );
    for (const f of [
      "availabilityZone",
      "port",
      "vpcSecurityGroupIDs",
      "dbSubnetGroupName",
      "preferredBackupWindow",
    ] as const) {
      assert.ok(r.initialized.includes(f), f);
    }
    const multi = lateInitialize(
      { dbInstanceIdentifier: "orders", dbInstanceClass: "db.t3.micro", engine: "postgres" },
      { ...observed, multiAZ: true },
    );
    assert.ok(!multi.initialized.includes("availabilityZone"));
  });
});
