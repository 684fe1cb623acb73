// The DBInstance kind served by the generic runtime (db-instance.ts): busy states, identifier, ARN,
// status, adoption, the master password at create and update, withheld messages, deletion. The
// module runs on the real SDK's command classes with a client that records what is sent; what it
// observes is its own read of a DescribeDBInstances answer.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { RDSClient } from "@aws-sdk/client-rds";
import type { DeclaredClient, DeclaredObserved } from "../declared-kind/source.ts";
import { noSecrets, type SecretValues } from "../service-module.ts";
import { dbInstanceService, dbInstanceSource, deleteOptionsFromAnnotations } from "./db-instance.ts";
import type { DBInstanceSpec } from "./schema.ts";

/** How soon to look again at an instance RDS is working on (runtime.states.pollSeconds). */
const busyRequeueMs = dbInstanceSource.declaration.runtime.states.pollSeconds * 1000;
/** How soon to look again at an instance in a state RDS does not leave on its own (4 × the poll). */
const stuckRequeueMs = busyRequeueMs * 4;

/**
 * What the module observes of DB instance "Orders" when DescribeDBInstances answers these
 * settings, tags and ARN with `instance` (AWS's members: the status, endpoint, ...) over them.
 */
async function observed(instance: Record<string, unknown>): Promise<DeclaredObserved> {
  const { client } = recordingClient((name) =>
    name === "DescribeDBInstancesCommand"
      ? {
          DBInstances: [
            {
              DBInstanceIdentifier: "orders",
              DBInstanceClass: "db.t3.micro",
              Engine: "postgres",
              EngineVersion: "16.3",
              AllocatedStorage: 20,
              MasterUsername: "admin",
              StorageType: "io1",
              Iops: 3000,
              BackupRetentionPeriod: 1,
              DeletionProtection: false,
              TagList: [
                { Key: "services.k8s.aws/owner-uid", Value: "u" },
                { Key: "team", Value: "shop" },
              ],
              DBInstanceArn: "arn:aws:rds:eu-west-1:111111111111:db:orders",
              ...instance,
            },
          ],
        }
      : {},
  );
  const r = await dbInstanceService.read(client, { dbInstanceIdentifier: "Orders" }, {});
  assert.ok(r.found);
  return r.observed;
}

function parse(spec: unknown): DBInstanceSpec {
  const r = dbInstanceService.parseSpec(spec);
  assert.ok(r.ok, r.ok ? "" : r.message);
  return r.value as DBInstanceSpec;
}

const spec = parse({
  dbInstanceIdentifier: "Orders",
  dbInstanceClass: "db.t3.micro",
  engine: "postgres",
  masterUsername: "admin",
  masterUserPassword: { namespace: "shop", name: "orders-db", key: "password" },
  backupRetentionPeriod: 7,
});

/** A client whose `send` records each command's name and input and answers `answer`. */
function recordingClient(answer: (name: string) => unknown = () => ({})) {
  const sent: { name: string; input: Record<string, unknown> }[] = [];
  const rds = {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      sent.push({ name: command.constructor.name, input: command.input });
      const a = answer(command.constructor.name);
      if (a instanceof Error) throw a;
      return a;
    },
  } as unknown as RDSClient;
  const client: DeclaredClient<RDSClient> = { sdk: rds, region: "eu-west-1" };
  return { client, sent };
}

const secrets = (value: string, changed: string[] = []): SecretValues => ({
  values: new Map([["spec.masterUserPassword", value]]),
  changed,
});

