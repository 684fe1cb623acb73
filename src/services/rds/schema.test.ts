import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  dbInstanceInvalidExamples,
  dbInstanceValidExamples,
} from "../../../test/support/examples/dbinstance.ts";
import { buildCrd } from "../../api/crd.ts";
import { describeIssues } from "../../api/rules.ts";
import { structuralProblems } from "../../api/structural.ts";
import { dbInstanceCrdSource, dbInstanceSchema, dbInstanceSpecSchema, maxDBInstanceTags } from "./schema.ts";

function problems(spec: unknown): string[] {
  const result = dbInstanceSpecSchema.safeParse(spec);
  return result.success ? [] : describeIssues(result.error, ["spec"]);
}

const base = { dbInstanceIdentifier: "orders", dbInstanceClass: "db.t3.micro", engine: "postgres" };

describe("dbInstanceSpecSchema", () => {
  test("requires dbInstanceIdentifier, dbInstanceClass and engine (as ACK)", () => {
    const found = problems({});
    for (const f of ["dbInstanceIdentifier", "dbInstanceClass", "engine"]) {
      assert.ok(
        found.some((p) => p.startsWith(`spec.${f}: `) && p.includes(`${f} is required`)),
        found.join("\n"),
      );
    }
  });

  for (const [id, ok] of [
    ["a", true],
    ["Orders-DB-1", true],
    [`a${"0".repeat(62)}`, true],
    [`a${"0".repeat(63)}`, false],
    ["", false],
    ["1abc", false],
    ["-abc", false],
    ["ab--c", false],
    ["abc-", false],
    ["ab_c", false],
    ["ab.c", false],
  ] as const) {
    test(`identifier ${JSON.stringify(id.length > 12 ? `${id.slice(0, 5)}...(${id.length})` : id)} is ${ok ? "accepted" : "rejected"}`, () => {
      const found = problems({ ...base, dbInstanceIdentifier: id });
      assert.equal(found.length === 0, ok, found.join("\n"));
      if (!ok) assert.ok(found.every((p) => p.startsWith("spec.dbInstanceIdentifier: ")));
    });
  }

  test("instance classes, engines, storage types and ranges", () => {
    for (const c of ["db.t3.micro", "db.m6g.2xlarge", "db.r5.large.tpc2.mem2x", "db.serverless"]) {
      assert.deepEqual(problems({ ...base, dbInstanceClass: c }), [], c);
    }
    for (const c of ["t3.micro", "db.T3.micro", "db.", "db..x"]) {
      assert.ok(
        problems({ ...base, dbInstanceClass: c }).some((p) => p.startsWith("spec.dbInstanceClass: ")),
        c,
      );
    }
    for (const e of ["mysql", "mariadb", "postgres", "oracle-se2", "sqlserver-ex"]) {
      assert.deepEqual(problems({ ...base, engine: e }), [], e);
    }
    for (const e of ["MySQL", "aurora-mysql", "postgresql"]) {
      assert.ok(
        problems({ ...base, engine: e }).some((p) => p.startsWith("spec.engine: ")),
        e,
      );
    }
    assert.deepEqual(problems({ ...base, storageType: "gp3", allocatedStorage: 20 }), []);
    assert.ok(problems({ ...base, storageType: "io2" }).some((p) => p.includes("need provisioned IOPS")));
    assert.deepEqual(problems({ ...base, storageType: "io2", iops: 3000 }), []);
    assert.ok(
      problems({ ...base, allocatedStorage: 20.5 }).some((p) => p.startsWith("spec.allocatedStorage: ")),
    );
    assert.ok(
      problems({ ...base, allocatedStorage: 65537 }).some((p) => p.startsWith("spec.allocatedStorage: ")),
    );
    assert.deepEqual(problems({ ...base, backupRetentionPeriod: 0 }), []);
    assert.ok(problems({ ...base, backupRetentionPeriod: -1 }).length > 0);
  });

  test("masterUserPassword is ACK's SecretKeyReference {namespace?, name, key}, never a value", () => {
    assert.deepEqual(problems({ ...base, masterUserPassword: { name: "db", key: "password" } }), []);
    assert.deepEqual(
      problems({ ...base, masterUserPassword: { namespace: "shop", name: "db", key: "password" } }),
      [],
    );
    assert.ok(
      problems({ ...base, masterUserPassword: "s3cret-value" }).some(
        (p) => p.startsWith("spec.masterUserPassword: ") && !p.includes("s3cret-value"),
      ),
    );
    assert.ok(
      problems({ ...base, masterUserPassword: { key: "password" } }).some((p) =>
        p.startsWith("spec.masterUserPassword.name: "),
      ),
    );
    assert.ok(
      problems({ ...base, masterUserPassword: { name: "db", key: "pass/word" } }).some((p) =>
        p.startsWith("spec.masterUserPassword.key: "),
      ),
    );
    assert.ok(
      problems({ ...base, masterUserPassword: { name: "db", key: "k", extra: 1 } }).length === 0,
      "unknown keys are dropped by zod (the apiserver prunes them)",
    );
  });

  test("user tag keys may not be ownership keys; repeated keys and too many tags are refused", () => {
    for (const key of ["services.k8s.aws/namespace", "crossrole.dev/owner-uid", "aws:x", "rds:x"]) {
      assert.ok(
        problems({ ...base, tags: [{ key, value: "x" }] }).some((p) => p.startsWith("spec.tags[0].key: ")),
        key,
      );
    }
    assert.ok(
      problems({
        ...base,
        tags: [
          { key: "a", value: "1" },
          { key: "a", value: "2" },
        ],
      }).length > 0,
    );
    const many = Array.from({ length: maxDBInstanceTags + 1 }, (_, i) => ({ key: `k${i}`, value: "" }));
    assert.ok(problems({ ...base, tags: many }).some((p) => p.includes(`at most ${maxDBInstanceTags} tags`)));
  });
});

