// What the generic runtime sends and concludes for a kind shaped like RDS's DBInstance, written out
// here (pure logic over an in-process SDK: test/support/fake-sdk.ts): identifiers AWS stores in
// lower case, tags and other fields in the read answer (under other members, or pending), one set
// call with only the changed fields, a secret sent at creation and again when its Secret changed,
// states it may be written in or must be left in, a delete refused for the object's state, and a
// delete input the kind refuses.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { z } from "zod";
import { awsError, type Fields, fakeSdk } from "../../../test/support/fake-sdk.ts";
import type { ResourceKind } from "../../api/kinds.ts";
import type { KindDeclaration, RuntimeDeclaration } from "../../codegen/declaration.ts";
import { noSecrets, type SecretValues } from "../service-module.ts";
import { declaredKindModule } from "./module.ts";
import type { DeclaredKindSource, GeneratedKind } from "./source.ts";

const kind: ResourceKind = {
  group: "db.services.k8s.aws",
  version: "v1alpha1",
  kind: "Instance",
  plural: "instances",
  singular: "instance",
  service: "db",
};

const declaration = {
  service: "db",
  kind: "Instance",
  identifier: "InstanceId",
  terminalCodes: ["InvalidParameterValue"],
  spec: [],
  secrets: ["Password"],
  create: "CreateInstance",
  groups: [
    {
      set: "ModifyInstance",
      read: "DescribeInstances",
      send: "changed",
      input: { ApplyNow: true },
      secrets: ["Password"],
      fields: {
        Size: {},
        Port: { setAs: "PortNumber" },
        Logs: { form: "set", change: { member: "LogConfig", add: "Enable", remove: "Disable" } },
        Version: { with: { input: { AllowMajor: true } } },
        Flag: { default: false },
        Domain: { removedAs: { LeaveDomain: true } },
        Max: {},
        Managed: { absent: "kept", default: false },
      },
    },
    { set: "AddTags", remove: "RemoveTags", read: "ListTags", fields: { Tags: { form: "tags" } } },
  ],
  runtime: {
    service: "DB",
    noun: "instance",
    identifierCase: "lower",
    read: {
      call: "DescribeInstances",
      output: "Instances",
      members: { Port: "Endpoint.Port", Managed: { present: "Secret" } },
      pending: { member: "Pending", fields: ["Size"], renames: { FlagOn: "Flag" } },
    },
    delete: "DeleteInstance",
    arn: "Arn",
    arnResource: "db:",
    notFound: ["InstanceNotFound"],
    alreadyExists: ["InstanceAlreadyExists"],
    tags: { resource: "ResourceName", keys: "TagKeys", list: "TagList", inAnswer: "TagList" },
    updateOrder: ["AddTags", "ModifyInstance"],
    secrets: {
      Password: { noun: "the password", alsoWhen: { field: "Managed", from: true, to: false } },
    },
    states: {
      member: "State",
      ready: ["available"],
      alsoWritable: ["storage-full"],
      stuck: ["stopped"],
      advice: { stopped: "start it in AWS" },
      deleting: ["deleting"],
      busyCodes: ["InvalidInstanceState"],
    },
    fieldPatterns: { codes: ["InvalidParameterValue"], patterns: [["port", "Port"]] },
  },
} as const satisfies KindDeclaration & { runtime: RuntimeDeclaration };

