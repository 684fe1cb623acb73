// The generated CRDs (config/crd/*.yaml, exactly as checked in) on a real kube-apiserver:
// they are accepted and become Established; every valid example of src/api/examples.ts is
// admitted; every invalid one is rejected at its field with a message naming it — the same
// table the zod unit tests run, which is what shows the CEL and zod halves agree.
import assert from "node:assert/strict";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { buildCrd } from "../../src/api/crd.ts";
import { crdFileName } from "../../src/api/crd-yaml.ts";
import { withDefaultTags } from "../../src/controller/spec-default-tags.ts";
import { loadCrdSources } from "../../src/crd-sources.ts";
import { installCrds } from "../../src/local-stack/install-crds.ts";
import { type Stack, startStack } from "../../src/local-stack/stack.ts";
import { createKubeClient, type KubeClient } from "../../src/runtime/kube-client.ts";
import { servedKindCatalog } from "../../src/services/catalog.ts";
import { taggableKindNames } from "../../src/services/served.ts";
import { rejection, show } from "../support/admission.ts";
import { exampleNamespace, invalidExamples, validExamples } from "../support/examples/identities.ts";
import { minimalResource } from "../support/minimal-resources.ts";

type Obj = Record<string, unknown>;

const crdDir = join(import.meta.dirname, "..", "..", "config", "crd");

let stack: Stack;
let kube: KubeClient;
/** plural, group, version and scope of each installed kind, by `<apiVersion>/<kind>`. */
const installed = new Map<string, { group: string; version: string; plural: string; namespaced: boolean }>();

function target(object: Obj) {
  const kind = installed.get(`${String(object["apiVersion"])}/${String(object["kind"])}`);
  assert.ok(kind, `no CRD installed for ${String(object["apiVersion"])} ${String(object["kind"])}`);
  const metadata = object["metadata"] as { name: string; namespace?: string };
  const namespace = metadata.namespace ?? exampleNamespace;
  const collection = `/apis/${kind.group}/${kind.version}${kind.namespaced ? `/namespaces/${namespace}` : ""}/${kind.plural}`;
  return { collection, object: `${collection}/${metadata.name}` };
}

async function create(object: Obj): Promise<Obj> {
  return kube.request<Obj>({ method: "POST", path: target(object).collection, body: object });
}

async function remove(object: Obj): Promise<void> {
  await kube.request({ method: "DELETE", path: target(object).object });
}

async function replace(object: Obj): Promise<Obj> {
  return kube.request<Obj>({ method: "PUT", path: target(object).object, body: object });
}

before(async () => {
  stack = await startStack({ aws: false });
  kube = createKubeClient(stack.kubeConfig);
  await kube.request({
    method: "POST",
    path: "/api/v1/namespaces",
    body: { apiVersion: "v1", kind: "Namespace", metadata: { name: exampleNamespace } },
  });
  // The checked-in set must be exactly what the generator produces (content: npm run generate:check).
  const files = (await readdir(crdDir)).filter((f) => f.endsWith(".yaml")).sort();
  assert.deepEqual(files, (await loadCrdSources()).map((s) => crdFileName(buildCrd(s))).sort());
  for (const crd of await installCrds(kube, crdDir)) {
    const { group, names, scope, versions } = crd.spec;
    const version = versions[0]?.name ?? "";
    installed.set(`${group}/${version}/${names.kind}`, {
      group,
      version,
      plural: names.plural,
      namespaced: scope === "Namespaced",
    });
  }
});
after(() => stack?.stop());

/** What the apiserver stored for each valid example (after pruning and defaulting), by title. */
const stored = new Map<string, { spec?: Obj }>();

describe("the apiserver admits every valid example", () => {
  for (const example of validExamples) {
    test(example.title, async () => {
      const created = await create(example.object);
      stored.set(example.title, created as { spec?: Obj });
      // Deleted at once: some examples share a name (there is only one AWSControllerIdentity `default`).
      await remove(example.object);
    });
  }
});

describe("the apiserver stores what was written, with schema defaults", () => {
  const specOf = (title: string): Obj => {
    const spec = stored.get(title)?.spec;
    assert.ok(spec, `no stored spec for "${title}"`);
    return spec;
  };

  test("allowedNamespaces {} and null survive (absent, null and {} mean different things)", () => {
    assert.deepEqual(
      specOf("AWSControllerIdentity default allowing every namespace ({})")["allowedNamespaces"],
      {},
    );
    assert.equal(
      specOf("AWSStaticIdentity with allowedNamespaces null (no namespace)")["allowedNamespaces"],
      null,
    );
    assert.deepEqual(
      specOf("AWSRoleIdentity chained from another AWSRoleIdentity, list: null")["allowedNamespaces"],
      {
        list: null,
      },
    );
    assert.deepEqual(specOf("AWSRoleIdentity with every field")["allowedNamespaces"], {
      list: [],
      selector: { matchExpressions: [{ key: "team", operator: "Exists" }] },
    });
  });

  test("AWSServiceAccountIdentity audiences default to sts.amazonaws.com", () => {
    assert.deepEqual(specOf("AWSServiceAccountIdentity with defaults")["audiences"], ["sts.amazonaws.com"]);
  });

  test("a Bucket keeps its own spec fields next to identityRef", () => {
    const spec = specOf("Bucket with identityRef and its own spec fields");
    assert.equal(spec["name"], "alice-assets");
    assert.deepEqual(spec["identityRef"], { kind: "AWSRoleIdentity", name: "central-rds" });
  });
});