describe("dbInstanceService", () => {
  test("busy in every state but available (and storage-full), in RDS's words", async () => {
    for (const s of [
      "creating",
      "modifying",
      "backing-up",
      "rebooting",
      "upgrading",
      "deleting",
      "starting",
    ]) {
      assert.deepEqual(dbInstanceService.busy?.(await observed({ DBInstanceStatus: s })), {
        reason: "DBInstanceStatus",
        message: `DB instance orders is ${s} in AWS; waiting until it is available`,
        requeueAfterMs: busyRequeueMs,
      });
    }
    assert.equal(busyRequeueMs, 15_000);
    for (const s of ["available", "storage-full"]) {
      assert.equal(dbInstanceService.busy?.(await observed({ DBInstanceStatus: s })), undefined, s);
    }
    const stopped = dbInstanceService.busy?.(await observed({ DBInstanceStatus: "stopped" }));
    assert.equal(stopped?.requeueAfterMs, stuckRequeueMs);
    assert.match(stopped?.message ?? "", /is stopped in AWS.*start it in AWS/);
    assert.equal(
      dbInstanceService.busy?.(await observed({ DBInstanceStatus: "failed" }))?.requeueAfterMs,
      stuckRequeueMs,
    );
  });

  test("identifier, ARN and status use RDS's lowercase identifier; tags and region as RDS has them", async () => {
    assert.equal(dbInstanceService.identifier(spec), "orders");
    assert.equal(dbInstanceService.identifierField, "spec.dbInstanceIdentifier");
    assert.equal(dbInstanceService.arn(spec, "eu-west-1", "1"), "arn:aws:rds:eu-west-1:1:db:orders");
    const o = await observed({
      DBInstanceStatus: "available",
      Endpoint: { Address: "orders.x", Port: 5432 },
    });
    assert.deepEqual(dbInstanceService.statusFrom?.(o), {
      dbInstanceStatus: "available",
      endpoint: { address: "orders.x", port: 5432 },
    });
    assert.deepEqual(dbInstanceService.tagsOf(o), { "services.k8s.aws/owner-uid": "u", team: "shop" });
    assert.equal(dbInstanceService.observedRegion(o), "eu-west-1");
  });

  test("secretFields: the password reference, by spec path; none without one", () => {
    assert.deepEqual(dbInstanceService.secretFields?.(spec), [
      { path: "spec.masterUserPassword", ref: { namespace: "shop", name: "orders-db", key: "password" } },
    ]);
    const { masterUserPassword: _p, ...without } = spec;
    assert.deepEqual(dbInstanceService.secretFields?.(without), []);
  });

  test("strict adoption: RDS's settings, the spec's identifier spelling and password reference, a valid spec", async () => {
    const adopted = dbInstanceService.specFromObserved(
      await observed({ DBInstanceStatus: "available" }),
      spec,
    ) as DBInstanceSpec;
    assert.equal(adopted.dbInstanceIdentifier, "Orders");
    assert.deepEqual(adopted.masterUserPassword, spec.masterUserPassword);
    assert.equal(adopted.backupRetentionPeriod, 1);
    assert.deepEqual(adopted.tags, [{ key: "team", value: "shop" }]);
    assert.equal(adopted.storageType, "io1", "provisioned IOPS storage is served, with its iops");
    assert.deepEqual(parse(adopted), adopted);
    assert.deepEqual(dbInstanceService.diff(spec, await observed({})), [
      "spec.backupRetentionPeriod",
      "spec.tags",
    ]);
    const bad = dbInstanceService.parseSpec({ dbInstanceIdentifier: "x" });
    assert.ok(!bad.ok && bad.message.includes("spec.dbInstanceClass"));
  });

  test("create sends the password the reconciler read from the Secret, and refuses to create without it", async () => {
    const { client, sent } = recordingClient(() => ({ DBInstance: { DBInstanceStatus: "creating" } }));
    const created = await dbInstanceService.create(
      client,
      spec,
      "eu-west-1",
      { o: "1" },
      {},
      secrets("pw-1"),
    );
    assert.deepEqual(created, { created: true, status: { dbInstanceStatus: "creating" } });
    assert.equal(sent[0]?.name, "CreateDBInstanceCommand");
    assert.equal(sent[0]?.input["MasterUserPassword"], "pw-1");
    assert.equal(sent[0]?.input["DBInstanceIdentifier"], "orders");
    await assert.rejects(
      () => dbInstanceService.create(client, spec, "eu-west-1", {}, {}, noSecrets),
      (err: unknown) => {
        assert.ok(err instanceof Error);
        assert.match(err.message, /^spec\.masterUserPassword: CreateDBInstance .* needs the master password/);
        assert.equal(dbInstanceService.isTerminal(err), false);
        return true;
      },
    );
    assert.equal(sent.length, 1, "nothing sent without the password");
  });

  test("update sets the password again only when its Secret changed, and says so", async () => {
    const inSync = await observed({
      DBInstanceStatus: "available",
      BackupRetentionPeriod: 7,
      TagList: [{ Key: "services.k8s.aws/owner-uid", Value: "u" }],
    });
    const { client, sent } = recordingClient();
    assert.deepEqual(await dbInstanceService.update(client, spec, inSync, {}, {}, secrets("pw-1")), []);
    assert.equal(sent.length, 0, "an unchanged Secret is not sent again");
    const changed = await dbInstanceService.update(
      client,
      spec,
      inSync,
      {},
      {},
      secrets("pw-2", ["spec.masterUserPassword"]),
    );
    assert.deepEqual(changed, ["spec.masterUserPassword"]);
    assert.deepEqual(sent[0], {
      name: "ModifyDBInstanceCommand",
      input: { DBInstanceIdentifier: "orders", ApplyImmediately: true, MasterUserPassword: "pw-2" },
    });
  });

  test("a failed call that carried the password shows none of RDS's message, nor keeps the SDK error", async () => {
    // A password that is a substring of RDS's message: no trace of it may be left by cutting it out.
    const password = "pass";
    const failure = Object.assign(new Error("The parameter MasterUserPassword is not a valid password"), {
      name: "InvalidParameterValue",
      $metadata: { httpStatusCode: 400 },
    });
    // Only the calls that carry the password fail (the tag writes of the update do not).
    const { client } = recordingClient((name) =>
      name === "CreateDBInstanceCommand" || name === "ModifyDBInstanceCommand" ? failure : {},
    );
    for (const run of [
      () => dbInstanceService.create(client, spec, "eu-west-1", {}, {}, secrets(password)),
      async () =>
        dbInstanceService.update(
          client,
          spec,
          await observed({ DBInstanceStatus: "available" }),
          {},
          {},
          secrets(password, ["spec.masterUserPassword"]),
        ),
    ]) {
      await assert.rejects(run, (err: unknown) => {
        assert.ok(err instanceof Error);
        for (const text of [err.message, dbInstanceService.describeError(err, spec)]) {
          assert.ok(!text.includes("not a valid") && !text.includes("[redacted]"), text);
          assert.match(text, /withheld because the call carried a secret \(spec\.masterUserPassword\)/);
        }
        assert.equal(err.cause, undefined);
        assert.ok(dbInstanceService.isTerminal(err));
        return true;
      });
    }
  });

  test("delete skips the final snapshot unless ACK's annotations ask for one", async () => {
    const { client, sent } = recordingClient();
    assert.equal(await dbInstanceService.delete(client, spec, {}, {}), "deleted");
    assert.deepEqual(sent[0]?.input, { DBInstanceIdentifier: "orders", SkipFinalSnapshot: true });
    const annotated = dbInstanceService.delete;
    await annotated(
      client,
      spec,
      {},
      {
        "rds.services.k8s.aws/skip-final-snapshot": "false",
        "rds.services.k8s.aws/final-db-snapshot-identifier": "orders-final",
        "rds.services.k8s.aws/delete-automated-backups": "true",
      },
    );
    assert.deepEqual(sent[1]?.input, {
      DBInstanceIdentifier: "orders",
      SkipFinalSnapshot: false,
      FinalDBSnapshotIdentifier: "orders-final",
      DeleteAutomatedBackups: true,
    });
    await assert.rejects(
      () => annotated(client, spec, {}, { "rds.services.k8s.aws/skip-final-snapshot": "maybe" }),
      /skip-final-snapshot must be "true" or "false"/,
    );
  });

  test("deletion annotations parse as ACK's (absent or empty: skip the snapshot)", () => {
    assert.deepEqual(deleteOptionsFromAnnotations(undefined), {
      ok: true,
      options: { skipFinalSnapshot: true },
    });
    assert.deepEqual(deleteOptionsFromAnnotations({ "rds.services.k8s.aws/skip-final-snapshot": "" }), {
      ok: true,
      options: { skipFinalSnapshot: true },
    });
    const noName = deleteOptionsFromAnnotations({ "rds.services.k8s.aws/skip-final-snapshot": "false" });
    assert.ok(!noName.ok && noName.message.includes("final-db-snapshot-identifier"));
    assert.deepEqual(
      deleteOptionsFromAnnotations({
        "rds.services.k8s.aws/skip-final-snapshot": "true",
        "rds.services.k8s.aws/final-db-snapshot-identifier": "ignored",
      }),
      { ok: true, options: { skipFinalSnapshot: true } },
    );
  });
});