const tagsCodec = { list: { object: { key: ["Key", {}], value: ["Value", {}] } } } as const;
const generated: GeneratedKind = {
  fieldSchemas: { name: z.string() },
  statusSchemas: {},
  codecs: {
    name: ["InstanceId", {}],
    size: ["Size", {}],
    port: ["Port", {}],
    logs: ["Logs", { list: {} }],
    version: ["Version", {}],
    flag: ["Flag", {}],
    domain: ["Domain", {}],
    max: ["Max", {}],
    managed: ["Managed", {}],
    tags: ["Tags", tagsCodec],
  },
  awsNames: { password: "Password" },
  statusCodecs: {
    state: ["State", {}],
    backups: ["Backups", { list: { object: { at: ["At", { timestamp: true }] } } }],
  },
  fieldGroups: {
    create: "CreateInstance",
    createFields: ["name", "size", "port", "password", "tags"],
    groups: [
      {
        set: "ModifyInstance",
        read: "DescribeInstances",
        fields: [
          { field: "size", absent: "none", form: "value" },
          { field: "port", absent: "none", form: "value" },
          { field: "logs", absent: "none", form: "set" },
          { field: "version", absent: "none", form: "value" },
          { field: "flag", absent: "none", form: "value", default: false },
          { field: "domain", absent: "none", form: "value" },
          { field: "max", absent: "none", form: "value" },
          { field: "managed", absent: "kept", form: "value", default: false },
        ],
      },
      {
        set: "AddTags",
        read: "ListTags",
        remove: "RemoveTags",
        fields: [{ field: "tags", absent: "none", form: "tags" }],
      },
    ],
    notCompared: {},
  },
  declared: { identifier: "name", immutable: ["name"], lateInitialized: [] },
  references: [],
  runtime: {
    read: {
      call: "DescribeInstances",
      by: { member: "InstanceId", form: "scalar" },
      answers: "Instances",
      list: true,
      id: "InstanceId",
    },
    delete: { call: "DeleteInstance", by: { member: "InstanceId", form: "scalar" } },
    calls: {
      ModifyInstance: { member: "InstanceId", form: "scalar" },
      DescribeInstances: { member: "InstanceId", form: "scalar" },
    },
    caseInsensitive: true,
    lowercase: true,
    states: declaration.runtime.states,
  },
};

const arn = "arn:aws:db:us-east-1:111111111111:db:shop";
const owner = { "services.k8s.aws/owner-uid": "u-1" };
const ref = { name: "db", key: "password" };
const secrets = (value: string | undefined, changed: string[] = []): SecretValues => ({
  values: new Map(value === undefined ? [] : [["spec.password", value]]),
  changed,
});

/** The instance AWS has (lower-cased), answered to every read; other calls answer `{}` or `fail`. */
function instances(instance: Fields, fail: Readonly<Record<string, Error>> = {}) {
  return fakeSdk((call): Fields => {
    const failure = fail[call.operation];
    if (failure !== undefined) throw failure;
    if (call.operation === "DescribeInstances")
      return { Instances: [{ InstanceId: "shop", Arn: arn, State: "available", ...instance }] };
    return {};
  });
}

const serve = (sdk: Readonly<Record<string, unknown>>, hooks: DeclaredKindSource<never>["hooks"] = {}) =>
  declaredKindModule({
    kind,
    declaration,
    generated,
    sdk,
    clientFactory: undefined as never,
    hooks,
  } as DeclaredKindSource<never>);

async function observe(instance: Fields, spec: Fields = { name: "Shop" }) {
  const aws = instances(instance);
  const seen = await serve(aws.sdk).read(aws.client, spec, {});
  assert.ok(seen.found);
  return { observed: seen.observed, sent: aws.sent };
}

const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => assert.fail("no error"),
    (e: unknown) => e as Error & { code?: string; field?: string; terminal?: boolean; cause?: unknown },
  );

describe("identifiers AWS stores in lower case (identifierCase lower)", () => {
  test("every call and the ARN name it in lower case; the spec keeps its spelling", async () => {
    const { observed, sent } = await observe({ InstanceId: "shop" });
    assert.deepEqual(sent[0]?.input, { InstanceId: "shop" });
    assert.equal(observed.fields["name"], "Shop");
    const module = serve({});
    assert.equal(module.identifier({ name: "Shop" }), "shop");
    assert.equal(module.arn({ name: "Shop" }, "us-east-1", "1"), "arn:aws:db:us-east-1:1:db:shop");
    const aws = instances({});
    assert.equal(await serve(aws.sdk).delete(aws.client, { name: "Shop" }, {}, {}), "deleted");
    assert.deepEqual(aws.sent.at(-1), { operation: "DeleteInstance", input: { InstanceId: "shop" } });
  });
});

describe("what the read answer holds", () => {
  test("tags from the answer, no call of their own; fields under other members; pending values", async () => {
    const { observed, sent } = await observe({
      TagList: [{ Key: "team", Value: "a" }],
      Endpoint: { Port: 5432 },
      Secret: { Arn: "x" },
      Size: "small",
      Pending: { Size: "large", FlagOn: true },
      Backups: [{ At: new Date("2026-01-02T03:04:05.678Z") }],
    });
    assert.deepEqual(
      sent.map((c) => c.operation),
      ["DescribeInstances"],
    );
    assert.deepEqual(observed.tags, { team: "a" });
    assert.equal(observed.fields["port"], 5432);
    assert.equal(observed.fields["managed"], true);
    assert.equal(observed.fields["size"], "large", "a change asked for is not drift");
    assert.equal(observed.fields["flag"], true, "pending under its own name");
    assert.deepEqual(
      observed.status["backups"],
      [{ at: "2026-01-02T03:04:05Z" }],
      "whole seconds, nested too",
    );
  });
});

