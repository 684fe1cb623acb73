import assert from "node:assert/strict";
import { hash } from "node:crypto";
import { describe, test } from "node:test";
import { expandDefaultTags, parseDefaultTags, type TagVariables } from "./default-tags.ts";
import { withDefaultTags, withoutDefaultTags } from "./spec-default-tags.ts";

const vars: TagVariables = {
  service: "s3",
  controllerVersion: "1.2.3",
  namespace: "team-a",
  name: "assets",
  kind: "Bucket",
  labels: { "app.kubernetes.io/managed-by": "argocd" },
  account: "111111111111",
  region: "eu-west-1",
};

function parsed(items: string[]) {
  const r = parseDefaultTags(items);
  assert.ok(r.ok, JSON.stringify(r));
  return r.value;
}

describe("--resource-tags (ACK's default tags)", () => {
  test("every variable expands for the object and where it lands", () => {
    const { tags } = parsed([
      "svc=%CONTROLLER_SERVICE%-%CONTROLLER_VERSION%",
      "where=%K8S_NAMESPACE%/%K8S_RESOURCE_NAME%",
      "kind=%K8S_RESOURCE_KIND%",
      "by=%MANAGED_BY%",
      "landing=%MANAGED_ACCOUNT_ID%@%MANAGED_REGION%",
      "plain=cost-centre-7",
    ]);
    assert.deepEqual(expandDefaultTags(tags, vars), {
      svc: "s3-1.2.3",
      where: "team-a/assets",
      kind: "Bucket",
      by: "argocd",
      landing: "111111111111@eu-west-1",
      plain: "cost-centre-7",
    });
  });

  test("a tag whose value expands to nothing is skipped (ACK: no label, no kro-version tag)", () => {
    const { tags } = parsed(["kro.run/kro-version=%KRO_VERSION%", "by=%MANAGED_BY%"]);
    assert.deepEqual(expandDefaultTags(tags, { ...vars, labels: {} }), {});
    assert.deepEqual(expandDefaultTags(tags, { ...vars, labels: { "kro.run/kro-version": "0.3.0" } }), {
      "kro.run/kro-version": "0.3.0",
    });
  });

  test("empty keys or values are skipped, whitespace trimmed, a later key wins, as in ACK", () => {
    assert.deepEqual(parsed([" a = 1 ", "=x", "b=", "", "a=2"]).tags, [{ key: "a", value: "2" }]);
  });

  test("an item without exactly one = is refused, naming it", () => {
    for (const item of ["foobar", "foo=bar=baz"]) {
      const r = parseDefaultTags([item]);
      assert.equal(r.ok, false, item);
      assert.match(r.ok ? "" : r.message, new RegExp(`"${item}": expected exactly one =`));
    }
  });

  test("reserved keys (ownership tags, ACK's, aws:) can never be set by a default tag: reported, not used", () => {
    const r = parsed([
      "services.k8s.aws/controller-version=%CONTROLLER_SERVICE%-%CONTROLLER_VERSION%",
      "services.k8s.aws/namespace=%K8S_NAMESPACE%",
      "services.k8s.aws/owner=me",
      "AWS:cloudformation=x",
      "team=a",
    ]);
    assert.deepEqual(r.tags, [{ key: "team", value: "a" }]);
    assert.deepEqual(r.reserved, [
      "services.k8s.aws/controller-version",
      "services.k8s.aws/namespace",
      "services.k8s.aws/owner",
      "AWS:cloudformation",
    ]);
  });
});

describe("--resource-tags within AWS's tag limits (keys 128 characters, values 256)", () => {
  const longName = `${"n".repeat(126)}.${"m".repeat(126)}`; // 253: the longest object name

  test("a value that expands past 256 characters is cut to 256, ending in - and 8 hex of its SHA-256", () => {
    const { tags } = parsed([
      "twice=%K8S_RESOURCE_NAME%%K8S_RESOURCE_NAME%",
      "made-for=%K8S_NAMESPACE%/%K8S_RESOURCE_NAME%",
    ]);
    const out = expandDefaultTags(tags, { ...vars, name: longName });
    const full = `${longName}${longName}`;
    assert.equal(full.length, 506);
    assert.equal(out["twice"], `${full.slice(0, 247)}-${hash("sha256", full, "hex").slice(0, 8)}`);
    assert.equal(out["twice"]?.length, 256);
    // team-a/ + 253 = 260 characters: cut too.
    assert.equal(out["made-for"]?.length, 256);
    assert.ok(out["made-for"]?.startsWith(`team-a/${longName.slice(0, 240)}`));
  });

  test("a key longer than 128 characters is refused at start, naming it", () => {
    const key = `team.example.com/${"k".repeat(112)}`; // 129
    const r = parseDefaultTags([`${key}=x`]);
    assert.equal(r.ok, false);
    assert.equal(
      r.ok ? "" : r.message,
      `--resource-tags key "${key}" has 129 characters; AWS allows tag keys of at most 128: shorten it`,
    );
    assert.deepEqual(parsed([`${"k".repeat(128)}=x`]).tags, [{ key: "k".repeat(128), value: "x" }]);
  });
});

describe("default tags in a spec: the user's tags win; never written back", () => {
  const defaults = { team: "platform", env: "prod" };
  // The three shapes of a kind's generated specTags (src/codegen/spec-tags.ts).
  const list = { field: "tags", shape: "list" } as const;
  const map = { field: "tags", shape: "map" } as const;
  const tagSet = { field: "tagging", shape: "tagSet" } as const;

  test("list-shaped tags (Topic, Table, DBInstance, DBSubnetGroup): only keys the spec lacks are added", () => {
    const spec = { name: "t", tags: [{ key: "team", value: "mine" }] };
    const r = withDefaultTags(list, spec, defaults);
    assert.deepEqual(r.spec.tags, [
      { key: "team", value: "mine" },
      { key: "env", value: "prod" },
    ]);
    assert.deepEqual(r.added, ["env"]);
    assert.deepEqual(spec.tags, [{ key: "team", value: "mine" }], "the given spec is not changed");
  });

  test("a Queue's tag map and a Bucket's tagging.tagSet, also when the spec has no tags", () => {
    assert.deepEqual(withDefaultTags(map, { queueName: "q", tags: { env: "dev" } }, defaults).spec, {
      queueName: "q",
      tags: { env: "dev", team: "platform" },
    });
    assert.deepEqual(withDefaultTags(tagSet, { name: "b" }, defaults).spec, {
      name: "b",
      tagging: {
        tagSet: [
          { key: "team", value: "platform" },
          { key: "env", value: "prod" },
        ],
      },
    });
  });

  test("no default tags, or a kind without tags: the very same spec", () => {
    const spec = { name: "t" };
    assert.equal(withDefaultTags(list, spec, {}).spec, spec);
    assert.equal(withDefaultTags(undefined, spec, defaults).spec, spec);
    assert.equal(withoutDefaultTags(undefined, spec, Object.keys(defaults)), spec);
  });

  test("AWS's spec (a strict adoption) loses the default tags' keys, keeps the rest", () => {
    const adopted = {
      name: "t",
      tags: [
        { key: "env", value: "old" },
        { key: "owner", value: "bob" },
      ],
    };
    assert.deepEqual(withoutDefaultTags(list, adopted, Object.keys(defaults)), {
      name: "t",
      tags: [{ key: "owner", value: "bob" }],
    });
    assert.deepEqual(
      withoutDefaultTags(tagSet, { name: "b", tagging: { tagSet: [{ key: "team", value: "x" }] } }, ["team"]),
      { name: "b" },
    );
  });
});
