// The DBInstance CRD generated from src/services/rds/schema.ts on a real kube-apiserver: it is
// accepted, every valid DBInstance example is admitted, every invalid one is rejected at its
// field (the same table schema.test.ts runs through zod), the fields RDS cannot change
// (dbInstanceIdentifier, engine, masterUsername, dbName, storageEncrypted) are immutable with a
// message naming them, allocatedStorage can grow but not shrink, the settings RDS can change
// can change, late initialisation can add an immutable field that was absent, and status is kept.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { dbInstanceCrdSource } from "../../src/services/rds/schema.ts";
import { rejection, show } from "../support/admission.ts";
import {
  dbInstanceExampleNamespace,
  dbInstanceInvalidExamples,
  dbInstanceValidExamples,
} from "../support/examples/dbinstance.ts";
import { kindAdmissionSuite } from "../support/kind-admission.ts";

type Obj = Record<string, unknown>;

const kind = kindAdmissionSuite({
  kind: "DBInstance",
  source: dbInstanceCrdSource,
  namespace: dbInstanceExampleNamespace,
  valid: dbInstanceValidExamples,
  invalid: dbInstanceInvalidExamples,
});

describe("DBInstance fields RDS cannot change are immutable; storage only grows", () => {
  test("changing each immutable field is rejected naming it; mutable settings change; status is kept", async () => {
    const original = {
      apiVersion: "rds.services.k8s.aws/v1alpha1",
      kind: "DBInstance",
      metadata: { name: "immutable", namespace: dbInstanceExampleNamespace },
      spec: {
        dbInstanceIdentifier: "orders",
        dbInstanceClass: "db.t3.micro",
        engine: "postgres",
        allocatedStorage: 50,
        masterUsername: "admin",
        dbName: "orders",
        storageEncrypted: false,
        masterUserPassword: { name: "orders-db", key: "password" },
      },
    };
    let stored = (await kind.create(original)) as { metadata: Obj; spec: Obj };
    const replace = (spec: Obj) => kind.replace(original, stored.metadata, spec);
    for (const [field, value] of [
      ["dbInstanceIdentifier", "orders2"],
      ["engine", "mysql"],
      ["masterUsername", "root"],
      ["dbName", "other"],
      ["storageEncrypted", true],
    ] as const) {
      const causes = await rejection(() => replace({ ...original.spec, [field]: value }));
      assert.ok(
        causes.some(
          (c) => c.field === `spec.${field}` && (c.message ?? "").includes(`${field} is immutable`),
        ),
        `${field}: ${show(causes)}`,
      );
    }
    const shrunk = await rejection(() => replace({ ...original.spec, allocatedStorage: 20 }));
    assert.ok(
      shrunk.some(
        (c) =>
          c.field === "spec.allocatedStorage" && (c.message ?? "").includes("allocatedStorage can only grow"),
      ),
      show(shrunk),
    );
    stored = (await replace({
      ...original.spec,
      dbInstanceClass: "db.t3.small",
      allocatedStorage: 100,
      multiAZ: true,
      backupRetentionPeriod: 7,
      deletionProtection: true,
      engineVersion: "16.3",
      masterUserPassword: { name: "orders-db-v2", key: "password" },
    })) as { metadata: Obj; spec: Obj };
    assert.equal(stored.spec["dbInstanceClass"], "db.t3.small");
    assert.equal(stored.spec["allocatedStorage"], 100);
    assert.deepEqual(stored.spec["masterUserPassword"], { name: "orders-db-v2", key: "password" });

    const status = {
      dbInstanceStatus: "available",
      endpoint: {
        address: "orders.abc.us-east-1.rds.amazonaws.com",
        port: 5432,
        hostedZoneID: "Z2R2ITUGPM61AM",
      },
      dbiResourceID: "db-ABC",
      ackResourceMetadata: { arn: "arn:aws:rds:us-east-1:111111111111:db:orders" },
    };
    const withStatus = (await kind.replaceStatus(original, stored.metadata, stored.spec, status)) as {
      status?: Obj;
    };
    assert.deepEqual(withStatus.status, status);
  });

  test("late initialisation may add an immutable field the spec left out", async () => {
    const original = {
      apiVersion: "rds.services.k8s.aws/v1alpha1",
      kind: "DBInstance",
      metadata: { name: "late-init", namespace: dbInstanceExampleNamespace },
      spec: { dbInstanceIdentifier: "late", dbInstanceClass: "db.t3.micro", engine: "mysql" },
    };
    const stored = (await kind.create(original)) as { metadata: Obj; spec: Obj };
    const filled = (await kind.replace(original, stored.metadata, {
      ...original.spec,
      masterUsername: "admin",
      storageEncrypted: false,
      allocatedStorage: 20,
      engineVersion: "8.0.39",
    })) as { spec: Obj };
    assert.equal(filled.spec["masterUsername"], "admin");
    assert.equal(filled.spec["storageEncrypted"], false);
  });
});
