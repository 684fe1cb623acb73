import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compareVersions, diff, engineVersionDrift, lateInitialize } from "./diff.ts";
import type { DBInstanceFields } from "./schema.ts";

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
            { key: "crossrole.dev/owner-uid", value: "u" },
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
  test("never writes a value the spec's schema refuses (io1) nor one RDS does not have", () => {
    const minimal: DBInstanceFields = {
      dbInstanceIdentifier: "orders",
      dbInstanceClass: "db.t3.micro",
      engine: "postgres",
    };
    const { dbName: _d, ...noDbName } = { ...base, dbName: undefined };
    const r = lateInitialize(minimal, { ...noDbName, storageType: "io1" as DBInstanceFields["storageType"] });
    assert.ok(!r.initialized.includes("storageType"));
    assert.ok(!r.initialized.includes("dbName"));
  });
});