describe("one set call with only the changed fields (send: changed)", () => {
  const base = { InstanceId: "shop", Size: "small", Logs: ["a", "b"], Version: "1", Flag: true, Domain: "d" };
  const update = async (desired: Fields, sent: SecretValues = noSecrets, hooks = {}) => {
    const { observed } = await observe({ ...base, Endpoint: { Port: 1 }, Max: 9 });
    const aws = instances({});
    const paths = await serve(aws.sdk, hooks).update(aws.client, desired, observed, owner, {}, sent);
    return { paths, calls: aws.sent };
  };
  const same = {
    name: "Shop",
    size: "small",
    port: 1,
    logs: ["a", "b"],
    version: "1",
    flag: true,
    domain: "d",
    max: 9,
  };

  test("each field as declared: its set member, a set as a change, what goes beside it, the call's constants", async () => {
    const { paths, calls } = await update({ ...same, port: 2, logs: ["b", "c"], version: "2" });
    assert.deepEqual(paths, ["spec.port", "spec.logs", "spec.version"]);
    assert.deepEqual(calls, [
      {
        operation: "ModifyInstance",
        input: {
          ApplyNow: true,
          PortNumber: 2,
          LogConfig: { Enable: ["c"], Disable: ["a"] },
          Version: "2",
          AllowMajor: true,
          InstanceId: "shop",
        },
      },
    ]);
  });

  test("a field left out: its declared removal, its default, the kind's hook, else nothing", async () => {
    const { flag: _f, domain: _d, max: _m, ...rest } = same;
    const { calls } = await update(rest, noSecrets, {
      removed: { max: (_desired: Fields, observed: Fields) => ({ Max: observed["max"] === 9 ? 0 : -1 }) },
    });
    assert.deepEqual(calls[0]?.input, {
      ApplyNow: true,
      Flag: false,
      LeaveDomain: true,
      Max: 0,
      InstanceId: "shop",
    });
    const without = await update(rest);
    assert.deepEqual(without.calls[0]?.input, {
      ApplyNow: true,
      Flag: false,
      LeaveDomain: true,
      InstanceId: "shop",
    });
  });

  test("nothing differs: nothing is sent", async () => {
    assert.deepEqual((await update(same)).calls, []);
  });

  test("tags go first where the declaration orders them so", async () => {
    const { calls } = await update({ ...same, size: "large", tags: [{ key: "team", value: "b" }] });
    assert.deepEqual(
      calls.map((c) => c.operation),
      ["AddTags", "ModifyInstance"],
    );
  });

  test("a refusal names the field AWS's words name among those sent, else lists them", async () => {
    const { observed } = await observe({ ...base, Endpoint: { Port: 1 }, Max: 9 });
    const refusing = (message: string) =>
      instances({}, { ModifyInstance: awsError("InvalidParameterValue", message) });
    const one = refusing("the port is wrong");
    const named = await errorOf(
      serve(one.sdk).update(one.client, { ...same, port: 2, size: "large" }, observed, owner, {}, noSecrets),
    );
    assert.equal(named.field, "spec.port");
    const two = refusing("no");
    const listed = await errorOf(
      serve(two.sdk).update(two.client, { ...same, port: 2, size: "large" }, observed, owner, {}, noSecrets),
    );
    assert.equal(listed.field, undefined);
    assert.match(listed.message, /\(applying spec\.size, spec\.port\)/);
  });
});

