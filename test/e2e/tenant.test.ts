// A tenant as an attacker (DESIGN §3.4-3.5): a ServiceAccount in namespace `team-a` holding `*`
// on the s3.services.k8s.aws group — buckets AND buckets/status — through its own Role, and
// acting with its own token. Namespace team-a carries no account annotation, so its resources
// land in the controller's own account (A below); team-b is granted Y through the account map,
// which also lists X. This is how finding 1 was reproduced: a recorded status.ownerAccountID
// other than the controller's used to send the resource to the account map. Whatever
// the tenant writes, in spec, metadata or status, nothing may be created in Y, no bucket of
// team-b may be adopted, tagged or deleted, and a recorded status field never selects the
// account, the role or the AWS object.
//
// A forged create intent (status.intent) is one more such record: it must not make an untagged
// bucket made out of band count as the tenant's own interrupted create (claimed, then deleted).
//
// The controller is stopped while the tenant forges status, so the test does not race the
// controller's own status writes: when it starts, the forged record is what it reads first.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { accountsHolding, bucketTagsIn } from "../../src/local-stack/accounts.ts";
import { waitFor } from "../../src/local-stack/wait.ts";
import {
  createKubeClient,
  KubeApiError,
  type KubeClient,
  patchTypes,
} from "../../src/runtime/kube-client.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { type RestConfig, withToken } from "../../src/runtime/rest-config.ts";
import { createOutOfBand } from "../support/out-of-band.ts";
import {
  bucket,
  bucketPath,
  type ControllerProcess,
  condition,
  configMap,
  controllerAccount,
  type E2E,
  eventsAbout,
  getBucket,
  namespace,
  startE2E,
  waitForCondition,
} from "./fixture.ts";

const X = "111111111111";
/** team-a's account: the controller's own (team-a has no owner-account-id annotation). */
const A = controllerAccount;
const Y = "222222222222";
const accounts = [X, Y, controllerAccount] as const;
const teamBBucket = "team-b-ledger";

let e2e: E2E;
let endpoint: string;
let tenant: KubeClient;
let controller: ControllerProcess;
let teamBUid: string;

/** A kubeconfig for the same cluster acting as `token` (the tenant's own credentials). */
function clientWithToken(admin: RestConfig, token: string): KubeClient {
  return createKubeClient(withToken(admin, token));
}

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  await e2e.apply([
    namespace("ack-system"),
    namespace("team-a"),
    namespace("team-b", { "services.k8s.aws/owner-account-id": Y }),
    configMap("ack-role-account-map", {
      [X]: `arn:aws:iam::${X}:role/team-a`,
      [Y]: `arn:aws:iam::${Y}:role/team-b`,
    }),
    { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "tenant", namespace: "team-a" } },
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "Role",
      metadata: { name: "s3-admin", namespace: "team-a" },
      rules: [{ apiGroups: ["s3.services.k8s.aws"], resources: ["*"], verbs: ["*"] }],
    } as KubeObject,
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "RoleBinding",
      metadata: { name: "tenant-s3-admin", namespace: "team-a" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "s3-admin" },
      subjects: [{ kind: "ServiceAccount", name: "tenant", namespace: "team-a" }],
    } as KubeObject,
    bucket("team-b", "ledger", { name: teamBBucket, tagging: { tagSet: [{ key: "team", value: "b" }] } }),
  ]);
  const token = await e2e.kube.request<{ status: { token: string } }>({
    method: "POST",
    path: "/api/v1/namespaces/team-a/serviceaccounts/tenant/token",
    body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec: { expirationSeconds: 3600 } },
  });
  tenant = clientWithToken(e2e.stack.kubeConfig, token.status.token);
  controller = await e2e.startController();
  const ledger = await waitForCondition(e2e.kube, "team-b", "ledger", "ACK.ResourceSynced", "True");
  teamBUid = ledger.metadata.uid ?? "";
});
after(() => e2e?.stop());

const holders = (name: string) => accountsHolding(endpoint, name, accounts);

/** Team-b's bucket is where it was, tagged as team-b's, with team-b's own tags, and Synced. */
async function assertTeamBUntouched(): Promise<void> {
  assert.deepEqual(await holders(teamBBucket), [Y], "team-b's bucket is still (only) in Y");
  const tags = await bucketTagsIn(endpoint, Y, teamBBucket);
  assert.equal(tags.ownership["services.k8s.aws/owner-uid"], teamBUid, "still tagged as team-b's");
  assert.equal(tags.ownership["services.k8s.aws/owner"], "Bucket/team-b/ledger");
  assert.deepEqual(tags.user, { team: "b" }, "team-b's tags untouched");
  const ledger = await getBucket(e2e.kube, "team-b", "ledger");
  assert.equal(condition(ledger, "ACK.ResourceSynced")?.status, "True");
}

