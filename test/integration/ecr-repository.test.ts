// The Repository kind — a declaration served by the generic runtime (src/services/declared-kind/)
// — against the AWS emulator, calls checked on the wire through the recording proxy: the create
// carries the ownership tags, the read fills the spec (ECR's registry, encryption and scanning
// late-initialised) and ACK's status, each group is written by its own call and removed by its
// own, drift is seen and corrected, an untagged repository is claimed, a registryID naming another
// account is refused before any call, another account sees nothing, a repository holding images
// is deleted only when forced, and delete is idempotent.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  CreateRepositoryCommand,
  ECRClient,
  PutImageCommand,
  PutImageTagMutabilityCommand,
  TagResourceCommand,
} from "@aws-sdk/client-ecr";
import type { DeclaredObserved } from "../../src/services/declared-kind/source.ts";
import { forceDeleteAnnotation, repositoryService as service } from "../../src/services/ecr/repository.ts";
import type { AwsProxy } from "../support/aws-proxy.ts";
import {
  type AccountClient,
  startTwoAccounts,
  type TwoAccounts,
  type WireCalls,
} from "../support/two-accounts.ts";

const region = "us-east-1";
const owner = {
  "services.k8s.aws/namespace": "shop",
  "services.k8s.aws/owner": "Repository/shop/shop-images",
  "services.k8s.aws/owner-uid": "uid-repo-1",
  "services.k8s.aws/controller-version": "crossrole-test",
};
const lifecycle = JSON.stringify({
  rules: [
    {
      rulePriority: 1,
      description: "expire untagged",
      selection: { tagStatus: "untagged", countType: "sinceImagePushed", countUnit: "days", countNumber: 14 },
      action: { type: "expire" },
    },
  ],
});
const policy = JSON.stringify({
  Version: "2012-10-17",
  Statement: [{ Sid: "pull", Effect: "Allow", Principal: "*", Action: ["ecr:BatchGetImage"] }],
});

type Client = AccountClient<ECRClient>;
let accounts: TwoAccounts<ECRClient>;
let proxy: AwsProxy;
let calls: WireCalls;
/** This account, through the proxy. */
let mine: Client;
let other: Client;
let myAccount: string;

before(async () => {
  accounts = await startTwoAccounts(
    "ecr-repository",
    region,
    (endpoint, credentials) => new ECRClient({ region, endpoint, credentials }),
  );
  ({ proxy, calls, mine, other } = accounts);
  myAccount = mine.account;
});

after(() => accounts?.close());

let counter = 0;
const uniqueName = (label: string) => `crossrole/${label}-${process.pid}-${++counter}`;

function spec(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const r = service.parseSpec({ name, ...extra });
  assert.ok(r.ok, r.ok ? "" : r.message);
  return r.value;
}

async function observed(client: Client, s: Record<string, unknown>): Promise<DeclaredObserved> {
  const r = await service.read(client, s, {});
  assert.ok(r.found, "found");
  return r.observed;
}

const create = (s: Record<string, unknown>) => service.create(mine, s, region, owner, {}, undefined as never);