describe("dbInstanceCrdSource", () => {
  const crd = buildCrd(dbInstanceCrdSource);
  const version = crd.spec.versions[0];
  assert.ok(version);
  const schema = version.schema.openAPIV3Schema;
  const spec = schema.properties?.["spec"];
  const props = spec?.properties ?? {};
  const rulesOf = (f: string) => (props[f]?.["x-kubernetes-validations"] ?? []).map((r) => r.rule);

  test("is ACK's group, version, kind and plural, namespaced, with a status subresource", () => {
    assert.equal(crd.metadata.name, "dbinstances.rds.services.k8s.aws");
    assert.deepEqual([crd.spec.names.kind, crd.spec.names.plural], ["DBInstance", "dbinstances"]);
    assert.equal(version.name, "v1alpha1");
    assert.equal(crd.spec.scope, "Namespaced");
    assert.deepEqual(version.subresources, { status: {} });
  });

  test("is a structural schema the apiserver accepts", () => {
    assert.deepEqual(structuralProblems(schema), []);
  });

  test("prints ACK's STATUS column beside the columns every kind prints", () => {
    const columns = (version.additionalPrinterColumns ?? []).map((c) => [c.name, c.jsonPath]);
    assert.deepEqual(
      columns.map(([n]) => n),
      ["Account", "Region", "Status", "Synced", "Ready", "Reason", "ARN", "Endpoint", "Age"],
    );
    assert.ok(columns.some(([n, p]) => n === "Status" && p === ".status.dbInstanceStatus"));
  });

  test("has ACK's spec field names and shapes", () => {
    for (const f of [
      "dbInstanceIdentifier",
      "dbInstanceClass",
      "engine",
      "engineVersion",
      "allocatedStorage",
      "masterUsername",
      "masterUserPassword",
      "dbName",
      "multiAZ",
      "storageType",
      "storageEncrypted",
      "publiclyAccessible",
      "backupRetentionPeriod",
      "deletionProtection",
      "tags",
      "identityRef",
    ]) {
      assert.ok(f in props, f);
    }
    assert.deepEqual([...(spec?.required ?? [])].sort(), [
      "dbInstanceClass",
      "dbInstanceIdentifier",
      "engine",
    ]);
    assert.equal(props["allocatedStorage"]?.type, "integer");
    assert.equal(props["backupRetentionPeriod"]?.type, "integer");
    assert.equal(props["multiAZ"]?.type, "boolean");
    assert.equal(props["tags"]?.type, "array");
    const password = props["masterUserPassword"];
    assert.equal(password?.type, "object");
    assert.deepEqual(Object.keys(password?.properties ?? {}).sort(), ["key", "name", "namespace"]);
    assert.equal((password as Record<string, unknown> | undefined)?.["x-kubernetes-map-type"], "atomic");
  });

  test("identifier, engine, masterUsername, dbName and storageEncrypted are immutable; storage only grows", () => {
    for (const f of ["dbInstanceIdentifier", "engine", "masterUsername", "dbName", "storageEncrypted"]) {
      assert.ok(rulesOf(f).includes("self == oldSelf"), `${f} immutable`);
    }
    for (const f of [
      "dbInstanceClass",
      "engineVersion",
      "multiAZ",
      "backupRetentionPeriod",
      "deletionProtection",
    ]) {
      assert.ok(!rulesOf(f).includes("self == oldSelf"), `${f} mutable`);
    }
    assert.ok(rulesOf("allocatedStorage").includes("self >= oldSelf"));
  });

  test("status has ACK's dbInstanceStatus and endpoint {address, port, hostedZoneID}", () => {
    const status = schema.properties?.["status"]?.properties ?? {};
    for (const f of ["ackResourceMetadata", "conditions", "dbInstanceStatus", "endpoint", "dbiResourceID"]) {
      assert.ok(f in status, f);
    }
    assert.deepEqual(Object.keys(status["endpoint"]?.properties ?? {}).sort(), [
      "address",
      "hostedZoneID",
      "port",
    ]);
  });

  for (const example of dbInstanceValidExamples) {
    test(`valid: ${example.title}`, () => {
      const result = dbInstanceSchema.safeParse(example.object);
      assert.ok(result.success, result.success ? "" : describeIssues(result.error).join("\n"));
    });
  }
  for (const example of dbInstanceInvalidExamples) {
    test(`invalid: ${example.title}`, () => {
      const result = dbInstanceSchema.safeParse(example.object);
      const lines = result.success ? [] : describeIssues(result.error);
      assert.ok(
        lines.some((line) => line.startsWith(`${example.field}: `) && line.includes(example.message)),
        `expected "${example.field}: …${example.message}…" among:\n${lines.join("\n")}`,
      );
    });
  }
});

