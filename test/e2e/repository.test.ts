// Repository — the seventh kind, ECR's, a declaration served by the generic runtime — end to end
// with the real controller process: a repository in a namespace mapped to 111111111111 lands in
// that account (checked with that account's own credentials), tagged as the object's, with its
// lifecycle policy, Synced with ACK's status and ECR's registry copied into the spec; a change of
// mutability is applied; a registryID naming another account is ACK.Terminal and nothing is made
// anywhere; deleting the object deletes the repository.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  DescribeRepositoriesCommand,
  ECRClient,
  GetLifecyclePolicyCommand,
  ListTagsForResourceCommand,
  type Repository,
} from "@aws-sdk/client-ecr";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import {
  clientAs,
  condition,
  deleteResourceAndWait,
  type E2E,
  getResource,
  patchResource,
  region,
  startAppsInAccount,
  waitForResourceCondition,
  waitForSynced,
} from "./fixture.ts";

const X = "111111111111";
const Y = "222222222222";
const lifecycle = JSON.stringify({
  rules: [
    {
      rulePriority: 1,
      selection: { tagStatus: "untagged", countType: "sinceImagePushed", countUnit: "days", countNumber: 7 },
      action: { type: "expire" },
    },
  ],
});

let e2e: E2E;
let endpoint: string;

before(async () => {
  e2e = await startAppsInAccount(X);
  endpoint = e2e.stack.awsEndpoint ?? "";
});
after(() => e2e?.stop());

const ecrAs = (account: string) => clientAs(ECRClient, endpoint, account);

async function repositoryIn(account: string, name: string): Promise<Repository | undefined> {
  try {
    const out = await (await ecrAs(account)).send(
      new DescribeRepositoriesCommand({ repositoryNames: [name] }),
    );
    return out.repositories?.[0];
  } catch (err) {
    if ((err as { name?: string }).name === "RepositoryNotFoundException") return undefined;
    throw err;
  }
}

function repository(name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: "ecr.services.k8s.aws/v1alpha1",
    kind: "Repository",
    metadata: { name, namespace: "apps" },
    spec: { name: `apps/${name}`, ...spec },
  } as KubeObject;
}

const synced = (name: string, minGeneration = 1) =>
  waitForSynced(e2e.kube, "Repository", "apps", name, minGeneration);

test("a Repository lands in the namespace's account, tagged, with its lifecycle policy, Synced with ACK's status; a change is applied; delete deletes it", async () => {
  const name = "web";
  await e2e.apply([repository(name, { tags: [{ key: "team", value: "web" }], lifecyclePolicy: lifecycle })]);
  const r = await synced(name);
  const arn = `arn:aws:ecr:${region}:${X}:repository/apps/${name}`;
  assert.equal(r.status?.ackResourceMetadata?.ownerAccountID, X);
  assert.equal(r.status?.ackResourceMetadata?.arn, arn);
  const status = r.status as Record<string, unknown> | undefined;
  assert.match(String(status?.["repositoryURI"]), /\/apps\/web$/);
  assert.ok(r.metadata.finalizers?.includes("finalizers.ecr.services.k8s.aws/Repository"));
  const spec = r.spec as Record<string, unknown>;
  assert.equal(spec["registryID"], X, "ECR's registry copied into the spec");

  const made = await repositoryIn(X, `apps/${name}`);
  assert.equal(made?.repositoryArn, arn);
  const x = await ecrAs(X);
  const tags = await x.send(new ListTagsForResourceCommand({ resourceArn: arn }));
  const byKey = Object.fromEntries((tags.tags ?? []).map((t) => [t.Key, t.Value]));
  assert.equal(byKey["team"], "web");
  assert.equal(byKey["services.k8s.aws/owner-uid"], r.metadata.uid, "tagged as this object's");
  const policy = await x.send(new GetLifecyclePolicyCommand({ repositoryName: `apps/${name}` }));
  assert.deepEqual(JSON.parse(policy.lifecyclePolicyText ?? "{}"), JSON.parse(lifecycle));

  await patchResource(e2e.kube, "Repository", "apps", name, { spec: { imageTagMutability: "IMMUTABLE" } });
  // The late-initialised registryID was a spec write of its own: wait for the patch's generation.
  const patched = await getResource(e2e.kube, "Repository", "apps", name);
  await synced(name, patched?.metadata.generation ?? 0);
  assert.equal((await repositoryIn(X, `apps/${name}`))?.imageTagMutability, "IMMUTABLE");

  await deleteResourceAndWait(e2e.kube, "Repository", "apps", name);
  assert.equal(await repositoryIn(X, `apps/${name}`), undefined, "deleted in AWS");
});

test("a registryID naming another account: ACK.Terminal naming spec.registryID; nothing is made in either account", async () => {
  const name = "elsewhere";
  await e2e.apply([repository(name, { registryID: Y })]);
  const r = await waitForResourceCondition(e2e.kube, "Repository", "apps", name, "ACK.Terminal", "True");
  assert.match(
    condition(r, "ACK.Terminal")?.message ?? "",
    /spec\.registryID "222222222222" is not the resource's account 111111111111/,
  );
  assert.equal(await repositoryIn(X, `apps/${name}`), undefined);
  assert.equal(await repositoryIn(Y, `apps/${name}`), undefined);
});
