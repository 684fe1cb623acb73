// The Function kind — a declaration served by the generic runtime, with Lambda's quirks as hooks —
// against the AWS emulator, calls checked on the wire through the recording proxy: the create
// carries the ownership tags and the package, one GetFunction reads the function with its tags and
// reserved concurrency, the configuration changes in one call of what differs, the code changes
// by its digest (the zipFile's own, or code.sha256), the reserved concurrency and the event invoke
// configuration are put and deleted by their own calls, drift is corrected, another account sees
// nothing, and delete is idempotent.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  LambdaClient,
  PutFunctionConcurrencyCommand,
  UpdateFunctionConfigurationCommand,
} from "@aws-sdk/client-lambda";
import { ensureExecutionRole, executionRoleArn } from "../../src/local-stack/execution-role.ts";
import type { DeclaredObserved } from "../../src/services/declared-kind/source.ts";
import { packageDigest, functionService as service } from "../../src/services/lambda/function.ts";
import { lambdaPackage } from "../support/lambda-package.ts";
import {
  type AccountClient,
  defaultCredentials,
  startTwoAccounts,
  type TwoAccounts,
  type WireCalls,
  writesOnly,
} from "../support/two-accounts.ts";

const region = "us-east-1";
const owner = {
  "services.k8s.aws/namespace": "shop",
  "services.k8s.aws/owner": "Function/shop/shop-api",
  "services.k8s.aws/owner-uid": "uid-function-1",
  "services.k8s.aws/controller-version": "crossrole-test",
};

type Client = AccountClient<LambdaClient>;
let accounts: TwoAccounts<LambdaClient>;
let calls: WireCalls;
let mine: Client;
let other: Client;
let role: string;

before(async () => {
  accounts = await startTwoAccounts(
    "lambda-function",
    region,
    (endpoint, credentials) => new LambdaClient({ region, endpoint, credentials }),
  );
  ({ calls, mine, other } = accounts);
  await ensureExecutionRole(accounts.emulator.endpoint, defaultCredentials.accessKeyId);
  role = executionRoleArn(mine.account);
});

after(() => accounts?.close());

let counter = 0;
const uniqueName = (label: string) => `crossrole-${label}-${process.pid}-${++counter}`;

