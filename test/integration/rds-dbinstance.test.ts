// The RDS DBInstance module against the real AWS emulator (moto in server mode, recording every
// request): create with the master password and user + ownership tags in one call, read back
// (settings, tags, status, endpoint) whatever the case of the spec's identifier, update in one
// ModifyDBInstance with ApplyImmediately and tags with ownership tags kept, the password sent
// again only when its Secret changed (checked in moto's own request recording), claim, an
// existing identifier answered `created: false`, deletion protection reported with its fix, a
// final snapshot when ACK's annotations ask for one, a refused value as a terminal error naming
// the field, and isolation between accounts (moto maps sts:AssumeRole keys for 222222222222 to
// that account). Every ACK field group (placement, settings, the RDS-managed password) is sent on
// create and update, read back and compared; what moto does not report back is checked on the
// wire, in moto's request recording.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  CreateDBInstanceCommand,
  CreateDBSubnetGroupCommand,
  type DBInstance,
  DescribeDBInstancesCommand,
  DescribeDBSnapshotsCommand,
  ModifyDBInstanceCommand,
  RDSClient,
} from "@aws-sdk/client-rds";
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from "@aws-sdk/client-sts";
import type { AwsCredentialIdentity } from "@smithy/types";
import { defaultSubnets } from "../../src/local-stack/default-subnets.ts";
import { type Emulator, startEmulator } from "../../src/local-stack/stack.ts";
import type { DeclaredObserved } from "../../src/services/declared-kind/source.ts";
import { dbInstanceService } from "../../src/services/rds/db-instance.ts";
import { type DBInstanceFields, dbInstanceSpecSchema } from "../../src/services/rds/schema.ts";
import type { ServiceError } from "../../src/services/service-error.ts";
import { noSecrets, type SecretValues } from "../../src/services/service-module.ts";
import { flatObserved, observedOf } from "../support/flat-observed.ts";
import { type MotoRecordedRequest, readMotoRecording } from "../support/moto-recording.ts";

// The module's calls, named as the functions this test was first written against (the hand-written
// module the generic runtime replaced), so that its assertions stay as they were.

type DBInstanceError = ServiceError<string> & { readonly field?: string };

/** The module's client (`sdk`), and the same client as `rds` for the test's own calls. */
interface DBInstanceClient {
  readonly rds: RDSClient;
  readonly sdk: RDSClient;
  readonly region: string;
}
const dbInstanceClient = (c: RDSClient): DBInstanceClient => ({ rds: c, sdk: c, region });

/** What the module observed, with its spec fields and ARN also at the top, and RDS's own answer. */
type ObservedDBInstance = DeclaredObserved &
  Omit<DBInstanceFields, "tags"> & { dbInstanceARN?: string; instance: DBInstance };
const unflat = (o: ObservedDBInstance) => observedOf(o, ["dbInstanceARN", "instance"]);

async function readDBInstance(c: DBInstanceClient, s: DBInstanceFields) {
  const r = await dbInstanceService.read(c, s, {});
  if (!r.found) return { found: false as const };
  const instance = await describeIn(c, s.dbInstanceIdentifier.toLowerCase());
  return {
    found: true as const,
    dbInstance: flatObserved<ObservedDBInstance>(r.observed, {
      dbInstanceARN: r.observed.arn || undefined,
      instance: instance as DBInstance,
    }),
  };
}
async function createDBInstance(
  c: DBInstanceClient,
  s: DBInstanceFields,
  ownerTags: Record<string, string>,
  password?: string,
) {
  const secrets = password === undefined ? noSecrets : passwords(password);
  const r = await dbInstanceService.create(c, s, region, ownerTags, {}, secrets);
  return r.created
    ? { created: true as const, dbInstanceStatus: r.status["dbInstanceStatus"] }
    : { created: false as const };
}
async function updateDBInstance(
  c: DBInstanceClient,
  desired: DBInstanceFields,
  // The test may spread spec fields over what was observed (tags included): folded back in.
  observed: Omit<ObservedDBInstance, "tags"> & { readonly tags: unknown },
  ownerTags: Record<string, string>,
  password?: string,
) {
  const secrets = password === undefined ? noSecrets : passwords(password, true);
  const paths = await dbInstanceService.update(
    c,
    desired,
    unflat(observed as ObservedDBInstance),
    ownerTags,
    {},
    secrets,
  );
  return {
    differences: paths.filter((p) => p !== "spec.masterUserPassword").map((path) => ({ path })),
    passwordSet: paths.includes("spec.masterUserPassword"),
  };
}
const claimDBInstance = (c: DBInstanceClient, o: ObservedDBInstance, ownerTags: Record<string, string>) =>
  dbInstanceService.claim(c, unflat(o), ownerTags, {});
