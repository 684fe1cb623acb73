import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { readPolicies } from "./policies.ts";

const resourceKey = "services.k8s.aws/deletion-policy";
const s3NamespaceKey = "s3.services.k8s.aws/deletion-policy";

function ok(...args: Parameters<typeof readPolicies>) {
  const r = readPolicies(...args);
  assert.ok(r.ok, r.ok ? "" : r.error);
  return r.value;
}

function error(...args: Parameters<typeof readPolicies>): string {
  const r = readPolicies(...args);
  assert.ok(!r.ok, `expected an error, got ${JSON.stringify(r)}`);
  return r.error;
}

describe("deletion policy: resource annotation > namespace <service>.services.k8s.aws/deletion-policy > flag", () => {
  test("no annotations: the --deletion-policy flag, and it says so", () => {
    assert.deepEqual(ok(undefined, undefined, "s3", "delete"), {
      deletionPolicy: "delete",
      deletionPolicySource: "--deletion-policy",
      adoptionPolicy: null,
      adoptionFields: null,
      readOnly: false,
    });
    assert.equal(ok({}, {}, "s3", "retain").deletionPolicy, "retain");
  });

  test("the namespace's annotation for this service overrides the flag", () => {
    const p = ok({}, { [s3NamespaceKey]: "retain" }, "s3", "delete");
    assert.equal(p.deletionPolicy, "retain");
    assert.equal(p.deletionPolicySource, `namespace annotation ${s3NamespaceKey}`);
    assert.equal(ok({}, { [s3NamespaceKey]: "delete" }, "s3", "retain").deletionPolicy, "delete");
  });

  test("the resource's annotation overrides the namespace and the flag", () => {
    const p = ok({ [resourceKey]: "delete" }, { [s3NamespaceKey]: "retain" }, "s3", "retain");
    assert.equal(p.deletionPolicy, "delete");
    assert.equal(p.deletionPolicySource, `annotation ${resourceKey}`);
    assert.equal(ok({ [resourceKey]: "retain" }, {}, "s3", "delete").deletionPolicy, "retain");
  });

  test("another service's namespace annotation does not apply", () => {
    const p = ok({}, { "sqs.services.k8s.aws/deletion-policy": "retain" }, "s3", "delete");
    assert.equal(p.deletionPolicy, "delete");
    assert.equal(p.deletionPolicySource, "--deletion-policy");
    assert.equal(
      ok({}, { "sqs.services.k8s.aws/deletion-policy": "retain" }, "sqs", "delete").deletionPolicy,
      "retain",
    );
  });

  test("the resource-level key on a namespace is not the namespace default", () => {
    const p = ok({}, { [resourceKey]: "retain" }, "s3", "delete");
    assert.equal(p.deletionPolicy, "delete");
  });

  test("surrounding whitespace is tolerated", () => {
    assert.equal(ok({ [resourceKey]: " retain " }, {}, "s3", "delete").deletionPolicy, "retain");
  });
});

describe("invalid values are errors naming the annotation and the fix, never a silent default", () => {
  test("a typo in the resource's deletion policy", () => {
    const e = error({ [resourceKey]: "retian" }, {}, "s3", "delete");
    assert.match(e, /annotation services\.k8s\.aws\/deletion-policy/);
    assert.match(e, /"retian"/);
    assert.match(e, /write "delete" or "retain"/);
  });

  test("values are case-sensitive, as in ACK", () => {
    assert.match(error({ [resourceKey]: "Retain" }, {}, "s3", "delete"), /deletion-policy/);
  });

  test("a typo in the namespace's deletion policy names the namespace annotation", () => {
    const e = error({}, { [s3NamespaceKey]: "keep" }, "s3", "delete");
    assert.match(e, /annotation s3\.services\.k8s\.aws\/deletion-policy/);
    assert.match(e, /write "delete" or "retain"/);
  });

  test("an invalid adoption policy", () => {
    const e = error({ "services.k8s.aws/adoption-policy": "adopt-please" }, {}, "s3", "delete");
    assert.match(e, /annotation services\.k8s\.aws\/adoption-policy/);
    assert.match(e, /"adopt-please"/);
    assert.match(e, /write "adopt" or "adopt-or-create"/);
  });

  test("an invalid read-only value", () => {
    const e = error({ "services.k8s.aws/read-only": "yes" }, {}, "s3", "delete");
    assert.match(e, /annotation services\.k8s\.aws\/read-only/);
    assert.match(e, /write "true" or "false"/);
  });
});

describe("adoption policy and read-only", () => {
  test("adopt and adopt-or-create", () => {
    for (const policy of ["adopt", "adopt-or-create"] as const) {
      assert.equal(
        ok({ "services.k8s.aws/adoption-policy": policy }, {}, "s3", "delete").adoptionPolicy,
        policy,
      );
    }
  });

  test("read-only true and false", () => {
    assert.equal(ok({ "services.k8s.aws/read-only": "true" }, {}, "s3", "delete").readOnly, true);
    assert.equal(ok({ "services.k8s.aws/read-only": "false" }, {}, "s3", "delete").readOnly, false);
  });

  test("only the resource's annotations count: the namespace cannot make resources adopt or read-only", () => {
    const p = ok(
      {},
      { "services.k8s.aws/adoption-policy": "adopt", "services.k8s.aws/read-only": "true" },
      "s3",
      "delete",
    );
    assert.equal(p.adoptionPolicy, null);
    assert.equal(p.readOnly, false);
  });

  test("all of them at once", () => {
    assert.deepEqual(
      ok(
        {
          [resourceKey]: "retain",
          "services.k8s.aws/adoption-policy": "adopt-or-create",
          "services.k8s.aws/read-only": "true",
        },
        { [s3NamespaceKey]: "delete" },
        "s3",
        "delete",
      ),
      {
        deletionPolicy: "retain",
        deletionPolicySource: `annotation ${resourceKey}`,
        adoptionPolicy: "adopt-or-create",
        adoptionFields: null,
        readOnly: true,
      },
    );
  });
});

describe("adoption fields", () => {
  test("parsed with the policies; an invalid value names the annotation and the fix", () => {
    const ok = readPolicies(
      { "services.k8s.aws/adoption-policy": "adopt", "services.k8s.aws/adoption-fields": '{"name": "b"}' },
      undefined,
      "s3",
      "delete",
    );
    assert.deepEqual(ok.ok && ok.value.adoptionFields, { name: "b" });
    const bad = readPolicies({ "services.k8s.aws/adoption-fields": "name=b" }, undefined, "s3", "delete");
    assert.match(
      bad.ok ? "" : bad.error,
      /annotation services\.k8s\.aws\/adoption-fields: "name=b" is not JSON/,
    );
  });
});