async function asTenant(
  method: "GET" | "POST" | "PATCH" | "DELETE",
  path: string,
  body?: unknown,
  contentType?: string,
) {
  return tenant.request<KubeObject>({
    method,
    path,
    ...(body === undefined ? {} : { body }),
    ...(contentType ? { contentType } : {}),
  });
}

async function forgeStatus(name: string, metadata: Record<string, unknown>): Promise<void> {
  await asTenant(
    "PATCH",
    `${bucketPath("team-a", name)}/status`,
    {
      status: { ackResourceMetadata: metadata },
    },
    patchTypes.merge,
  );
}

async function touch(name: string, annotations: Record<string, string | null>): Promise<void> {
  await asTenant("PATCH", bucketPath("team-a", name), { metadata: { annotations } }, patchTypes.merge);
}

async function restartController(): Promise<void> {
  controller = await e2e.startController();
}

async function waitGone(name: string): Promise<void> {
  await waitFor(async () => (await getBucket(e2e.kube, "team-a", name)) === undefined, {
    what: `Bucket team-a/${name} gone`,
    timeoutMs: 20_000,
  }).catch(async (err: unknown) => {
    const left = await getBucket(e2e.kube, "team-a", name);
    throw new Error(`${String(err)}; it still says ${JSON.stringify(left?.status?.conditions)}`);
  });
}

function statusCode(err: unknown): number | undefined {
  return err instanceof KubeApiError ? err.status : undefined;
}

test("the tenant may write its buckets and their status, and nothing that grants an account", async () => {
  await asTenant(
    "POST",
    "/apis/s3.services.k8s.aws/v1alpha1/namespaces/team-a/buckets",
    bucket("team-a", "probe"),
  );
  await forgeStatus("probe", { ownerAccountID: Y });
  const denied = async (what: string, call: () => Promise<unknown>) => {
    const err = await call().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.equal(statusCode(err), 403, `${what} must be forbidden to the tenant`);
  };
  await denied("annotating its namespace", () =>
    asTenant(
      "PATCH",
      "/api/v1/namespaces/team-a",
      { metadata: { annotations: { a: "b" } } },
      patchTypes.merge,
    ),
  );
  await denied("writing the account map", () =>
    asTenant("POST", "/api/v1/namespaces/ack-system/configmaps", configMap("ack-role-account-map-2", {})),
  );
  await denied("creating an identity", () =>
    asTenant("POST", "/apis/identity.crossrole.dev/v1beta1/awsroleidentities", {
      apiVersion: "identity.crossrole.dev/v1beta1",
      kind: "AWSRoleIdentity",
      metadata: { name: "mine" },
      spec: { roleARN: `arn:aws:iam::${Y}:role/team-b`, allowedNamespaces: {} },
    }),
  );
  await denied("reading team-b's buckets", () => asTenant("GET", bucketPath("team-b", "ledger")));
  // The forged record only stops the controller (AccountDrift blocks the deletion too, until the
  // record is right): the tenant puts it right, then deletes.
  await forgeStatus("probe", { ownerAccountID: null });
  await asTenant("DELETE", bucketPath("team-a", "probe"));
  await waitGone("probe");
});

test("a forged status.ownerAccountID creates nothing in the other team's account", async () => {
  await controller.stop();
  const name = "team-a-forged-create";
  await asTenant(
    "POST",
    "/apis/s3.services.k8s.aws/v1alpha1/namespaces/team-a/buckets",
    bucket("team-a", "forged-create", { name }),
  );
  await forgeStatus("forged-create", { ownerAccountID: Y, region: "us-east-1" });
  await restartController();

  const b = await waitForCondition(
    e2e.kube,
    "team-a",
    "forged-create",
    "ACK.Terminal",
    "True",
    "AccountDrift",
  );
  assert.match(condition(b, "ACK.Terminal")?.message ?? "", new RegExp(`account ${Y}.*account ${A}`));
  assert.deepEqual(await holders(name), [], "nothing created anywhere, least of all in Y");

  // The record is the tenant's to correct; then the bucket lands where team-a was granted.
  await forgeStatus("forged-create", { ownerAccountID: null, region: null });
  await touch("forged-create", { "example.com/poke": "1" });
  const synced = await waitForCondition(e2e.kube, "team-a", "forged-create", "ACK.ResourceSynced", "True");
  assert.equal(synced.status?.ackResourceMetadata?.ownerAccountID, A);
  assert.deepEqual(await holders(name), [A]);
  await asTenant("DELETE", bucketPath("team-a", "forged-create"));
  await waitGone("forged-create");
  assert.deepEqual(await holders(name), []);
  await assertTeamBUntouched();
});