const deleteDBInstance = (c: DBInstanceClient, id: string) =>
  dbInstanceService.delete(c, { dbInstanceIdentifier: id } as DBInstanceFields, {}, {});
const diff = (desired: DBInstanceFields, o: ObservedDBInstance) =>
  dbInstanceService.diff(desired, unflat(o)).map((path) => ({ path }));

const defaultCredentials: AwsCredentialIdentity = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "default-secret",
};
const otherAccount = "222222222222";
const region = "us-east-1";
const owner = {
  "services.k8s.aws/namespace": "shop",
  "services.k8s.aws/owner": "DBInstance/shop/orders",
  "services.k8s.aws/owner-uid": "uid-1",
  "services.k8s.aws/controller-version": "crossrole-test",
};

let dir: string;
let emulator: Emulator;
let mine: DBInstanceClient;
let other: DBInstanceClient;
let myAccount: string;

function rds(credentials: AwsCredentialIdentity): RDSClient {
  return new RDSClient({ region, endpoint: emulator.endpoint, credentials });
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "crossrole-rds-dbinstance-"));
  emulator = await startEmulator({ dir, recording: true });
  const sts = new STSClient({ region, endpoint: emulator.endpoint, credentials: defaultCredentials });
  myAccount = (await sts.send(new GetCallerIdentityCommand({}))).Account ?? "";
  mine = dbInstanceClient(rds(defaultCredentials));
  const assumed = await sts.send(
    new AssumeRoleCommand({ RoleArn: `arn:aws:iam::${otherAccount}:role/x`, RoleSessionName: "rds-test" }),
  );
  const c = assumed.Credentials;
  assert.ok(c?.AccessKeyId && c.SecretAccessKey && c.SessionToken, "AssumeRole returned no credentials");
  other = dbInstanceClient(
    rds({
      accessKeyId: c.AccessKeyId,
      secretAccessKey: c.SecretAccessKey,
      sessionToken: c.SessionToken,
    }),
  );
  sts.destroy();
});

after(async () => {
  for (const c of [mine, other]) c?.rds.destroy();
  await emulator?.stop();
  await rm(dir, { recursive: true, force: true });
});

let counter = 0;
function uniqueId(label: string): string {
  counter += 1;
  return `crossrole-${label}-${process.pid}-${counter}`;
}

function spec(id: string, extra: Record<string, unknown> = {}): DBInstanceFields {
  return dbInstanceSpecSchema.parse({
    dbInstanceIdentifier: id,
    dbInstanceClass: "db.t3.micro",
    engine: "postgres",
    engineVersion: "16.3",
    allocatedStorage: 20,
    masterUsername: "shop_admin",
    masterUserPassword: { name: "orders-db", key: "password" },
    backupRetentionPeriod: 1,
    ...extra,
  });
}

const passwords = (value: string, changed = false): SecretValues => ({
  values: new Map([["spec.masterUserPassword", value]]),
  changed: changed ? ["spec.masterUserPassword"] : [],
});

/** The RDS requests (action and form fields) `action` made, from moto's own recording. */
async function rdsRequestsDuring(action: () => Promise<unknown>): Promise<MotoRecordedRequest[]> {
  const path = emulator.recordingPath;
  assert.ok(path !== undefined, "the emulator records requests");
  const before = (await readMotoRecording(path)).length;
  await action();
  return (await readMotoRecording(path)).slice(before).filter((r) => r.params["Action"] !== undefined);
}

const actions = (rs: readonly MotoRecordedRequest[]) => rs.map((r) => r.params["Action"]);

async function describeIn(client: DBInstanceClient, id: string) {
  const out = await client.rds.send(new DescribeDBInstancesCommand({ DBInstanceIdentifier: id }));
  return out.DBInstances?.[0];
}

async function rdsError(run: () => Promise<unknown>): Promise<DBInstanceError> {
  try {
    await run();
  } catch (err) {
    assert.ok((err as Error).name === "DBInstanceError", `expected a DBInstanceError, got ${String(err)}`);
    return err as DBInstanceError;
  }
  assert.fail("expected the call to fail");
}

