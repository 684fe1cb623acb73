// Ownership in AWS (DESIGN §3.5) with the real controller process: the tags on a bucket, not
// anything in Kubernetes, decide whether crossrole may update or delete it.
//   - two resources naming one bucket (two namespaces on one account, or one namespace, or
//     both at once): the second is NameTaken naming the first, writes nothing, and deleting it
//     leaves the first's bucket; the first stays Synced;
//   - an untagged bucket is AlreadyExists without an adoption policy, and never deleted;
//   - ownership tags wiped out of band: refused, not silently retaken; adoption takes it back;
//   - deleted with retain, recreated under the same name: refused until adopted;
//   - a resource-level owner-account-id ignored with ResourceLevelCARM off: a Warning Event.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { CreateBucketCommand, PutBucketTaggingCommand } from "@aws-sdk/client-s3";
import { accountsHolding, bucketTagsIn, s3As } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import {
  bucket,
  condition,
  configMap,
  controllerAccount,
  deleteResourceAndWait,
  type E2E,
  eventsAbout,
  getBucket,
  namespace,
  patchResource,
  startE2E,
  waitForCondition,
  waitForEvent,
} from "./fixture.ts";

const X = "111111111111";
const Y = "222222222222";
const accounts = [X, Y, controllerAccount] as const;

let e2e: E2E;
let endpoint: string;

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  await e2e.apply([
    namespace("ack-system"),
    namespace("own-a", { "services.k8s.aws/owner-account-id": X }),
    namespace("own-b", { "services.k8s.aws/owner-account-id": X }),
    configMap("ack-role-account-map", {
      [X]: `arn:aws:iam::${X}:role/owner-x`,
      [Y]: `arn:aws:iam::${Y}:role/owner-y`,
    }),
  ]);
  await e2e.startController();
});
after(() => e2e?.stop());

const tags = (name: string) => bucketTagsIn(endpoint, X, name);
const holders = (name: string) => accountsHolding(endpoint, name, accounts);

const patchMeta = (ns: string, name: string, metadata: Record<string, unknown>) =>
  patchResource(e2e.kube, "Bucket", ns, name, { metadata });

const deleteAndWaitGone = (ns: string, name: string) => deleteResourceAndWait(e2e.kube, "Bucket", ns, name);

async function synced(ns: string, name: string) {
  return waitForCondition(e2e.kube, ns, name, "ACK.ResourceSynced", "True");
}

test("a second namespace naming the same bucket in the same account is NameTaken; deleting it leaves the first's bucket", async () => {
  const name = "shared-across-namespaces";
  await e2e.apply([bucket("own-a", "first", { name, tagging: { tagSet: [{ key: "team", value: "a" }] } })]);
  const first = await synced("own-a", "first");
  assert.equal((await tags(name)).ownership["services.k8s.aws/owner-uid"], first.metadata.uid);

  await e2e.apply([bucket("own-b", "second", { name, tagging: { tagSet: [{ key: "team", value: "b" }] } })]);
  const second = await waitForCondition(e2e.kube, "own-b", "second", "ACK.Terminal", "True", "NameTaken");
  const message = condition(second, "ACK.Terminal")?.message ?? "";
  assert.match(message, /owned by Bucket\/own-a\/first/);
  assert.match(message, /choose another spec\.name/);
  assert.equal(condition(second, "Ready")?.status, "False");

  const after = await tags(name);
  assert.deepEqual(after.user, { team: "a" }, "the second resource wrote nothing to the first's bucket");
  assert.equal(after.ownership["services.k8s.aws/owner-uid"], first.metadata.uid);
  assert.equal(condition(await getBucket(e2e.kube, "own-a", "first"), "ACK.ResourceSynced")?.status, "True");

  await deleteAndWaitGone("own-b", "second");
  assert.deepEqual(await holders(name), [X], "the first's bucket survives the second's deletion");
  const retained = (await eventsAbout(e2e.kube, "own-b", "Bucket", "second")).find(
    (e) => e.reason === "Retained",
  );
  assert.match(retained?.message ?? "", /owned by Bucket\/own-a\/first/);
  assert.equal(condition(await getBucket(e2e.kube, "own-a", "first"), "ACK.ResourceSynced")?.status, "True");
  assert.deepEqual((await tags(name)).user, { team: "a" });
});

test("two resources in one namespace created at once naming one bucket: exactly one owns it, one bucket exists", async () => {
  const name = "shared-within-namespace";
  await e2e.apply([bucket("own-a", "twin-1", { name }), bucket("own-a", "twin-2", { name })]);
  const outcome = await waitFor(
    async () => {
      const states = await Promise.all(
        ["twin-1", "twin-2"].map(async (n) => {
          const r = await getBucket(e2e.kube, "own-a", n);
          if (condition(r, "ACK.ResourceSynced")?.status === "True") return { n, r, state: "synced" };
          if (condition(r, "ACK.Terminal")?.reason === "NameTaken") return { n, r, state: "taken" };
          return undefined;
        }),
      );
      return states.every((s) => s !== undefined) ? states : undefined;
    },
    { what: "both twins settled", timeoutMs: 20_000 },
  );
  const winner = outcome.find((s) => s?.state === "synced");
  const loser = outcome.find((s) => s?.state === "taken");
  assert.ok(winner && loser, `one Synced and one NameTaken, got ${outcome.map((s) => s?.state).join(", ")}`);
  assert.equal((await tags(name)).ownership["services.k8s.aws/owner-uid"], winner.r?.metadata.uid);
  assert.deepEqual(await holders(name), [X]);

  await deleteAndWaitGone("own-a", loser.n);
  assert.deepEqual(await holders(name), [X], "deleting the loser leaves the bucket");
  await deleteAndWaitGone("own-a", winner.n);
  assert.deepEqual(await holders(name), [], "deleting the owner deletes it");
});