describe("Repository through the generic runtime", () => {
  test("create: one call carrying the ownership tags; the read fills ECR's own values, ACK's status and the ARN", async () => {
    const name = uniqueName("create");
    const desired = spec(name, { tags: [{ key: "team", value: "shop" }], imageTagMutability: "IMMUTABLE" });
    const sent = await calls.during(() => create(desired));
    assert.deepEqual(sent, ["CreateRepository"], "one call (the reconciler has read first)");
    const create0 = calls.input("CreateRepository");
    assert.equal(create0["repositoryName"], name);
    assert.equal(create0["registryId"], undefined, "no registry named: the caller's own");
    const o = await observed(mine, desired);
    assert.equal(o.fields["name"], name);
    assert.equal(o.fields["registryID"], myAccount);
    assert.equal(o.fields["imageTagMutability"], "IMMUTABLE");
    assert.deepEqual(o.fields["encryptionConfiguration"], { encryptionType: "AES256" });
    assert.deepEqual(o.fields["imageScanningConfiguration"], { scanOnPush: false });
    assert.equal(o.tags["services.k8s.aws/owner-uid"], "uid-repo-1");
    assert.equal(o.tags["team"], "shop");
    assert.equal(o.arn, `arn:aws:ecr:${region}:${myAccount}:repository/${name}`);
    assert.equal(service.arn(desired, region, myAccount), o.arn, "the ARN is known before it exists");
    assert.equal(service.observedRegion(o), region);
    const status = service.statusFrom?.(o) ?? {};
    assert.match(String(status["repositoryURI"]), new RegExp(`/${name.replace("/", "\\/")}$`));
    assert.ok(status["createdAt"], "createdAt");
    assert.ok(service.parseStatus({ ...status }).ok, "status fits the CRD's status schema");
    assert.deepEqual(service.diff(desired, o), [], "nothing differs right after the create");
    const adopted = service.specFromObserved(o, desired);
    assert.equal(adopted["registryID"], myAccount, "late-initialised");
    assert.deepEqual(adopted["encryptionConfiguration"], { encryptionType: "AES256" });
  });

  test("the read asks for the one repository by name, never lists the registry", async () => {
    const name = uniqueName("read");
    await create(spec(name));
    await create(spec(`${name}-other`));
    proxy.clearRecording();
    const o = await observed(mine, spec(name));
    const describe = calls.input("DescribeRepositories");
    assert.deepEqual(describe["repositoryNames"], [name]);
    assert.equal(o.fields["name"], name);
  });

  test("a registryID naming another account is refused before any call, naming the field", async () => {
    const name = uniqueName("registry");
    proxy.clearRecording();
    const err = await create(spec(name, { registryID: "222222222222" })).then(
      () => assert.fail("created"),
      (e: unknown) => e as Error & { disposition?: string },
    );
    assert.match(err.message, /spec\.registryID "222222222222" is not the resource's account/);
    assert.deepEqual(proxy.requests, [], "nothing sent");
    assert.deepEqual(await service.read(other, spec(name), {}), { found: false });
    // Its own account is fine.
    await create(spec(name, { registryID: myAccount }));
    assert.equal((await observed(mine, spec(name))).fields["registryID"], myAccount);
  });

  test("each group by its own call: mutability, scanning, lifecycle policy, repository policy, tags", async () => {
    const name = uniqueName("update");
    await create(spec(name, { tags: [{ key: "old", value: "1" }] }));
    const changed = spec(name, {
      imageTagMutability: "IMMUTABLE",
      imageScanningConfiguration: { scanOnPush: true },
      lifecyclePolicy: lifecycle,
      policy,
      tags: [{ key: "new", value: "2" }],
    });
    const before = await observed(mine, changed);
    assert.deepEqual(service.diff(changed, before), [
      "spec.imageTagMutability",
      "spec.imageScanningConfiguration",
      "spec.lifecyclePolicy",
      "spec.policy",
      "spec.tags",
    ]);
    const sent = await calls.during(() =>
      service.update(mine, changed, before, owner, {}, undefined as never),
    );
    assert.deepEqual(
      sent.filter((a) => !a?.startsWith("Describe") && !a?.startsWith("Get") && a !== "ListTagsForResource"),
      [
        "PutImageTagMutability",
        "PutImageScanningConfiguration",
        "PutLifecyclePolicy",
        "SetRepositoryPolicy",
        "TagResource",
        "UntagResource",
      ],
    );
    assert.equal(calls.input("PutLifecyclePolicy")["lifecyclePolicyText"], lifecycle);
    const after = await observed(mine, changed);
    assert.deepEqual(service.diff(changed, after), [], "what was written reads back the same");
    assert.equal(after.tags["old"], undefined);
    assert.equal(after.tags["services.k8s.aws/owner-uid"], "uid-repo-1", "ownership tags are never removed");

    // Removed from the spec: the policies are deleted by their own calls, mutability back to MUTABLE.
    const removed = spec(name, { imageScanningConfiguration: { scanOnPush: true } });
    assert.deepEqual(service.diff(removed, after), [
      "spec.imageTagMutability",
      "spec.lifecyclePolicy",
      "spec.policy",
      "spec.tags",
    ]);
    const gone = await calls.during(() =>
      service.update(mine, removed, after, owner, {}, undefined as never),
    );
    assert.ok(
      gone.includes("DeleteLifecyclePolicy") && gone.includes("DeleteRepositoryPolicy"),
      String(gone),
    );
    assert.equal(calls.input("PutImageTagMutability")["imageTagMutability"], "MUTABLE");
    const last = await observed(mine, removed);
    assert.deepEqual(service.diff(removed, last), []);
    assert.equal(last.fields["lifecyclePolicy"], undefined);
    assert.equal(last.fields["policy"], undefined);
  });

  test('a lifecycle policy set to "" (ACK\'s way to remove one) is deleted by its own call; "" then matches none', async () => {
    const name = uniqueName("empty");
    const withPolicy = spec(name, { lifecyclePolicy: lifecycle });
    await create(withPolicy);
    // Not a create member: the reconciler's first update sets it.
    await service.update(mine, withPolicy, await observed(mine, withPolicy), owner, {}, undefined as never);
    const emptied = spec(name, { lifecyclePolicy: "" });
    const before = await observed(mine, emptied);
    assert.deepEqual(service.diff(emptied, before), ["spec.lifecyclePolicy"]);
    const sent = await calls.during(() =>
      service.update(mine, emptied, before, owner, {}, undefined as never),
    );
    assert.deepEqual(sent, ["DeleteLifecyclePolicy"]);
    const after = await observed(mine, emptied);
    assert.equal(after.fields["lifecyclePolicy"], undefined);
    assert.deepEqual(service.diff(emptied, after), []);
  });

  test("mutability with exclusion filters: both sent in one PutImageTagMutability, read back, then changed", async () => {
    const name = uniqueName("filters");
    await create(spec(name));
    const filtered = spec(name, {
      imageTagMutability: "IMMUTABLE_WITH_EXCLUSION",
      imageTagMutabilityExclusionFilters: [{ filterType: "WILDCARD", filter: "latest*" }],
    });
    const sent = await calls.during(async () =>
      service.update(mine, filtered, await observed(mine, filtered), owner, {}, undefined as never),
    );
    assert.ok(sent.includes("PutImageTagMutability"), String(sent));
    assert.deepEqual(calls.input("PutImageTagMutability")["imageTagMutabilityExclusionFilters"], [
      { filterType: "WILDCARD", filter: "latest*" },
    ]);
    const o = await observed(mine, filtered);
    assert.deepEqual(o.fields["imageTagMutabilityExclusionFilters"], [
      { filterType: "WILDCARD", filter: "latest*" },
    ]);
    assert.deepEqual(service.diff(filtered, o), []);
    const changed = spec(name, {
      imageTagMutability: "IMMUTABLE_WITH_EXCLUSION",
      imageTagMutabilityExclusionFilters: [{ filterType: "WILDCARD", filter: "dev-*" }],
    });
    assert.deepEqual(service.diff(changed, o), ["spec.imageTagMutabilityExclusionFilters"]);
    await service.update(mine, changed, o, owner, {}, undefined as never);
    assert.deepEqual(service.diff(changed, await observed(mine, changed)), []);
  });

  test("drift: mutability and a tag changed out of band are seen and corrected", async () => {
    const name = uniqueName("drift");
    const desired = spec(name);
    await create(desired);
    const o = await observed(mine, desired);
    await mine.sdk.send(
      new PutImageTagMutabilityCommand({ repositoryName: name, imageTagMutability: "IMMUTABLE" }),
    );
    await mine.sdk.send(new TagResourceCommand({ resourceArn: o.arn, tags: [{ Key: "x", Value: "y" }] }));
    const drifted = await observed(mine, desired);
    assert.deepEqual(service.diff(desired, drifted), ["spec.imageTagMutability", "spec.tags"]);
    await service.update(mine, desired, drifted, owner, {}, undefined as never);
    assert.deepEqual(service.diff(desired, await observed(mine, desired)), []);
  });

  test("claim tags an untagged repository; adopting it makes the spec AWS's, the user's tags without ownership tags", async () => {
    const name = uniqueName("claim");
    await mine.sdk.send(
      new CreateRepositoryCommand({
        repositoryName: name,
        imageTagMutability: "IMMUTABLE",
        tags: [{ Key: "cost-center", Value: "42" }],
      }),
    );
    const o = await observed(mine, spec(name));
    assert.equal(o.tags["services.k8s.aws/owner-uid"], undefined);
    await service.claim(mine, o, owner, {});
    const claimed = await observed(mine, spec(name));
    assert.equal(claimed.tags["services.k8s.aws/owner-uid"], "uid-repo-1");
    assert.equal(claimed.tags["cost-center"], "42", "the repository's own tags stay");
    const adopted = service.specFromObserved(claimed, { name });
    assert.equal(adopted["imageTagMutability"], "IMMUTABLE");
    assert.deepEqual(adopted["tags"], [{ key: "cost-center", value: "42" }]);
    assert.ok(service.parseSpec(adopted).ok, "the adopted spec fits the schema");
  });

  test("another account sees nothing under the name, and cannot delete it", async () => {
    const name = uniqueName("isolated");
    await create(spec(name));
    assert.deepEqual(await service.read(other, spec(name), {}), { found: false });
    assert.equal(await service.delete(other, spec(name), {}, {}), "not-found");
    assert.ok((await service.read(mine, spec(name), {})).found, "still there in its own account");
  });

  test("a repository holding images: refused with the fix, deleted with the force-delete annotation", async () => {
    const name = uniqueName("images");
    const desired = spec(name);
    await create(desired);
    await mine.sdk.send(
      new PutImageCommand({
        repositoryName: name,
        imageTag: "v1",
        imageManifest: JSON.stringify({
          schemaVersion: 2,
          mediaType: "application/vnd.oci.image.manifest.v1+json",
        }),
      }),
    );
    const refused = await service.delete(mine, desired, {}, {}).then(
      () => assert.fail("deleted"),
      (e: unknown) => e as Error,
    );
    assert.match(refused.message, /RepositoryNotEmpty/);
    assert.match(refused.message, /ecr\.services\.k8s\.aws\/force-delete: "true"/);
    const bad = await service.delete(mine, desired, {}, { [forceDeleteAnnotation]: "yes" }).then(
      () => assert.fail("deleted"),
      (e: unknown) => e as Error,
    );
    assert.match(
      bad.message,
      /not attempted: annotation ecr\.services\.k8s\.aws\/force-delete: "yes" is not true or false/,
    );
    assert.ok((await service.read(mine, desired, {})).found, "still there");
    proxy.clearRecording();
    assert.equal(await service.delete(mine, desired, {}, { [forceDeleteAnnotation]: "true" }), "deleted");
    assert.equal(calls.input("DeleteRepository")["force"], true);
    assert.equal(await service.delete(mine, desired, {}, {}), "not-found");
    assert.deepEqual(await service.read(mine, desired, {}), { found: false });
  });
});

describe("Repository spec: ACK's manifest shape, references", () => {
  test("a kmsKeyRef names a served KMS Key (its ARN fills kmsKey): one of the two", () => {
    const config = (more: Record<string, unknown>) => ({
      name: "shop-repo",
      encryptionConfiguration: { encryptionType: "KMS", ...more },
    });
    assert.ok(service.parseSpec(config({ kmsKeyRef: { from: { name: "k" } } })).ok);
    assert.equal(service.parseSpec(config({ kmsKey: "arn", kmsKeyRef: { from: { name: "k" } } })).ok, false);
    assert.ok(
      service.references?.some((r) => r.kind === "Key" && r.arn === true),
      "fills the ARN",
    );
  });

  test("a name ECR refuses is refused by the spec check", () => {
    const r = service.parseSpec({ name: "x" });
    assert.equal(r.ok, false);
  });
});