describe("RDS DBInstance module against the emulator", () => {
  test("creates with the password, user tags and ownership tags in one call, and reads it all back", async () => {
    const id = uniqueId("full");
    const desired = spec(id, { tags: [{ key: "team", value: "shop" }], deletionProtection: false });
    const sent = await rdsRequestsDuring(async () => {
      const created = await dbInstanceService.create(
        mine,
        desired,
        region,
        owner,
        {},
        passwords("first-pw-1"),
      );
      assert.equal(created.created, true);
    });
    assert.deepEqual(actions(sent), ["CreateDBInstance"]);
    assert.equal(sent[0]?.params["MasterUserPassword"], "first-pw-1", "the Secret's value reached RDS");
    const r = await readDBInstance(mine, desired);
    assert.ok(r.found);
    const o = r.dbInstance;
    assert.equal(o.dbInstanceARN, `arn:aws:rds:${region}:${myAccount}:db:${id}`);
    assert.equal(dbInstanceService.arn(desired, region, myAccount), o.dbInstanceARN);
    assert.equal(dbInstanceService.observedRegion(o), region);
    assert.equal(o.dbInstanceClass, "db.t3.micro");
    assert.equal(o.engineVersion, "16.3");
    assert.equal(o.masterUsername, "shop_admin");
    assert.deepEqual(dbInstanceService.tagsOf(o), { team: "shop", ...owner });
    const status = dbInstanceService.statusFrom?.(o) ?? {};
    assert.equal(status["dbInstanceStatus"], "available");
    assert.deepEqual(status["endpoint"], {
      address: `${id}.aaaaaaaaaa.${region}.rds.amazonaws.com`,
      port: 5432,
    });
    assert.equal(dbInstanceService.busy?.(o), undefined);
    assert.deepEqual(diff(desired, o), []);
    assert.ok(!JSON.stringify(o).includes("first-pw-1"), "nothing read back holds the password");
  });

  test("an uppercase spec identifier finds, tags and deletes RDS's lowercase instance, with no drift", async () => {
    const id = uniqueId("case");
    const upper = spec(id.toUpperCase());
    assert.ok((await createDBInstance(mine, upper, owner, "pw-12345678")).created);
    const r = await readDBInstance(mine, upper);
    assert.ok(r.found);
    assert.equal(r.dbInstance.instance.DBInstanceIdentifier, id, "RDS stores it lowercase");
    assert.equal(r.dbInstance.dbInstanceIdentifier, id.toUpperCase(), "the spec's spelling is kept");
    assert.equal(r.dbInstance.dbInstanceARN, dbInstanceService.arn(upper, region, myAccount));
    assert.deepEqual(dbInstanceService.diff({ ...upper }, r.dbInstance), []);
    assert.deepEqual(
      dbInstanceService.specFromObserved(r.dbInstance, upper).dbInstanceIdentifier,
      id.toUpperCase(),
    );
    assert.equal(await dbInstanceService.delete(mine, upper, {}, {}), "deleted");
    assert.equal((await readDBInstance(mine, spec(id))).found, false);
  });

  test("updates settings in one ModifyDBInstance with ApplyImmediately, and tags, keeping the ownership tags", async () => {
    const id = uniqueId("update");
    await createDBInstance(
      mine,
      spec(id, {
        tags: [
          { key: "team", value: "shop" },
          { key: "old", value: "x" },
        ],
      }),
      owner,
      "pw-12345678",
    );
    const r = await readDBInstance(mine, spec(id));
    assert.ok(r.found);
    const desired = spec(id, {
      dbInstanceClass: "db.t3.small",
      backupRetentionPeriod: 7,
      multiAZ: true,
      deletionProtection: true,
      allocatedStorage: 50,
      tags: [
        { key: "team", value: "platform" },
        { key: "tier", value: "gold" },
      ],
    });
    const sent = await rdsRequestsDuring(async () => {
      const changed = await dbInstanceService.update(
        mine,
        desired,
        r.dbInstance,
        owner,
        {},
        passwords("pw-12345678"),
      );
      assert.deepEqual([...changed].sort(), [
        "spec.allocatedStorage",
        "spec.backupRetentionPeriod",
        "spec.dbInstanceClass",
        "spec.deletionProtection",
        "spec.multiAZ",
        "spec.tags",
      ]);
    });
    assert.deepEqual(actions(sent), ["AddTagsToResource", "RemoveTagsFromResource", "ModifyDBInstance"]);
    const modify = sent[2]?.params ?? {};
    assert.equal(modify["ApplyImmediately"], "true");
    assert.equal(modify["DBInstanceClass"], "db.t3.small");
    assert.equal(modify["MasterUserPassword"], undefined, "an unchanged Secret is not sent again");
    const after = await readDBInstance(mine, desired);
    assert.ok(after.found);
    assert.deepEqual(diff(desired, after.dbInstance), []);
    assert.deepEqual(dbInstanceService.tagsOf(after.dbInstance), {
      team: "platform",
      tier: "gold",
      ...owner,
    });
    // cleanup needs deletion protection off
    await mine.rds.send(
      new ModifyDBInstanceCommand({
        DBInstanceIdentifier: id,
        DeletionProtection: false,
        ApplyImmediately: true,
      }),
    );
    await deleteDBInstance(mine, id);
  });

  test("a changed Secret sets the master password again (moto's recording shows the new value)", async () => {
    const id = uniqueId("password");
    const desired = spec(id);
    await dbInstanceService.create(mine, desired, region, owner, {}, passwords("before-pw-1"));
    const r = await readDBInstance(mine, desired);
    assert.ok(r.found);
    const sent = await rdsRequestsDuring(async () => {
      const changed = await dbInstanceService.update(
        mine,
        desired,
        r.dbInstance,
        owner,
        {},
        passwords("after-pw-22", true),
      );
      assert.deepEqual(changed, ["spec.masterUserPassword"]);
    });
    assert.deepEqual(actions(sent), ["ModifyDBInstance"]);
    assert.equal(sent[0]?.params["MasterUserPassword"], "after-pw-22");
    assert.equal(sent[0]?.params["ApplyImmediately"], "true");
    await deleteDBInstance(mine, id);
  });

  test("an out-of-band change is drift, and update corrects it", async () => {
    const id = uniqueId("drift");
    const desired = spec(id, { backupRetentionPeriod: 3 });
    await createDBInstance(mine, desired, owner, "pw-12345678");
    await mine.rds.send(
      new ModifyDBInstanceCommand({
        DBInstanceIdentifier: id,
        BackupRetentionPeriod: 9,
        ApplyImmediately: true,
      }),
    );
    const r = await readDBInstance(mine, desired);
    assert.ok(r.found);
    assert.deepEqual(dbInstanceService.diff(desired, r.dbInstance), ["spec.backupRetentionPeriod"]);
    const u = await updateDBInstance(mine, desired, r.dbInstance, owner);
    assert.deepEqual(
      u.differences.map((d) => d.path),
      ["spec.backupRetentionPeriod"],
    );
    assert.equal((await describeIn(mine, id))?.BackupRetentionPeriod, 3);
    await deleteDBInstance(mine, id);
  });

  test("late initialisation takes RDS's defaults for what the spec leaves out", async () => {
    const id = uniqueId("late");
    const minimal = dbInstanceSpecSchema.parse({
      dbInstanceIdentifier: id,
      dbInstanceClass: "db.t3.micro",
      engine: "mysql",
    });
    await createDBInstance(mine, minimal, owner);
    const r = await readDBInstance(mine, minimal);
    assert.ok(r.found);
    const late = dbInstanceService.lateInitialize(minimal, r.dbInstance);
    assert.ok(late.initialized.includes("spec.allocatedStorage"));
    assert.ok(late.initialized.includes("spec.engineVersion"));
    assert.ok(late.initialized.includes("spec.backupRetentionPeriod"));
    assert.ok(dbInstanceSpecSchema.safeParse(late.spec).success, "the late-initialised spec is valid");
    assert.deepEqual(dbInstanceService.diff(late.spec, r.dbInstance), []);
    await deleteDBInstance(mine, id);
  });

  test("an existing identifier is created: false; claim adds the ownership tags and keeps the others", async () => {
    const id = uniqueId("claim");
    await mine.rds.send(
      new CreateDBInstanceCommand({
        DBInstanceIdentifier: id,
        DBInstanceClass: "db.t3.micro",
        Engine: "postgres",
        Tags: [{ Key: "legacy", Value: "yes" }],
      }),
    );
    assert.deepEqual(await createDBInstance(mine, spec(id), owner, "pw-12345678"), { created: false });
    const r = await readDBInstance(mine, spec(id));
    assert.ok(r.found);
    assert.deepEqual(dbInstanceService.tagsOf(r.dbInstance), { legacy: "yes" });
    await claimDBInstance(mine, r.dbInstance, owner);
    const claimed = await readDBInstance(mine, spec(id));
    assert.ok(claimed.found);
    assert.deepEqual(dbInstanceService.tagsOf(claimed.dbInstance), { legacy: "yes", ...owner });
    await deleteDBInstance(mine, id);
  });

  test("another account sees nothing of it, and can make its own of the same identifier", async () => {
    const id = uniqueId("iso");
    await createDBInstance(mine, spec(id), owner, "pw-12345678");
    assert.equal((await readDBInstance(other, spec(id))).found, false);
    assert.ok((await createDBInstance(other, spec(id), owner, "pw-12345678")).created);
    const theirs = await readDBInstance(other, spec(id));
    assert.ok(theirs.found);
    assert.equal(theirs.dbInstance.dbInstanceARN, `arn:aws:rds:${region}:${otherAccount}:db:${id}`);
    assert.equal(await deleteDBInstance(other, id), "deleted");
    assert.ok((await readDBInstance(mine, spec(id))).found, "deleting theirs left mine");
    await deleteDBInstance(mine, id);
  });

  test("delete: protection is refused naming spec.deletionProtection; no final snapshot by default; gone is not-found", async () => {
    const id = uniqueId("delete");
    await createDBInstance(mine, spec(id, { deletionProtection: true }), owner, "pw-12345678");
    const refused = await rdsError(() => dbInstanceService.delete(mine, spec(id), {}, {}));
    assert.equal(refused.terminal, false);
    assert.equal(refused.field, "spec.deletionProtection");
    assert.match(refused.message, /set spec\.deletionProtection: false/);
    await mine.rds.send(
      new ModifyDBInstanceCommand({
        DBInstanceIdentifier: id,
        DeletionProtection: false,
        ApplyImmediately: true,
      }),
    );
    const sent = await rdsRequestsDuring(async () => {
      assert.equal(await dbInstanceService.delete(mine, spec(id), {}, {}), "deleted");
    });
    assert.equal(sent[0]?.params["SkipFinalSnapshot"], "true", "ACK's default: no final snapshot");
    assert.equal((await readDBInstance(mine, spec(id))).found, false);
    assert.equal(await dbInstanceService.delete(mine, spec(id), {}, {}), "not-found");
  });

  test("delete takes a final snapshot when ACK's annotations ask for one", async () => {
    const id = uniqueId("snap");
    await createDBInstance(mine, spec(id), owner, "pw-12345678");
    const deleteWith = dbInstanceService.delete;
    assert.equal(
      await deleteWith(
        mine,
        spec(id),
        {},
        {
          "rds.services.k8s.aws/skip-final-snapshot": "false",
          "rds.services.k8s.aws/final-db-snapshot-identifier": `${id}-final`,
        },
      ),
      "deleted",
    );
    const snaps = await mine.rds.send(
      new DescribeDBSnapshotsCommand({ DBSnapshotIdentifier: `${id}-final` }),
    );
    assert.equal(snaps.DBSnapshots?.[0]?.DBInstanceIdentifier, id);
  });

  test("a value RDS refuses is a terminal error naming the field; nothing is created", async () => {
    const id = uniqueId("refused");
    // In the spec's engine list, not in moto's: RDS (moto) refuses it as InvalidParameterValue.
    const err = await rdsError(() =>
      createDBInstance(mine, spec(id, { engine: "custom-sqlserver-dev" }), owner, "pw-refused-1"),
    );
    assert.equal(err.terminal, true);
    assert.equal(err.field, "spec.engine");
    assert.match(
      err.message,
      /^spec\.engine: CreateDBInstance on DB instance ".*" failed with InvalidParameterValue/,
    );
    assert.ok(!err.message.includes("pw-refused-1"));
    assert.equal(dbInstanceService.isTerminal(err), true);
    assert.equal((await readDBInstance(mine, spec(id))).found, false);
  });

  describe("every ACK field group: sent on create and on update, read back, compared", () => {
    /** The default VPC's subnets. */
    async function defaultSubnetsHere(): Promise<string[]> {
      const ids = await defaultSubnets(emulator.endpoint, defaultCredentials.accessKeyId, region);
      assert.ok(ids.length >= 2, "moto's default VPC has subnets");
      return ids;
    }

    test("placement: subnet group, security groups, port and Availability Zone on create; a changed security group set is corrected", async () => {
      const id = uniqueId("vpc");
      const group = `${id}-subnets`;
      await mine.rds.send(
        new CreateDBSubnetGroupCommand({
          DBSubnetGroupName: group,
          DBSubnetGroupDescription: "crossrole test",
          SubnetIds: (await defaultSubnetsHere()).slice(0, 2),
        }),
      );
      const desired = spec(id, {
        dbSubnetGroupName: group,
        vpcSecurityGroupIDs: ["sg-0000000000000000a", "sg-0000000000000000b"],
        port: 5433,
        availabilityZone: `${region}b`,
      });
      const sent = await rdsRequestsDuring(() => createDBInstance(mine, desired, owner, "pw-12345678"));
      assert.deepEqual(actions(sent), ["CreateDBInstance"], "all of it in the create call");
      const r = await readDBInstance(mine, desired);
      assert.ok(r.found);
      assert.equal(r.dbInstance.dbSubnetGroupName, group);
      assert.deepEqual(r.dbInstance.vpcSecurityGroupIDs, ["sg-0000000000000000a", "sg-0000000000000000b"]);
      assert.equal(r.dbInstance.port, 5433);
      assert.equal(r.dbInstance.availabilityZone, `${region}b`);
      assert.deepEqual(dbInstanceService.diff(desired, r.dbInstance), []);
      const status = dbInstanceService.statusFrom?.(r.dbInstance) ?? {};
      assert.equal((status["dbSubnetGroup"] as { dbSubnetGroupName?: string }).dbSubnetGroupName, group);
      assert.deepEqual(status["vpcSecurityGroups"], [
        { vpcSecurityGroupID: "sg-0000000000000000a", status: "active" },
        { vpcSecurityGroupID: "sg-0000000000000000b", status: "active" },
      ]);
      assert.equal(status["dbInstancePort"], 5433);

      await mine.rds.send(
        new ModifyDBInstanceCommand({
          DBInstanceIdentifier: id,
          VpcSecurityGroupIds: ["sg-0000000000000000c"],
          ApplyImmediately: true,
        }),
      );
      const drifted = await readDBInstance(mine, desired);
      assert.ok(drifted.found);
      assert.deepEqual(dbInstanceService.diff(desired, drifted.dbInstance), ["spec.vpcSecurityGroupIDs"]);
      await updateDBInstance(mine, desired, drifted.dbInstance, owner);
      assert.deepEqual(
        (await describeIn(mine, id))?.VpcSecurityGroups?.map((g) => g.VpcSecurityGroupId),
        ["sg-0000000000000000a", "sg-0000000000000000b"],
      );
      await deleteDBInstance(mine, id);
    });

    test("settings: windows, versions, licence, IOPS and throughput, autoscaling, CA, copyTagsToSnapshot, IAM auth, log exports, monitoring; removal turns them off", async () => {
      const id = uniqueId("settings");
      const role = `arn:aws:iam::${myAccount}:role/rds-monitoring`;
      const desired = spec(id, {
        storageType: "gp3",
        iops: 3000,
        storageThroughput: 125,
        maxAllocatedStorage: 100,
        preferredBackupWindow: "03:00-03:30",
        // RDS stores the window lowercase: the spec's capitals are no drift.
        preferredMaintenanceWindow: "Sun:05:00-Sun:06:00",
        autoMinorVersionUpgrade: false,
        licenseModel: "postgresql-license",
        caCertificateIdentifier: "rds-ca-rsa2048-g1",
        copyTagsToSnapshot: true,
        enableIAMDatabaseAuthentication: true,
        enableCloudwatchLogsExports: ["postgresql", "upgrade"],
        monitoringInterval: 30,
        monitoringRoleARN: role,
        storageEncrypted: true,
        kmsKeyID: `arn:aws:kms:${region}:${myAccount}:key/1234abcd-12ab-34cd-56ef-1234567890ab`,
      });
      await createDBInstance(mine, desired, owner, "pw-12345678");
      const r = await readDBInstance(mine, desired);
      assert.ok(r.found);
      const o = r.dbInstance;
      assert.deepEqual(
        [
          o.iops,
          o.storageThroughput,
          o.maxAllocatedStorage,
          o.preferredBackupWindow,
          o.preferredMaintenanceWindow,
        ],
        [3000, 125, 100, "03:00-03:30", "sun:05:00-sun:06:00"],
      );
      assert.deepEqual(
        [o.autoMinorVersionUpgrade, o.licenseModel, o.caCertificateIdentifier, o.copyTagsToSnapshot],
        [false, "postgresql-license", "rds-ca-rsa2048-g1", true],
      );
      assert.deepEqual(
        [
          o.enableIAMDatabaseAuthentication,
          o.enableCloudwatchLogsExports,
          o.monitoringInterval,
          o.monitoringRoleARN,
        ],
        [true, ["postgresql", "upgrade"], 30, role],
      );
      assert.equal(o.kmsKeyID, desired.kmsKeyID);
      assert.deepEqual(dbInstanceService.diff(desired, o), [], "read back as sent: no drift");

      // Changed and removed: one ModifyDBInstance; RDS then has exactly the spec.
      const {
        copyTagsToSnapshot: _c,
        enableIAMDatabaseAuthentication: _i,
        monitoringInterval: _m,
        maxAllocatedStorage: _a,
        ...rest
      } = desired;
      const changed = {
        ...rest,
        enableCloudwatchLogsExports: ["postgresql"],
        preferredBackupWindow: "04:00-04:30",
        iops: 4000,
        caCertificateIdentifier: "rds-ca-ecc384-g1",
      };
      const sent = await rdsRequestsDuring(async () => {
        const paths = await dbInstanceService.update(mine, changed, o, owner, {}, passwords("pw-12345678"));
        assert.deepEqual([...paths].sort(), [
          "spec.caCertificateIdentifier",
          "spec.copyTagsToSnapshot",
          "spec.enableCloudwatchLogsExports",
          "spec.enableIAMDatabaseAuthentication",
          "spec.iops",
          "spec.maxAllocatedStorage",
          "spec.monitoringInterval",
          "spec.preferredBackupWindow",
        ]);
      });
      assert.deepEqual(actions(sent), ["ModifyDBInstance"]);
      const after = await readDBInstance(mine, changed);
      assert.ok(after.found);
      assert.deepEqual(dbInstanceService.diff(changed, after.dbInstance), []);
      const a = after.dbInstance;
      assert.deepEqual(
        [
          a.copyTagsToSnapshot,
          a.enableIAMDatabaseAuthentication,
          a.monitoringInterval,
          a.maxAllocatedStorage,
        ],
        [false, false, 0, undefined],
        "what the spec no longer has is off in RDS",
      );
      assert.deepEqual(a.enableCloudwatchLogsExports, ["postgresql"]);
      await deleteDBInstance(mine, id);
    });

    test("RDS-managed password: manageMasterUserPassword on create fills status.masterUserSecret; false takes the password back with the Secret's", async () => {
      const id = uniqueId("managed");
      const desired = dbInstanceSpecSchema.parse({
        dbInstanceIdentifier: id,
        dbInstanceClass: "db.t3.micro",
        engine: "postgres",
        masterUsername: "dbadmin",
        manageMasterUserPassword: true,
      });
      const created = await rdsRequestsDuring(() => createDBInstance(mine, desired, owner));
      assert.equal(created[0]?.params["ManageMasterUserPassword"], "true");
      assert.equal(created[0]?.params["MasterUserPassword"], undefined);
      const r = await readDBInstance(mine, desired);
      assert.ok(r.found);
      assert.equal(r.dbInstance.manageMasterUserPassword, true);
      assert.deepEqual(dbInstanceService.diff(desired, r.dbInstance), []);
      const secret = dbInstanceService.statusFrom?.(r.dbInstance)?.["masterUserSecret"] as
        | { secretARN?: string; secretStatus?: string }
        | undefined;
      assert.match(secret?.secretARN ?? "", /^arn:aws:secretsmanager:/);

      const unmanaged = dbInstanceSpecSchema.parse({
        ...desired,
        manageMasterUserPassword: false,
        masterUserPassword: { name: "orders-db", key: "password" },
      });
      const sent = await rdsRequestsDuring(() =>
        dbInstanceService.update(mine, unmanaged, r.dbInstance, owner, {}, passwords("taken-back-1")),
      );
      assert.equal(sent[0]?.params["ManageMasterUserPassword"], "false");
      assert.equal(sent[0]?.params["MasterUserPassword"], "taken-back-1", "RDS needs a password back");
      const after = await readDBInstance(mine, unmanaged);
      assert.ok(after.found);
      assert.equal(after.dbInstance.manageMasterUserPassword, undefined);
      assert.deepEqual(dbInstanceService.diff(unmanaged, after.dbInstance), []);
      await deleteDBInstance(mine, id);
    });

    test("what moto keeps but never reports back, checked on the wire: Performance and Database Insights, processor features, time zone, backup target, TDE, a new port, leaving a domain", async () => {
      // moto's DescribeDBInstances has no PerformanceInsightsEnabled, PerformanceInsightsKMSKeyId,
      // DatabaseInsightsMode, ProcessorFeatures, Timezone, BackupTarget or TdeCredentialArn, and
      // ModifyDBInstance ignores DBPortNumber and DisableDomain: what crossrole sends is checked
      // in moto's own request recording (the wire).
      const id = uniqueId("wire");
      const desired = spec(id, {
        performanceInsightsEnabled: true,
        performanceInsightsKMSKeyID: "pi-key",
        performanceInsightsRetentionPeriod: 7,
        databaseInsightsMode: "standard",
        processorFeatures: [{ name: "coreCount", value: "2" }],
        timezone: "UTC",
        backupTarget: "region",
        tdeCredentialARN: "arn:aws:tde:x",
        tdeCredentialPassword: "tde-secret-1",
        domain: "d-1234567890",
        domainIAMRoleName: "rds-directory",
      });
      const created = await rdsRequestsDuring(() => createDBInstance(mine, desired, owner, "pw-12345678"));
      const c = created[0]?.params ?? {};
      assert.deepEqual(
        [
          c["EnablePerformanceInsights"],
          c["PerformanceInsightsKMSKeyId"],
          c["PerformanceInsightsRetentionPeriod"],
          c["DatabaseInsightsMode"],
          c["ProcessorFeatures.ProcessorFeature.1.Name"],
          c["ProcessorFeatures.ProcessorFeature.1.Value"],
          c["Timezone"],
          c["BackupTarget"],
          c["TdeCredentialArn"],
          c["TdeCredentialPassword"],
          c["Domain"],
          c["DomainIAMRoleName"],
        ],
        [
          "true",
          "pi-key",
          "7",
          "standard",
          "coreCount",
          "2",
          "UTC",
          "region",
          "arn:aws:tde:x",
          "tde-secret-1",
          "d-1234567890",
          "rds-directory",
        ],
      );
      const r = await readDBInstance(mine, desired);
      assert.ok(r.found);
      const { domain: _d, ...withoutDomain } = desired;
      const changed = {
        ...withoutDomain,
        port: 6543,
        performanceInsightsEnabled: false,
        processorFeatures: [{ name: "coreCount", value: "4" }],
        tdeCredentialARN: "arn:aws:tde:y",
      };
      const sent = await rdsRequestsDuring(() =>
        updateDBInstance(mine, changed, { ...r.dbInstance, ...desired, port: 5432 }, owner),
      );
      const m = sent[0]?.params ?? {};
      assert.deepEqual(actions(sent), ["ModifyDBInstance"]);
      assert.deepEqual(
        [
          m["DBPortNumber"],
          m["EnablePerformanceInsights"],
          m["ProcessorFeatures.ProcessorFeature.1.Value"],
          m["TdeCredentialArn"],
          m["TdeCredentialPassword"],
          m["DisableDomain"],
          m["ApplyImmediately"],
        ],
        ["6543", "false", "4", "arn:aws:tde:y", "tde-secret-1", "true", "true"],
      );
      await deleteDBInstance(mine, id);
    });

    test("a field RDS refuses is terminal naming the field and RDS's reason; a group it cannot find names its field; nothing is created", async () => {
      const id = uniqueId("bad-field");
      const err = await rdsError(() =>
        createDBInstance(mine, spec(id, { monitoringInterval: 60 }), owner, "pw-bad-field-1"),
      );
      assert.equal(err.terminal, true);
      assert.equal(err.code, "InvalidParameterCombination");
      assert.equal(err.field, "spec.monitoringRoleARN");
      assert.equal((await readDBInstance(mine, spec(id))).found, false);

      const missing = await rdsError(() =>
        createDBInstance(mine, spec(id, { optionGroupName: "no-such-options" }), owner, "pw-bad-field-1"),
      );
      assert.equal(missing.field, "spec.optionGroupName");
      assert.match(
        missing.message,
        /^spec\.optionGroupName: CreateDBInstance on DB instance ".*" failed with OptionGroupNotFound/,
      );
      assert.equal((await readDBInstance(mine, spec(id))).found, false);
    });
  });
});