describe("the apiserver rejects each invalid example at its field, with a message naming it", () => {
  for (const example of invalidExamples) {
    test(example.title, async () => {
      const causes = await rejection(() => create(example.object));
      const field = example.apiserverField ?? example.field;
      const expected = example.apiserverMessage ?? example.message;
      assert.ok(
        causes.some((c) => c.field === field && (c.message ?? "").includes(expected)),
        `expected "${field}: …${expected}…" among:\n${show(causes)}`,
      );
    });
  }
});

describe("IAMRoleSelector arn is immutable", () => {
  test("changing arn is rejected; changing other fields is not", async () => {
    const original = {
      apiVersion: "services.k8s.aws/v1alpha1",
      kind: "IAMRoleSelector",
      metadata: { name: "immutable-arn" },
      spec: { arn: "arn:aws:iam::111111111111:role/First" },
    };
    const stored = (await create(original)) as { metadata: Obj; spec: Obj };
    const causes = await rejection(() =>
      replace({
        ...original,
        metadata: stored.metadata,
        spec: { arn: "arn:aws:iam::222222222222:role/Second" },
      }),
    );
    assert.ok(
      causes.some((c) => c.field === "spec.arn" && (c.message ?? "").includes("arn is immutable")),
      show(causes),
    );
    const updated = (await replace({
      ...original,
      metadata: stored.metadata,
      spec: { ...stored.spec, sessionName: "still-first" },
    })) as { spec: Obj };
    assert.equal(updated.spec["sessionName"], "still-first");
  });
});

// Every served kind's tags refuse the reserved keys (src/api/reserved-tag-keys.ts) at admission,
// naming the key, with exactly the words the controller's own check (zod) uses; and both halves
// agree on the keys where CEL's trim() and lowerAscii() differ from JavaScript's trim() and
// toLowerCase(). The kinds come from the catalog (those with tags): a new kind is tried without
// being named here.
describe("every served kind refuses reserved tag keys, naming the key, as its zod schema does", () => {
  const reserved = [
    "services.k8s.aws/namespace ",
    "services.k8s.aws/namespace",
    "services.k8s.aws/controller-version",
    "crossrole.dev/owner",
    "AWS:x",
    " Crossrole.dev/owner-uid",
    "\u00a0aws:x",
    "\u3000aws:x",
  ];
  // Not reserved: a BOM is no White_Space (CEL's trim() keeps it), the Kelvin sign is no ASCII K.
  const admitted = ["team", "kro.run/version", "services.\u212a8s.aws/namespace"];
  let n = 0;
  // AWS cannot tag an Alias: it has no tags field (src/services/reserved-tag-keys-kinds.test.ts).
  for (const kind of taggableKindNames) {
    const objectWith = async (key: string): Promise<Obj> => {
      const { specTags } = await servedKindCatalog[kind].module();
      n += 1;
      const base = minimalResource(
        kind,
        exampleNamespace,
        `reserved-tags-${n}`,
        `reserved-tags-${n}`,
        {},
        "111111111111",
      );
      return { ...base, spec: withDefaultTags(specTags, base.spec as Obj, { [key]: "v" }).spec };
    };
    test(`${kind}: ${reserved.map((k) => JSON.stringify(k)).join(", ")} refused, naming the key`, async () => {
      const module = await servedKindCatalog[kind].module();
      for (const key of reserved) {
        const object = await objectWith(key);
        const causes = await rejection(() => create(object));
        const zod = module.parseSpec(object["spec"]);
        assert.equal(zod.ok, false, `zod admits ${JSON.stringify(key)}`);
        const expected = (zod.ok ? [] : (zod.issues ?? [])).filter((i) =>
          i.includes(`${JSON.stringify(key)} is reserved`),
        );
        assert.equal(
          expected.length,
          1,
          `zod's issues for ${JSON.stringify(key)}: ${zod.ok ? "" : zod.message}`,
        );
        const [field, message] = (expected[0] ?? "").split(/: (.*)/s);
        assert.ok(
          causes.some((c) => c.field === field && (c.message ?? "").endsWith(`: ${message}`)),
          `expected "${field}: …${message}" among:\n${show(causes)}`,
        );
      }
    });
    test(`${kind}: ${admitted.map((k) => JSON.stringify(k)).join(", ")} admitted`, async () => {
      const module = await servedKindCatalog[kind].module();
      for (const key of admitted) {
        const object = await objectWith(key);
        assert.deepEqual(module.parseSpec(object["spec"]).ok, true, JSON.stringify(key));
        await create(object);
        await remove(object);
      }
    });
  }
});