test("an untagged bucket made outside crossrole is AlreadyExists without an adoption policy: nothing written, never deleted", async () => {
  const name = "made-by-hand";
  const s3 = await s3As(endpoint, X);
  await s3.send(new CreateBucketCommand({ Bucket: name }));
  await s3.send(
    new PutBucketTaggingCommand({ Bucket: name, Tagging: { TagSet: [{ Key: "owner", Value: "ops" }] } }),
  );
  await e2e.apply([bucket("own-a", "by-hand", { name, tagging: { tagSet: [{ key: "team", value: "a" }] } })]);
  const b = await waitForCondition(e2e.kube, "own-a", "by-hand", "ACK.Terminal", "True", "AlreadyExists");
  const message = condition(b, "ACK.Terminal")?.message ?? "";
  assert.match(message, /not tagged as crossrole's/);
  assert.match(message, /services\.k8s\.aws\/adoption-policy: adopt/);
  assert.deepEqual(await tags(name), { user: { owner: "ops" }, ownership: {} }, "nothing written");

  await deleteAndWaitGone("own-a", "by-hand");
  assert.deepEqual(await holders(name), [X], "an untagged bucket is never deleted");

  await e2e.apply([
    bucket(
      "own-a",
      "adopter",
      { name },
      { annotations: { "services.k8s.aws/adoption-policy": "adopt-or-create" } },
    ),
  ]);
  const adopted = await synced("own-a", "adopter");
  assert.equal((await tags(name)).ownership["services.k8s.aws/owner-uid"], adopted.metadata.uid);
});

test("ownership tags wiped out of band: the bucket is refused, not silently retaken; adoption takes it back", async () => {
  const name = "wiped-tags";
  await e2e.apply([bucket("own-a", "wiped", { name })]);
  const b = await synced("own-a", "wiped");
  const s3 = await s3As(endpoint, X);
  await s3.send(
    new PutBucketTaggingCommand({ Bucket: name, Tagging: { TagSet: [{ Key: "cost", Value: "1" }] } }),
  );
  await patchMeta("own-a", "wiped", { annotations: { poke: "1" } });
  await waitForCondition(e2e.kube, "own-a", "wiped", "ACK.Terminal", "True", "AlreadyExists");
  assert.deepEqual(await tags(name), { user: { cost: "1" }, ownership: {} }, "nothing rewritten");

  await patchMeta("own-a", "wiped", {
    annotations: { "services.k8s.aws/adoption-policy": "adopt-or-create" },
  });
  await synced("own-a", "wiped");
  const back = await tags(name);
  assert.equal(back.ownership["services.k8s.aws/owner-uid"], b.metadata.uid);
  assert.deepEqual(back.user, {}, "adopt-or-create: the manifest (no tags) is the source of truth");
});

test("deleted with retain and recreated under the same name: refused as an earlier object's until adopted", async () => {
  const name = "phoenix-bucket";
  const retain = { "services.k8s.aws/deletion-policy": "retain" };
  await e2e.apply([bucket("own-a", "phoenix", { name }, { annotations: retain })]);
  const first = await synced("own-a", "phoenix");
  await deleteAndWaitGone("own-a", "phoenix");
  assert.deepEqual(await holders(name), [X]);

  await e2e.apply([bucket("own-a", "phoenix", { name })]);
  const again = await waitForCondition(e2e.kube, "own-a", "phoenix", "ACK.Terminal", "True", "AlreadyExists");
  assert.notEqual(again.metadata.uid, first.metadata.uid);
  assert.match(
    condition(again, "ACK.Terminal")?.message ?? "",
    new RegExp(`earlier object of the same name \\(uid ${first.metadata.uid}\\)`),
  );
  await patchMeta("own-a", "phoenix", { annotations: { "services.k8s.aws/adoption-policy": "adopt" } });
  await synced("own-a", "phoenix");
  assert.equal((await tags(name)).ownership["services.k8s.aws/owner-uid"], again.metadata.uid);
  await waitForEvent(e2e.kube, "own-a", "Bucket", "phoenix", "Adopted", /earlier object of this name/);
});

test("a resource-level owner-account-id with ResourceLevelCARM off is ignored with a Warning Event on the resource", async () => {
  await e2e.apply([
    bucket("own-a", "asks-y", {}, { annotations: { "services.k8s.aws/owner-account-id": Y } }),
  ]);
  const b = await synced("own-a", "asks-y");
  assert.equal(
    b.status?.ackResourceMetadata?.ownerAccountID,
    X,
    "the namespace's account, not the annotation's",
  );
  const warning = await waitForEvent(e2e.kube, "own-a", "Bucket", "asks-y", "AnnotationIgnored");
  assert.equal(warning.type, "Warning");
  assert.match(
    warning.message,
    new RegExp(`owner-account-id=${Y} .* is ignored because feature gate ResourceLevelCARM is off`),
  );
  assert.deepEqual(await holders("own-a-asks-y"), [X]);
});