function spec(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const r = service.parseSpec({
    name,
    role,
    runtime: "python3.12",
    handler: "index.handler",
    code: { zipFile: lambdaPackage() },
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

describe("Function through the generic runtime", () => {
  test("create: one call with the package and the ownership tags; one GetFunction reads it all, ACK's status and the ARN", async () => {
    const name = uniqueName("create");
    const desired = spec(name, { tags: { team: "shop" }, timeout: 10, description: "the shop's API" });
    const sent = await calls.during(() => create(desired));
    assert.deepEqual(sent, ["CreateFunction"], "one call (the reconciler has read first)");
    const input = calls.input("CreateFunction");
    assert.equal(input["FunctionName"], name);
    assert.equal(input["Role"], role);
    assert.equal((input["Tags"] as Record<string, string>)["services.k8s.aws/owner-uid"], "uid-function-1");
    assert.equal(
      typeof (input["Code"] as Record<string, unknown>)["ZipFile"],
      "string",
      "the package, base64",
    );
    assert.equal(
      (input["Code"] as Record<string, unknown>)["SHA256"],
      undefined,
      "code.sha256 is not Lambda's",
    );
    const read = await calls.during(() => observed(mine, desired));
    assert.equal(read.filter((c) => c === "GetFunction").length, 1, "one GetFunction");
    assert.ok(!read.includes("ListTags"), "the tags come with GetFunction");
    const o = await observed(mine, desired);
    assert.equal(o.fields["name"], name);
    assert.equal(o.fields["timeout"], 10);
    assert.equal(o.tags["team"], "shop");
    assert.equal(o.arn, `arn:aws:lambda:${region}:${mine.account}:function:${name}`);
    assert.equal(service.arn(desired, region, mine.account), o.arn, "the ARN is known before it exists");
    const status = service.statusFrom?.(o) ?? {};
    assert.equal(
      status["codeSHA256"],
      packageDigest(lambdaPackage()),
      "Lambda's digest is the package's own",
    );
    assert.equal(status["state"], "Active");
    assert.ok(service.parseStatus({ ...status }).ok, "status fits the CRD's status schema");
    assert.deepEqual(service.diff(desired, o), [], "nothing differs right after the create");
  });

  test("configuration: only what differs, in one UpdateFunctionConfiguration; a description removed is cleared", async () => {
    const name = uniqueName("config");
    await create(spec(name, { description: "first", memorySize: 256 }));
    const desired = spec(name, { timeout: 30, environment: { variables: { STAGE: "prod" } } });
    const o = await observed(mine, desired);
    assert.deepEqual([...service.diff(desired, o)].sort(), [
      "spec.description",
      "spec.environment",
      "spec.memorySize",
      "spec.timeout",
    ]);
    const sent = writesOnly(await calls.during(() => update(desired, o)));
    assert.deepEqual(sent, ["UpdateFunctionConfiguration"]);
    const input = calls.input("UpdateFunctionConfiguration", -1);
    assert.deepEqual(
      input,
      { Description: "", MemorySize: 128, Timeout: 30, Environment: { Variables: { STAGE: "prod" } } },
      "the changed fields only (the function named in the path), each removal as Lambda's none",
    );
    const after = await observed(mine, desired);
    assert.deepEqual(service.diff(desired, after), []);
    assert.equal(after.fields["description"], undefined);
  });

  test("code: a new package is one UpdateFunctionCode, told by its digest; the same package sends nothing", async () => {
    const name = uniqueName("code");
    await create(spec(name));
    const same = spec(name);
    assert.deepEqual(service.diff(same, await observed(mine, same)), [], "the zipFile's digest is Lambda's");
    const changed = spec(name, { code: { zipFile: lambdaPackage("def handler(e, c):\n    return 2\n") } });
    const o = await observed(mine, changed);
    assert.deepEqual(service.diff(changed, o), ["spec.code"]);
    assert.deepEqual(writesOnly(await calls.during(() => update(changed, o))), ["UpdateFunctionCode"]);
    const input = calls.input("UpdateFunctionCode", -1);
    assert.equal(typeof input["ZipFile"], "string", "the package at the call's top");
    assert.equal(input["SHA256"], undefined);
    assert.deepEqual(service.diff(changed, await observed(mine, changed)), []);
    // code.sha256 names the package the function should run, whatever the source says.
    const pinned = spec(name, { code: { s3Bucket: "code-bucket", s3Key: "k", sha256: "not-the-digest" } });
    assert.deepEqual(service.diff(pinned, await observed(mine, pinned)), ["spec.code"]);
  });

  test("reserved concurrency and event invoke configuration: put and deleted by their own calls, drift corrected", async () => {
    const name = uniqueName("extras");
    await create(spec(name));
    const desired = spec(name, {
      reservedConcurrentExecutions: 5,
      functionEventInvokeConfig: {
        functionName: name,
        maximumRetryAttempts: 1,
        maximumEventAgeInSeconds: 600,
      },
    });
    const o = await observed(mine, desired);
    assert.deepEqual([...service.diff(desired, o)].sort(), [
      "spec.functionEventInvokeConfig",
      "spec.reservedConcurrentExecutions",
    ]);
    const sent = writesOnly(await calls.during(() => update(desired, o)));
    assert.deepEqual(sent.sort(), ["PutFunctionConcurrency", "PutFunctionEventInvokeConfig"]);
    const put = calls.input("PutFunctionEventInvokeConfig", -1);
    assert.deepEqual(
      put,
      { MaximumRetryAttempts: 1, MaximumEventAgeInSeconds: 600 },
      "the function named in the path only",
    );
    const after = await observed(mine, desired);
    assert.equal(after.fields["reservedConcurrentExecutions"], 5);
    assert.deepEqual(
      service.diff(desired, after),
      [],
      "the function's own name in the configuration is no drift",
    );
    // Changed out of band: corrected.
    await mine.sdk.send(
      new PutFunctionConcurrencyCommand({ FunctionName: name, ReservedConcurrentExecutions: 9 }),
    );
    const drifted = await observed(mine, desired);
    assert.deepEqual(service.diff(desired, drifted), ["spec.reservedConcurrentExecutions"]);
    await update(desired, drifted);
    assert.equal((await observed(mine, desired)).fields["reservedConcurrentExecutions"], 5);
    // Removed from the spec: deleted in AWS.
    const bare = spec(name);
    const before = await observed(mine, bare);
    assert.deepEqual([...service.diff(bare, before)].sort(), [
      "spec.functionEventInvokeConfig",
      "spec.reservedConcurrentExecutions",
    ]);
    const removed = writesOnly(await calls.during(() => update(bare, before)));
    assert.deepEqual(removed.sort(), ["DeleteFunctionConcurrency", "DeleteFunctionEventInvokeConfig"]);
    assert.deepEqual(service.diff(bare, await observed(mine, bare)), []);
  });

  test("drift in the configuration is corrected; tags are set and removed, the ownership tags kept", async () => {
    const name = uniqueName("drift");
    const desired = spec(name, { timeout: 20, tags: { team: "shop" } });
    await create(desired);
    await mine.sdk.send(
      new UpdateFunctionConfigurationCommand({ FunctionName: name, Timeout: 3, MemorySize: 512 }),
    );
    const o = await observed(mine, desired);
    assert.deepEqual([...service.diff(desired, o)].sort(), ["spec.memorySize", "spec.timeout"]);
    await update(desired, o);
    assert.deepEqual(service.diff(desired, await observed(mine, desired)), []);
    const retagged = spec(name, { timeout: 20, tags: { cost: "42" } });
    const before = await observed(mine, retagged);
    assert.deepEqual(writesOnly(await calls.during(() => update(retagged, before))).sort(), [
      "TagResource",
      "UntagResource",
    ]);
    const after = await observed(mine, retagged);
    assert.equal(after.tags["cost"], "42");
    assert.equal(after.tags["team"], undefined);
    assert.equal(after.tags["services.k8s.aws/owner-uid"], "uid-function-1");
  });

  test("a function updating takes nothing more: the update stops after the call that left it InProgress, the read says it waits", async () => {
    const name = uniqueName("busy");
    await create(spec(name));
    const desired = spec(name, {
      timeout: 40,
      code: { zipFile: lambdaPackage("def handler(e, c):\n    return 3\n") },
    });
    const o = await observed(mine, desired);
    assert.deepEqual([...service.diff(desired, o)].sort(), ["spec.code", "spec.timeout"]);
    // Lambda answers the update with the function updating (moto never does): nothing more is sent.
    const updating = accounts.proxy.addFault({
      name: "updating",
      match: (r) => r.action === "UpdateFunctionConfiguration",
      respond: {
        rewrite: (body) =>
          body.replace(/"LastUpdateStatus": ?"Successful"/, '"LastUpdateStatus": "InProgress"'),
      },
    });
    const sent = writesOnly(await calls.during(() => update(desired, o)));
    updating();
    assert.deepEqual(sent, ["UpdateFunctionConfiguration"], "the code waits for the next reconcile");
    // Read while Lambda still creates it (Pending): busy, so the reconciler writes nothing and looks again.
    const pending = accounts.proxy.addFault({
      name: "pending",
      match: (r) => r.action === "GetFunction",
      respond: { rewrite: (body) => body.replace(/"State": ?"Active"/, '"State": "Pending"') },
    });
    const held = await observed(mine, desired);
    pending();
    assert.equal(held.busy, "Pending");
    const next = await observed(mine, desired);
    assert.equal(next.busy, undefined);
    assert.deepEqual(writesOnly(await calls.during(() => update(desired, next))), ["UpdateFunctionCode"]);
    assert.deepEqual(service.diff(desired, await observed(mine, desired)), []);
  });

  test("a create naming a layer Lambda cannot find names spec.layers, never 'the function is gone'", async () => {
    const layer = `arn:aws:lambda:${region}:${mine.account}:layer:missing:1`;
    const err = await create(spec(uniqueName("layer"), { layers: [layer] })).then(
      () => assert.fail("created"),
      (e: unknown) => e as Error,
    );
    assert.match(err.message, /^spec\.layers: CreateFunction on function ".*" failed with ResourceNotFound/);
    assert.match(
      err.message,
      /\(Lambda finds no such spec\.layers: create it or fix spec\.layers; retrying\)$/,
    );
  });

  test("a container image with a code signing configuration is refused by the spec check, naming the field", () => {
    const r = service.parseSpec({
      name: "image",
      role,
      packageType: "Image",
      code: { imageURI: `${mine.account}.dkr.ecr.${region}.amazonaws.com/app:1` },
      codeSigningConfigARN: `arn:aws:lambda:${region}:${mine.account}:code-signing-config:csc-1`,
    });
    assert.equal(r.ok, false);
    assert.match(
      r.ok ? "" : r.message,
      /^spec\.codeSigningConfigARN: cannot set function code signing config when package type is Image/,
    );
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
