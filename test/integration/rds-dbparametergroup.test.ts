// The DBParameterGroup kind — a declaration served by the generic runtime, its parameters written
// by the kind — against the AWS emulator, calls checked on the wire through the recording proxy:
// the create carries the ownership tags; the read adds the parameters the group sets
// (DescribeDBParameters, source user) as parameterOverrides and ACK's parameterOverrideStatuses;
// overrides are set twenty per ModifyDBParameterGroup, each with the apply method its type
// allows; removed ones are reset (moto has no ResetDBParameterGroup: answered as RDS does, the
// input checked); another account sees nothing; delete is idempotent.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ModifyDBParameterGroupCommand, RDSClient } from "@aws-sdk/client-rds";
import type { DeclaredObserved } from "../../src/services/declared-kind/source.ts";
import { dbParameterGroupService as service } from "../../src/services/rds/db-parameter-group.ts";
import { applyMethodFor, parameterChanges } from "../../src/services/rds/parameter-groups.ts";
import {
  type AccountClient,
  startTwoAccounts,
  type TwoAccounts,
  type WireCalls,
  writesOnly,
} from "../support/two-accounts.ts";

const region = "us-east-1";
const owner = {
  "services.k8s.aws/namespace": "shop",
  "services.k8s.aws/owner": "DBParameterGroup/shop/shop-db-params",
  "services.k8s.aws/owner-uid": "uid-pg-1",
  "services.k8s.aws/controller-version": "crossrole-test",
};

type Client = AccountClient<RDSClient>;
let accounts: TwoAccounts<RDSClient>;
let calls: WireCalls;
let mine: Client;
let other: Client;

before(async () => {
  accounts = await startTwoAccounts(
    "rds-dbparametergroup",
    region,
    (endpoint, credentials) => new RDSClient({ region, endpoint, credentials }),
  );
  ({ calls, mine, other } = accounts);
});

after(() => accounts?.close());

let counter = 0;
const uniqueName = (label: string) => `crossrole-${label}-${process.pid}-${++counter}`;

function spec(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const r = service.parseSpec({
    name,
    family: "postgres16",
    description: "the shop's database settings",
    ...extra,
  });
  assert.ok(r.ok, r.ok ? "" : r.message);
  return r.value;
}

async function observed(client: Client, s: Record<string, unknown>): Promise<DeclaredObserved> {
  const r = await service.read(client, s, {});
  assert.ok(r.found, "found");
  return r.observed;
}

const create = (s: Record<string, unknown>) => service.create(mine, s, region, owner, {}, undefined as never);
const update = (desired: Record<string, unknown>, o: DeclaredObserved) =>
  service.update(mine, desired, o, owner, {}, undefined as never);

/** What a group's query call (RDS's protocol) carried: its `Parameters.Parameter.N.*` members, by N. */
function parametersSent(input: Readonly<Record<string, unknown>>): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const [key, value] of Object.entries(input)) {
    const m = /^Parameters\.Parameter\.(\d+)\.(\w+)$/.exec(key);
    if (!m) continue;
    const i = Number(m[1]) - 1;
    out[i] = { ...out[i], [m[2] ?? ""]: String(value) };
  }
  return out;
}