test("a forged account and ARN with an adoption policy cannot adopt, tag or delete the other team's bucket", async () => {
  await controller.stop();
  await asTenant(
    "POST",
    "/apis/s3.services.k8s.aws/v1alpha1/namespaces/team-a/buckets",
    bucket(
      "team-a",
      "grab",
      { name: teamBBucket, tagging: { tagSet: [{ key: "team", value: "a" }] } },
      { annotations: { "services.k8s.aws/adoption-policy": "adopt-or-create" } },
    ),
  );
  await forgeStatus("grab", { ownerAccountID: Y, region: "us-east-1", arn: `arn:aws:s3:::${teamBBucket}` });
  await restartController();

  await waitForCondition(e2e.kube, "team-a", "grab", "ACK.Terminal", "True", "AccountDrift");
  await assertTeamBUntouched();

  // Without the forged account, the decided account is A (the controller's), where team-b's
  // bucket is not: the name is another account's (bucket names are global), so there is nothing
  // to adopt and nothing to create.
  await forgeStatus("grab", { ownerAccountID: null, region: null });
  await touch("grab", { "example.com/poke": "1" });
  const refused = await waitForCondition(e2e.kube, "team-a", "grab", "ACK.Terminal", "True", "NameTaken");
  assert.match(
    condition(refused, "ACK.Terminal")?.message ?? "",
    new RegExp(
      `cannot be used from account ${A}: .*owned by another AWS account.*choose another spec\\.name`,
    ),
  );
  assert.notEqual(refused.status?.ackResourceMetadata?.ownerAccountID, Y);
  await assertTeamBUntouched();

  // Deleting it (delete policy by default) with the forged ARN back in place deletes nothing of team-b's.
  await forgeStatus("grab", { arn: `arn:aws:s3:::${teamBBucket}` });
  await asTenant("DELETE", bucketPath("team-a", "grab"));
  await waitGone("grab");
  const kept = (await eventsAbout(e2e.kube, "team-a", "Bucket", "grab")).find((e) => e.reason === "Retained");
  assert.match(kept?.message ?? "", new RegExp(`nothing of account ${A} is there`));
  await assertTeamBUntouched();
});

test("a forged status.arn naming the other team's bucket is not what a delete deletes", async () => {
  const name = "team-a-own";
  await asTenant(
    "POST",
    "/apis/s3.services.k8s.aws/v1alpha1/namespaces/team-a/buckets",
    bucket("team-a", "own", { name }),
  );
  await waitForCondition(e2e.kube, "team-a", "own", "ACK.ResourceSynced", "True");
  assert.deepEqual(await holders(name), [A]);

  await controller.stop();
  await forgeStatus("own", { arn: `arn:aws:s3:::${teamBBucket}` });
  await asTenant("DELETE", bucketPath("team-a", "own"));
  await restartController();
  await waitGone("own");
  assert.deepEqual(await holders(name), [], "its own bucket, named by spec.name in A, is deleted");
  await assertTeamBUntouched();
});

test("a forged create intent stands in for nothing: an untagged bucket made out of band is not claimed, tagged or deleted", async () => {
  const name = "team-a-made-out-of-band";
  await createOutOfBand(endpoint, "Bucket", name, A);
  // An intent as the controller would write one for a create of exactly this bucket, timed at its
  // creation: only the MAC, made with a key the tenant cannot read, is missing (or made up).
  const forged = {
    action: "create",
    name,
    ownerAccountID: A,
    region: "us-east-1",
    requestedAt: new Date().toISOString(),
    mac: "bm90LXRoZS1jb250cm9sbGVyJ3Mta2V5LW5vdC10aGUtY29udHJvbGxlcidzLWtleQ",
  };
  await controller.stop();
  await asTenant(
    "POST",
    "/apis/s3.services.k8s.aws/v1alpha1/namespaces/team-a/buckets",
    bucket("team-a", "claim", { name }),
  );
  await asTenant(
    "PATCH",
    `${bucketPath("team-a", "claim")}/status`,
    { status: { intent: forged } },
    patchTypes.merge,
  );
  await restartController();

  const refused = await waitForCondition(
    e2e.kube,
    "team-a",
    "claim",
    "ACK.Terminal",
    "True",
    "AlreadyExists",
  );
  const message = condition(refused, "ACK.Terminal")?.message ?? "";
  assert.match(message, /not tagged as crossrole's/);
  assert.match(message, /status\.intent is not sealed by this controller's key.*it was ignored/);
  assert.deepEqual((await bucketTagsIn(endpoint, A, name)).ownership, {}, "not tagged as the tenant's");
  const events = await eventsAbout(e2e.kube, "team-a", "Bucket", "claim");
  assert.ok(!events.some((e) => e.reason === "CreateCompleted" || e.reason === "Adopted"), "not claimed");

  // Deleting the resource, never Synced, with the forged intent still in status: the bucket stays.
  await asTenant("DELETE", bucketPath("team-a", "claim"));
  await waitGone("claim");
  assert.deepEqual(await holders(name), [A], "the out-of-band bucket was not deleted");
  assert.deepEqual((await bucketTagsIn(endpoint, A, name)).ownership, {});
});