describe("fields crossrole does not act on yet, and ACK's references", () => {
  for (const [field, value, why] of [
    ["sourceDBInstanceIdentifier", "orders-primary", "creating a read replica is not supported"],
    ["dbSnapshotIdentifier", "orders-snap", "restoring a DB instance from a DB snapshot is not supported"],
    ["dbClusterSnapshotIdentifier", "orders-cs", "restoring a DB instance from a DB cluster snapshot"],
    ["dbClusterIdentifier", "orders-cluster", "an instance of a DB cluster"],
    ["replicaMode", "mounted", "read replicas are not supported"],
    ["sourceRegion", "eu-west-2", "creating a cross-Region read replica"],
    ["preSignedURL", "https://x", "creating a cross-Region read replica"],
    ["destinationRegion", "eu-west-1", "creating a cross-Region read replica"],
  ] as const) {
    test(`${field} is refused by the spec check, naming it (never silently ignored)`, () => {
      const found = problems({ ...base, [field]: value });
      assert.equal(found.length, 1, found.join("\n"));
      assert.ok(found[0]?.startsWith(`spec.${field}: ${why}`), found[0]);
      assert.ok(found[0]?.endsWith(`: remove spec.${field} (nothing was created)`), found[0]);
    });
  }

  test("an Aurora engine passes admission (ACK's cluster-instance manifests apply) and is refused by the spec check", () => {
    const found = problems({ ...base, engine: "aurora-postgresql" });
    assert.equal(found.length, 1, found.join("\n"));
    assert.match(
      found[0] ?? "",
      /^spec\.engine: aurora-postgresql instances belong to an Aurora DB cluster, which crossrole does not manage yet/,
    );
    assert.equal(problems({ ...base, engine: "oracle-xe" }).length, 1, "an unknown engine is still refused");
  });

  test("a reference to a served kind (DBSubnetGroup, DBParameterGroup, SecurityGroup) passes the spec check; beside its plain field it is refused", () => {
    assert.deepEqual(problems({ ...base, dbSubnetGroupRef: { from: { name: "private" } } }), []);
    assert.deepEqual(problems({ ...base, dbParameterGroupRef: { from: { name: "params" } } }), []);
    assert.deepEqual(problems({ ...base, vpcSecurityGroupRefs: [{ from: { name: "db" } }] }), []);
    const both = problems({
      ...base,
      dbSubnetGroupRef: { from: { name: "private" } },
      dbSubnetGroupName: "x",
    });
    assert.equal(both.length, 1, both.join("\n"));
    assert.match(
      both[0] ?? "",
      /^spec\.dbSubnetGroupRef: and spec\.dbSubnetGroupName are both set: set one of the two/,
    );
  });

  test("useDefaultProcessorFeatures true beside processorFeatures is refused", () => {
    assert.ok(
      problems({
        ...base,
        useDefaultProcessorFeatures: true,
        processorFeatures: [{ name: "coreCount", value: "2" }],
      }).some((p) => p.startsWith("spec.useDefaultProcessorFeatures: ")),
    );
  });

  test("what RDS fixes at creation is immutable in the CRD", () => {
    const props = (buildCrd(dbInstanceCrdSource).spec.versions[0]?.schema?.openAPIV3Schema.properties?.[
      "spec"
    ] ?? {}) as { properties?: Record<string, { "x-kubernetes-validations"?: { rule: string }[] }> };
    for (const f of [
      "kmsKeyID",
      "availabilityZone",
      "characterSetName",
      "ncharCharacterSetName",
      "timezone",
      "backupTarget",
      "customIAMInstanceProfile",
    ]) {
      assert.ok(
        props.properties?.[f]?.["x-kubernetes-validations"]?.some((v) => v.rule === "self == oldSelf"),
        f,
      );
    }
  });
});