describe("DBParameterGroup through the generic runtime", () => {
  test("the changes from one set of overrides to another: set what differs, reset what went, twenty per call", () => {
    const want = Object.fromEntries(
      Array.from({ length: 25 }, (_, i) => [`p${String(i).padStart(2, "0")}`, "1"]),
    );
    const { set, reset } = parameterChanges(want, { p00: "1", p01: "2", gone: "x" });
    assert.deepEqual(
      set.map((c) => c.length),
      [20, 4],
      "p00 is as wanted; the other 24 in calls of 20",
    );
    assert.deepEqual(reset, [["gone"]]);
    assert.equal(applyMethodFor("dynamic"), "immediate");
    assert.equal(applyMethodFor("static"), "pending-reboot");
    assert.equal(
      applyMethodFor(undefined),
      "pending-reboot",
      "unknown: the method RDS takes for every parameter",
    );
  });

  test("create: one call with the ownership tags; the read adds the group's own parameters and ACK's status", async () => {
    const name = uniqueName("create");
    const desired = spec(name, { tags: [{ key: "team", value: "shop" }] });
    assert.deepEqual(await calls.during(() => create(desired)), ["CreateDBParameterGroup"]);
    const input = calls.input("CreateDBParameterGroup");
    assert.equal(input["DBParameterGroupFamily"], "postgres16");
    assert.equal(input["Tags.Tag.1.Key"] ?? input["Tags.member.1.Key"], "team");
    const read = await calls.during(() => observed(mine, desired));
    assert.ok(read.includes("DescribeDBParameters"));
    assert.equal(calls.input("DescribeDBParameters")["Source"], "user", "only the parameters the group sets");
    const o = await observed(mine, desired);
    assert.equal(o.fields["name"], name);
    assert.equal(o.fields["parameterOverrides"], undefined, "a new group sets none");
    assert.equal(o.arn, `arn:aws:rds:${region}:${mine.account}:pg:${name}`);
    assert.ok(
      service.parseStatus({ ...(service.statusFrom?.(o) ?? {}) }).ok,
      "status fits the CRD's status schema",
    );
    assert.deepEqual(service.diff(desired, o), []);
  });

  test("overrides: twenty per ModifyDBParameterGroup, a dynamic parameter applied at once, a static one at the reboot; read back as the spec says them", async () => {
    const name = uniqueName("overrides");
    await create(spec(name));
    // RDS knows each parameter's type; moto keeps what it is told, so the test tells it one.
    await mine.sdk.send(
      new ModifyDBParameterGroupCommand({
        DBParameterGroupName: name,
        Parameters: [
          {
            ParameterName: "work_mem",
            ParameterValue: "4096",
            ApplyMethod: "immediate",
            ApplyType: "dynamic",
          },
        ],
      }),
    );
    const many = Object.fromEntries(
      Array.from({ length: 22 }, (_, i) => [`custom.p${String(i).padStart(2, "0")}`, String(i)]),
    );
    const desired = spec(name, { parameterOverrides: { ...many, work_mem: "8192" } });
    const o = await observed(mine, desired);
    assert.deepEqual(service.diff(desired, o), ["spec.parameterOverrides"]);
    const sent = writesOnly(await calls.during(() => update(desired, o)));
    assert.deepEqual(sent, ["ModifyDBParameterGroup", "ModifyDBParameterGroup"], "23 parameters: 20 and 3");
    const sentParameters = [0, 1].flatMap((n) => parametersSent(calls.input("ModifyDBParameterGroup", n)));
    assert.equal(sentParameters.length, 23);
    const workMem = sentParameters.find((p) => p["ParameterName"] === "work_mem");
    assert.deepEqual(workMem, {
      ParameterName: "work_mem",
      ParameterValue: "8192",
      ApplyMethod: "immediate",
    });
    assert.equal(
      sentParameters.find((p) => p["ParameterName"] === "custom.p00")?.["ApplyMethod"],
      "pending-reboot",
    );
    const after = await observed(mine, desired);
    assert.deepEqual(service.diff(desired, after), []);
    const statuses = service.statusFrom?.(after)?.["parameterOverrideStatuses"] as {
      parameterName?: string;
    }[];
    assert.equal(statuses.length, 23, "ACK's status lists the group's parameters");
  });

  test("a parameter removed from the spec is reset to the family's default, drift in one is set back", async () => {
    const name = uniqueName("reset");
    const both = spec(name, { parameterOverrides: { work_mem: "8192", "custom.keep": "1" } });
    await create(both);
    await update(both, await observed(mine, both));
    await mine.sdk.send(
      new ModifyDBParameterGroupCommand({
        DBParameterGroupName: name,
        Parameters: [{ ParameterName: "custom.keep", ParameterValue: "2", ApplyMethod: "pending-reboot" }],
      }),
    );
    const one = spec(name, { parameterOverrides: { "custom.keep": "1" } });
    const o = await observed(mine, one);
    assert.deepEqual(service.diff(one, o), ["spec.parameterOverrides"]);
    // moto has no ResetDBParameterGroup: answered as RDS answers it.
    const resetAnswered = accounts.proxy.addFault({
      name: "reset",
      match: (r) => r.action === "ResetDBParameterGroup",
      respond: {
        answer: {
          status: 200,
          body: `<ResetDBParameterGroupResponse xmlns="http://rds.amazonaws.com/doc/2014-10-31/"><ResetDBParameterGroupResult><DBParameterGroupName>${name}</DBParameterGroupName></ResetDBParameterGroupResult></ResetDBParameterGroupResponse>`,
        },
      },
    });
    const sent = writesOnly(await calls.during(() => update(one, o)));
    resetAnswered();
    assert.deepEqual(
      sent,
      ["ResetDBParameterGroup", "ModifyDBParameterGroup"],
      "reset first, then the drift set back",
    );
    assert.deepEqual(parametersSent(calls.input("ResetDBParameterGroup")), [
      { ParameterName: "work_mem", ApplyMethod: "pending-reboot" },
    ]);
    assert.deepEqual(parametersSent(calls.input("ModifyDBParameterGroup")), [
      { ParameterName: "custom.keep", ParameterValue: "1", ApplyMethod: "pending-reboot" },
    ]);
  });

  test("another account sees nothing of it; delete is idempotent", async () => {
    const name = uniqueName("delete");
    const desired = spec(name);
    await create(desired);
    assert.deepEqual(await service.read(other, desired, {}), { found: false });
    await service.delete(mine, desired, {}, {});
    assert.deepEqual(await service.read(mine, desired, {}), { found: false });
    await service.delete(mine, desired, {}, {});
  });
});