describe("a secret (runtime.secrets)", () => {
  test("sent at creation from its Secret, never from the spec; missing, nothing is sent and the resource waits", async () => {
    const aws = instances({});
    await serve(aws.sdk).create(
      aws.client,
      { name: "Shop", password: ref },
      "us-east-1",
      owner,
      {},
      secrets("pw-1"),
    );
    assert.equal(aws.sent[0]?.input["Password"], "pw-1");
    assert.equal(aws.sent[0]?.input["InstanceId"], "shop");
    const none = instances({});
    const err = await errorOf(
      serve(none.sdk).create(
        none.client,
        { name: "Shop", password: ref },
        "us-east-1",
        owner,
        {},
        secrets(undefined),
      ),
    );
    assert.equal(err.code, "SecretUnavailable");
    assert.equal(err.field, "spec.password");
    assert.equal(err.terminal, false);
    assert.match(err.message, /needs the password/);
    assert.deepEqual(none.sent, []);
  });

  test("sent again when its Secret changed, or when the declared change needs it; not otherwise", async () => {
    const { observed } = await observe({ Secret: { Arn: "x" } });
    const send = async (desired: Fields, values: SecretValues) => {
      const aws = instances({});
      const paths = await serve(aws.sdk).update(aws.client, desired, observed, owner, {}, values);
      return { paths, input: aws.sent[0]?.input };
    };
    const changed = await send({ name: "Shop", password: ref }, secrets("pw-2", ["spec.password"]));
    assert.deepEqual(changed, {
      paths: ["spec.password"],
      input: { ApplyNow: true, Password: "pw-2", InstanceId: "shop" },
    });
    const unmanaged = await send({ name: "Shop", password: ref, managed: false }, secrets("pw-3"));
    assert.deepEqual(unmanaged.paths, ["spec.managed", "spec.password"]);
    assert.equal(unmanaged.input?.["Password"], "pw-3");
    assert.deepEqual((await send({ name: "Shop", password: ref }, secrets("pw-4"))).input, undefined);
  });

  test("an error of a call that carried it holds none of AWS's answer", async () => {
    const aws = instances({}, { CreateInstance: awsError("InvalidParameterValue", "password pw-5 is weak") });
    const err = await errorOf(
      serve(aws.sdk).create(
        aws.client,
        { name: "Shop", password: ref },
        "us-east-1",
        owner,
        {},
        secrets("pw-5"),
      ),
    );
    assert.ok(!err.message.includes("pw-5"));
    assert.match(err.message, /withheld because the call carried a secret \(spec\.password\)/);
    assert.equal(err.cause, undefined);
  });

  test("adoption keeps the spec's reference: AWS never reveals the value", async () => {
    const { observed } = await observe({});
    assert.deepEqual(serve({}).specFromObserved(observed, { name: "Shop", password: ref })["password"], ref);
  });
});

describe("states", () => {
  const busy = async (state: string) => serve({}).busy?.((await observe({ State: state })).observed);

  test("a writable state that is not waited for; advice for a stuck one", async () => {
    assert.equal(await busy("storage-full"), undefined);
    assert.equal(
      (await busy("modifying"))?.message,
      "instance shop is modifying in AWS; waiting until it is available",
    );
    assert.match(
      (await busy("stopped"))?.message ?? "",
      /does not leave on its own \(start it in AWS\); crossrole/,
    );
  });

  test("a delete refused for the object's state reads it again: already going is deleted, gone is not-found, else the error", async () => {
    const refusing = (now: Fields | undefined) =>
      fakeSdk((call): Fields => {
        if (call.operation === "DeleteInstance") throw awsError("InvalidInstanceStateFault", "busy");
        if (call.operation === "DescribeInstances") {
          if (now === undefined) throw awsError("InstanceNotFoundFault");
          return { Instances: [{ InstanceId: "shop", Arn: arn, ...now }] };
        }
        return {};
      });
    for (const [now, expected] of [
      [{ State: "deleting" }, "deleted"],
      [undefined, "not-found"],
    ] as const) {
      const aws = refusing(now);
      assert.equal(await serve(aws.sdk).delete(aws.client, { name: "Shop" }, {}, {}), expected);
    }
    const aws = refusing({ State: "backing-up" });
    const err = await errorOf(serve(aws.sdk).delete(aws.client, { name: "Shop" }, {}, {}));
    assert.equal(err.code, "InvalidInstanceState");
  });
});

describe("a delete input the kind refuses", () => {
  test("is a terminal error naming why, and nothing is sent", async () => {
    const aws = instances({});
    const err = await errorOf(
      serve(aws.sdk, { deleteInput: () => ({ refused: 'annotation x must be "true" or "false"' }) }).delete(
        aws.client,
        { name: "Shop" },
        {},
        { x: "maybe" },
      ),
    );
    assert.equal(err.code, "InvalidAnnotation");
    assert.equal(err.terminal, true);
    assert.equal(
      err.message,
      'DeleteInstance on instance "shop" not attempted: annotation x must be "true" or "false"; fix the annotation and the deletion proceeds',
    );
    assert.deepEqual(aws.sent, []);
  });
});
