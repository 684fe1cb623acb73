// The DBClusterParameterGroup kind — DBParameterGroup's parameter hooks over RDS's cluster calls
// (src/services/rds/parameter-groups.ts) — against the AWS emulator, calls checked on the wire:
// the create carries the ownership tags; the overrides are read with DescribeDBClusterParameters
// (source user) and set with ModifyDBClusterParameterGroup, a removed one reset with
// ResetDBClusterParameterGroup (moto has none: answered as RDS does); ACK's deprecated
// `parameters` is refused; another account sees nothing; delete is idempotent.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { RDSClient } from "@aws-sdk/client-rds";
import type { DeclaredObserved } from "../../src/services/declared-kind/source.ts";
import { dbClusterParameterGroupService as service } from "../../src/services/rds/db-cluster-parameter-group.ts";
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
  "services.k8s.aws/owner": "DBClusterParameterGroup/shop/analytics",
  "services.k8s.aws/owner-uid": "uid-cpg-1",
  "services.k8s.aws/controller-version": "crossrole-test",
};

type Client = AccountClient<RDSClient>;
let accounts: TwoAccounts<RDSClient>;
let calls: WireCalls;
let mine: Client;
let other: Client;

before(async () => {
  accounts = await startTwoAccounts(
    "rds-dbclusterparametergroup",
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
    family: "aurora-postgresql16",
    description: "analytics settings",
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

describe("DBClusterParameterGroup through the generic runtime", () => {
  test("overrides through the cluster calls: set, read back, a removed one reset", async () => {
    const name = uniqueName("cluster-params");
    const both = spec(name, { parameterOverrides: { "custom.a": "1", "custom.b": "2" } });
    assert.deepEqual(await calls.during(() => create(both)), ["CreateDBClusterParameterGroup"]);
    const o = await observed(mine, both);
    assert.equal(calls.input("DescribeDBClusterParameters", -1)["Source"], "user");
    assert.deepEqual(service.diff(both, o), ["spec.parameterOverrides"]);
    assert.deepEqual(writesOnly(await calls.during(() => update(both, o))), [
      "ModifyDBClusterParameterGroup",
    ]);
    const after = await observed(mine, both);
    assert.deepEqual(after.fields["parameterOverrides"], { "custom.a": "1", "custom.b": "2" });
    assert.deepEqual(service.diff(both, after), []);
    assert.equal(after.arn, `arn:aws:rds:${region}:${mine.account}:cluster-pg:${name}`);

    const one = spec(name, { parameterOverrides: { "custom.a": "1" } });
    const reset = accounts.proxy.addFault({
      name: "reset",
      match: (r) => r.action === "ResetDBClusterParameterGroup",
      respond: {
        answer: {
          status: 200,
          body: `<ResetDBClusterParameterGroupResponse xmlns="http://rds.amazonaws.com/doc/2014-10-31/"><ResetDBClusterParameterGroupResult><DBClusterParameterGroupName>${name}</DBClusterParameterGroupName></ResetDBClusterParameterGroupResult></ResetDBClusterParameterGroupResponse>`,
        },
      },
    });
    const sent = writesOnly(await calls.during(() => update(one, after)));
    reset();
    assert.deepEqual(sent, ["ResetDBClusterParameterGroup"]);
    const input = calls.input("ResetDBClusterParameterGroup");
    assert.equal(input["DBClusterParameterGroupName"], name);
    assert.equal(input["Parameters.Parameter.1.ParameterName"], "custom.b");
    assert.equal(input["Parameters.Parameter.1.ApplyMethod"], "pending-reboot");
  });

  test("ACK's deprecated parameters is refused, naming parameterOverrides", () => {
    const r = service.parseSpec({
      name: "x",
      family: "aurora-postgresql16",
      description: "d",
      parameters: [{ parameterName: "a", parameterValue: "1" }],
    });
    assert.equal(r.ok, false);
    assert.match(r.ok ? "" : r.message, /^spec\.parameters: .*spec\.parameterOverrides/);
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
