import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  configMap,
  controllerIdentity,
  controllerRef,
  namespace,
  role,
  roleIdentity,
  selector,
  serviceAccountIdentity,
  settingsWith,
} from "../../test/support/resolver-fixtures.ts";
import { buildSnapshot } from "./snapshot.ts";
import type { ConfigObjects, SnapshotProblem } from "./types.ts";

const settings = settingsWith();

function problemsOf(objects: ConfigObjects): readonly SnapshotProblem[] {
  return buildSnapshot(objects, settings).problems;
}

function only(objects: ConfigObjects): SnapshotProblem {
  const problems = problemsOf(objects);
  assert.equal(problems.length, 1, JSON.stringify(problems, null, 1));
  return problems[0]!;
}

describe("buildSnapshot: every bad object becomes a named problem", () => {
  test("a valid configuration has none", () => {
    assert.deepEqual(
      problemsOf({
        namespaces: [namespace("a", { "services.k8s.aws/owner-account-id": "111111111111" })],
        configMaps: [configMap("ack-role-account-map", { "111111111111": role("111111111111") })],
        iamRoleSelectors: [selector("s", { arn: role("111111111111") })],
        identities: [controllerIdentity({}), roleIdentity("r", role("111111111111"), controllerRef, {})],
      }),
      [],
    );
  });

  test("a selector with a malformed ARN names spec.arn", () => {
    const p = only({ iamRoleSelectors: [selector("s", { arn: "arn:aws:iam::12:role/x" })] });
    assert.deepEqual(
      [p.object, p.field, p.severity],
      [{ kind: "IAMRoleSelector", name: "s" }, "spec.arn", "error"],
    );
    assert.match(p.message, /IAM role ARN/);
    assert.match(p.fix, /selector is ignored/);
  });

  test("a selector listing a namespace name twice is invalid (ACK rejects it)", () => {
    const p = only({
      iamRoleSelectors: [
        selector("s", { arn: role("111111111111"), namespaceSelector: { names: ["a", "a"] } }),
      ],
    });
    assert.match(p.field, /spec.namespaceSelector.names/);
    assert.match(p.message, /must not repeat a namespace/);
  });

  test("two selectors with the same name and different specs are both excluded", () => {
    const snapshot = buildSnapshot(
      {
        iamRoleSelectors: [
          selector("s", { arn: role("111111111111") }),
          selector("s", { arn: role("222222222222") }),
        ],
      },
      settings,
    );
    assert.equal(snapshot.selectors.all.length, 0);
    assert.match(
      snapshot.problems[0]!.message,
      /IAMRoleSelector s is listed more than once with different content/,
    );
    assert.equal(snapshot.selectors.invalid.get("s"), "it is listed more than once with different content");
  });

  test("identical copies of an object collapse silently", () => {
    const s = selector("s", { arn: role("111111111111") });
    const snapshot = buildSnapshot({ iamRoleSelectors: [s, structuredClone(s)] }, settings);
    assert.equal(snapshot.selectors.all.length, 1);
    assert.deepEqual(snapshot.problems, []);
  });

  test("an identity cycle names every member and the cycle", () => {
    const problems = problemsOf({
      identities: [
        roleIdentity("b", role("111111111111"), { kind: "AWSRoleIdentity", name: "c" }, {}),
        roleIdentity("a", role("111111111111"), { kind: "AWSRoleIdentity", name: "b" }, {}),
        roleIdentity("c", role("111111111111"), { kind: "AWSRoleIdentity", name: "a" }, {}),
      ],
    });
    assert.deepEqual(
      problems.map((p) => [p.object.name, p.field]),
      [
        ["a", "spec.sourceIdentityRef"],
        ["b", "spec.sourceIdentityRef"],
        ["c", "spec.sourceIdentityRef"],
      ],
    );
    for (const p of problems) {
      assert.match(
        p.message,
        /cycle: AWSRoleIdentity a → AWSRoleIdentity b → AWSRoleIdentity c → AWSRoleIdentity a/,
      );
    }
  });

  test("a self-reference is rejected by the schema rule", () => {
    const p = only({
      identities: [roleIdentity("a", role("111111111111"), { kind: "AWSRoleIdentity", name: "a" }, {})],
    });
    assert.match(p.message, /must not name this AWSRoleIdentity itself/);
  });

  test("a dangling sourceIdentityRef is named", () => {
    const p = only({
      identities: [roleIdentity("a", role("111111111111"), { kind: "AWSRoleIdentity", name: "ghost" }, {})],
    });
    assert.equal(p.field, "spec.sourceIdentityRef");
    assert.match(p.message, /names AWSRoleIdentity ghost, which does not exist/);
  });

  test("a source that exists but is invalid is named as such", () => {
    const problems = problemsOf({
      identities: [
        roleIdentity("a", role("111111111111"), { kind: "AWSRoleIdentity", name: "bad" }, {}),
        roleIdentity("bad", "nope", controllerRef, {}),
      ],
    });
    assert.ok(problems.some((p) => p.object.name === "a" && /which exists but is invalid/.test(p.message)));
  });

  test("the controller identity may be referenced without existing (ACK default)", () => {
    assert.deepEqual(
      problemsOf({ identities: [roleIdentity("a", role("111111111111"), controllerRef, {})] }),
      [],
    );
  });

  test("an AWSControllerIdentity not named default is invalid", () => {
    const p = only({ identities: [{ ...controllerIdentity({}), metadata: { name: "mine" } }] });
    assert.match(p.message, /must be 'default'/);
  });

  test("an AWSServiceAccountIdentity without a namespace is invalid", () => {
    const sa = serviceAccountIdentity("x", "sa", role("111111111111"));
    const p = only({ identities: [{ ...sa, metadata: { name: "sa" } }] });
    assert.equal(p.field, "metadata.namespace");
  });

  test("an unknown identity kind is named", () => {
    const p = only({ identities: [{ kind: "AWSMagicIdentity", metadata: { name: "x" } }] });
    assert.equal(p.field, "kind");
  });

  test("an invalid allowedNamespaces is named", () => {
    const p = only({
      identities: [roleIdentity("a", role("111111111111"), controllerRef, { list: ["Not_A_Namespace"] })],
    });
    assert.match(p.field, /spec.allowedNamespaces.list/);
  });

  test("garbage ConfigMap keys are named by key", () => {
    const p = only({
      configMaps: [configMap("ack-carm-map", { "owner-account-id/abc": role("111111111111") })],
    });
    assert.deepEqual(
      [p.object.kind, p.object.namespace, p.field],
      ["ConfigMap", "ack-system", "data[owner-account-id/abc]"],
    );
  });

  test("a problem quotes the value at fault: the CARM value, the schema field, the annotation", () => {
    const carm = problemsOf({
      configMaps: [
        configMap("ack-role-account-map", { "12345": role("111111111111"), "222222222222": "nope" }),
      ],
    });
    assert.deepEqual(
      carm.map((p) => [p.field, p.value]),
      [
        ["data[12345]", role("111111111111")],
        ["data[222222222222]", "nope"],
      ],
    );
    const sel = only({ iamRoleSelectors: [selector("s", { arn: "arn:aws:iam::12:role/x" })] });
    assert.equal(sel.value, "arn:aws:iam::12:role/x");
    const ns = only({ namespaces: [namespace("a", { "services.k8s.aws/owner-account-id": "abc" })] });
    assert.equal(ns.value, "abc");
    const dangling = only({
      identities: [roleIdentity("r", role("111111111111"), { kind: "AWSRoleIdentity", name: "gone" }, {})],
    });
    assert.equal(dangling.value, "AWSRoleIdentity/gone");
  });

  test("a quoted value is bounded, and objects are quoted as JSON", () => {
    const long = `arn:aws:iam::111111111111:role/${"x".repeat(400)}`;
    const p = only({ configMaps: [configMap("ack-role-account-map", { "111111111111": long })] });
    assert.equal(p.value?.length, 256);
    assert.ok(p.value?.endsWith("…"));
    const wrongType = only({
      iamRoleSelectors: [
        selector("s", { arn: role("111111111111"), namespaceSelector: { names: { b: 1, a: [] } } }),
      ],
    });
    assert.equal(wrongType.field, "spec.namespaceSelector.names");
    assert.equal(wrongType.value, '{"a":[],"b":1}');
  });

  test("a CARM map outside the system namespace is ignored with a warning", () => {
    const snapshot = buildSnapshot(
      { configMaps: [configMap("ack-role-account-map", { "111111111111": role("111111111111") }, "shop")] },
      settings,
    );
    assert.equal(snapshot.carm.accountMap.present, false);
    assert.equal(snapshot.problems[0]!.severity, "warning");
    assert.match(snapshot.problems[0]!.message, /read only from the system namespace ack-system/);
  });

  test("other ConfigMaps are not CARM's business", () => {
    assert.deepEqual(problemsOf({ configMaps: [configMap("kube-root-ca.crt", { "ca.crt": "x" })] }), []);
  });

  test("malformed namespace annotations are named, and the namespace is kept", () => {
    const snapshot = buildSnapshot(
      {
        namespaces: [
          namespace("a", {
            "services.k8s.aws/owner-account-id": "abc",
            "services.k8s.aws/allowed-owner-account-ids": "111111111111,xyz",
            "services.k8s.aws/team-id": "has space",
            "services.k8s.aws/default-region": "moon",
            "services.k8s.aws/endpoint-url": "nope",
          }),
        ],
      },
      settings,
    );
    assert.equal(snapshot.namespaces.has("a"), true);
    assert.deepEqual(
      snapshot.problems.map((p) => p.field),
      [
        "metadata.annotations[services.k8s.aws/allowed-owner-account-ids]",
        "metadata.annotations[services.k8s.aws/default-region]",
        "metadata.annotations[services.k8s.aws/endpoint-url]",
        "metadata.annotations[services.k8s.aws/owner-account-id]",
        "metadata.annotations[services.k8s.aws/team-id]",
      ],
    );
  });

  test("unreadable objects are problems, not exceptions", () => {
    const weird: unknown[] = [null, 5, "x", [], { metadata: null }, { metadata: { name: 7 } }];
    const snapshot = buildSnapshot(
      { namespaces: weird, configMaps: weird, iamRoleSelectors: weird, identities: weird },
      settings,
    );
    assert.ok(snapshot.problems.length > 0);
    assert.equal(snapshot.namespaces.size, 0);
  });

  test("a self-referencing object does not break the duplicate check", () => {
    const loop: Record<string, unknown> = { metadata: { name: "a" } };
    loop["self"] = loop;
    assert.doesNotThrow(() => buildSnapshot({ namespaces: [loop, { metadata: { name: "a" } }] }, settings));
  });
});

describe("buildSnapshot: order independence and indexing", () => {
  const objects: ConfigObjects = {
    namespaces: [namespace("b"), namespace("a", {}, { team: "x" })],
    iamRoleSelectors: [
      selector("z", { arn: role("111111111111"), namespaceSelector: { names: ["b", "a"] } }),
      selector("y", {
        arn: role("111111111111"),
        namespaceSelector: { labelSelector: { matchLabels: { team: "x" } } },
      }),
      selector("x", {
        arn: role("111111111111"),
        resourceTypeSelector: [{ apiVersion: "s3.services.k8s.aws/v1alpha1", kind: "Bucket" }],
      }),
      selector("bad", { arn: "bad" }),
    ],
    identities: [
      roleIdentity("b", role("111111111111"), { kind: "AWSRoleIdentity", name: "a" }, {}),
      roleIdentity("a", role("111111111111"), { kind: "AWSRoleIdentity", name: "b" }, {}),
    ],
  };

  test("reversing every list gives a deep-equal snapshot", () => {
    const reversed: ConfigObjects = {
      namespaces: [...(objects.namespaces ?? [])].reverse(),
      iamRoleSelectors: [...(objects.iamRoleSelectors ?? [])].reverse(),
      identities: [...(objects.identities ?? [])].reverse(),
    };
    const a = buildSnapshot(objects, settings);
    const b = buildSnapshot(reversed, settings);
    assert.deepEqual(a.problems, b.problems);
    assert.deepEqual(
      a.selectors.all.map((s) => s.name),
      b.selectors.all.map((s) => s.name),
    );
    assert.deepEqual([...a.identities.invalid.entries()].sort(), [...b.identities.invalid.entries()].sort());
  });

  test("selectors are filed by namespace name, by one label equality, and by resource type", () => {
    const index = buildSnapshot(objects, settings).selectors;
    assert.deepEqual(
      index.all.map((s) => s.name),
      ["x", "y", "z"],
    );
    assert.deepEqual(
      index.byNamespaceName.get("a")?.any.map((s) => s.name),
      ["z"],
    );
    assert.deepEqual(
      index.byNamespaceLabels.map((set) => set.keys),
      [["team"]],
    );
    assert.deepEqual(
      index.byNamespaceLabels[0]?.buckets.get("x")?.any.map((s) => s.name),
      ["y"],
    );
    assert.deepEqual(
      index.anyNamespace.byGroupKind.get("s3.services.k8s.aws/Bucket")?.map((s) => s.name),
      ["x"],
    );
    assert.equal(index.anyNamespace.any.length, 0);
  });
});
