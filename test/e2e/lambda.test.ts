// Function — Lambda's, a declaration served by the generic runtime with hooks for its code and its
// one change at a time — end to end with the real controller process: a Function whose roleRef
// names a Role not made yet waits, nothing sent to Lambda; once the Role is Synced the function is
// made in the namespace's account (checked with that account's credentials) running as that role,
// tagged as the object's, Synced with ACK's status; a new zipFile rolls out (Lambda's digest is
// the package's), a timeout change is applied; a roleRef to another namespace's Role is refused;
// deleting the object deletes the function. A status the tenant forges places nothing: the
// resource is AccountDrift until the record is corrected, the other account's function untouched.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { GetFunctionCommand, LambdaClient } from "@aws-sdk/client-lambda";
import { waitFor } from "../../src/local-stack/wait.ts";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { packageDigest } from "../../src/services/lambda/function.ts";
import { lambdaPackage } from "../support/lambda-package.ts";
import { createOutOfBand } from "../support/out-of-band.ts";
import {
  clientAs,
  deleteResourceAndWait,
  type E2E,
  getResource,
  patchResource,
  startAppsInAccount,
  waitForResourceCondition,
  waitForSynced,
  writeStatusAsTenant,
} from "./fixture.ts";

const X = "111111111111";
const Y = "222222222222";
let e2e: E2E;
let endpoint: string;

before(async () => {
  e2e = await startAppsInAccount(X);
  endpoint = e2e.stack.awsEndpoint ?? "";
});
after(() => e2e?.stop());

async function functionIn(account: string, name: string) {
  try {
    return await (await clientAs(LambdaClient, endpoint, account)).send(
      new GetFunctionCommand({ FunctionName: name }),
    );
  } catch (err) {
    if ((err as { name?: string }).name === "ResourceNotFoundException") return undefined;
    throw err;
  }
}

const role = (name: string, namespace = "apps"): KubeObject =>
  ({
    apiVersion: "iam.services.k8s.aws/v1alpha1",
    kind: "Role",
    metadata: { name, namespace },
    spec: {
      name: `${namespace}-${name}`,
      assumeRolePolicyDocument: JSON.stringify({
        Version: "2012-10-17",
        Statement: [
          { Effect: "Allow", Principal: { Service: "lambda.amazonaws.com" }, Action: "sts:AssumeRole" },
        ],
      }),
    },
  }) as KubeObject;

const fn = (name: string, spec: Record<string, unknown>): KubeObject =>
  ({
    apiVersion: "lambda.services.k8s.aws/v1alpha1",
    kind: "Function",
    metadata: { name, namespace: "apps" },
    spec: {
      name: `apps-${name}`,
      runtime: "python3.12",
      handler: "index.handler",
      code: { zipFile: lambdaPackage() },
      ...spec,
    },
  }) as KubeObject;

test("a Function waits for its roleRef's Role, then lands in the account running as it, tagged, Synced; a new package and a timeout roll out; delete removes it", async () => {
  await e2e.apply([
    fn("api", { roleRef: { from: { name: "api-runner" } }, timeout: 5, tags: { team: "apps" } }),
  ]);
  const waiting = await waitForResourceCondition(
    e2e.kube,
    "Function",
    "apps",
    "api",
    "ACK.ResourceSynced",
    "False",
    "ReferenceNotFound",
  );
  assert.match(
    String(waiting.status?.conditions?.find((c) => c.type === "ACK.ResourceSynced")?.message),
    /api-runner/,
  );
  assert.equal(await functionIn(X, "apps-api"), undefined, "nothing made while the role is missing");

  await e2e.apply([role("api-runner")]);
  const r = await waitForSynced(e2e.kube, "Function", "apps", "api");
  assert.equal(r.status?.ackResourceMetadata?.ownerAccountID, X);
  assert.equal(r.status?.ackResourceMetadata?.arn, `arn:aws:lambda:us-east-1:${X}:function:apps-api`);
  const status = r.status as Record<string, unknown>;
  assert.equal(status["codeSHA256"], packageDigest(lambdaPackage()));
  assert.equal(status["state"], "Active");
  const made = await functionIn(X, "apps-api");
  assert.equal(
    made?.Configuration?.Role,
    `arn:aws:iam::${X}:role/apps-api-runner`,
    "the Role's ARN, from its spec",
  );
  assert.equal(made?.Configuration?.Timeout, 5);
  assert.equal(made?.Tags?.["team"], "apps");
  assert.equal(made?.Tags?.["services.k8s.aws/owner-uid"], r.metadata.uid, "tagged as this object's");

  const next = lambdaPackage("def handler(event, context):\n    return 'v2'\n");
  await patchResource(e2e.kube, "Function", "apps", "api", {
    spec: { code: { zipFile: next }, timeout: 15 },
  });
  const patched = await getResource(e2e.kube, "Function", "apps", "api");
  await waitForSynced(e2e.kube, "Function", "apps", "api", patched?.metadata.generation ?? 0);
  const rolled = await functionIn(X, "apps-api");
  assert.equal(rolled?.Configuration?.CodeSha256, packageDigest(next), "the new package runs");
  assert.equal(rolled?.Configuration?.Timeout, 15);

  await deleteResourceAndWait(e2e.kube, "Function", "apps", "api");
  assert.equal(await functionIn(X, "apps-api"), undefined, "deleted in AWS");
});

test("a roleRef to another namespace's Role is refused, and nothing is made", async () => {
  await e2e.apply([fn("stray", { roleRef: { from: { name: "api-runner", namespace: "elsewhere" } } })]);
  const refused = await waitForResourceCondition(
    e2e.kube,
    "Function",
    "apps",
    "stray",
    "ACK.ResourceSynced",
    "False",
    "ReferenceNotAllowed",
  );
  assert.match(
    String(refused.status?.conditions?.find((c) => c.type === "ACK.ResourceSynced")?.message),
    /elsewhere/,
  );
  assert.equal(await functionIn(X, "apps-stray"), undefined);
});

test("a status the tenant forges (another account, the same-named function there) places nothing: AccountDrift until the record is corrected, the other function untouched", async () => {
  await createOutOfBand(endpoint, "Function", "apps-forged", Y);
  await e2e.apply([role("forged-runner"), fn("forged", { roleRef: { from: { name: "forged-runner" } } })]);
  await waitForSynced(e2e.kube, "Function", "apps", "forged");
  // Late initialisation writes the spec (a new generation): the tenant forges status once the
  // controller has written its own for that one too, or that write would simply correct the forgery.
  const generation = (await getResource(e2e.kube, "Function", "apps", "forged"))?.metadata.generation ?? 1;
  await waitForSynced(e2e.kube, "Function", "apps", "forged", generation);
  await writeStatusAsTenant(e2e.kube, "Function", "apps", "forged", {
    ackResourceMetadata: {
      ownerAccountID: Y,
      region: "us-east-1",
      arn: `arn:aws:lambda:us-east-1:${Y}:function:apps-forged`,
    },
    codeSHA256: "forged-digest",
  });
  await patchResource(e2e.kube, "Function", "apps", "forged", { spec: { timeout: 42 } });
  const drifted = await waitForResourceCondition(
    e2e.kube,
    "Function",
    "apps",
    "forged",
    "ACK.Terminal",
    "True",
    "AccountDrift",
    // The suite's load: a Function's reconcile waits behind many other kinds'.
    45_000,
  );
  assert.match(
    String(drifted.status?.conditions?.find((c) => c.type === "ACK.Terminal")?.message),
    new RegExp(`account ${Y}.*account ${X}`),
  );
  const untouched = async () => {
    const theirs = await functionIn(Y, "apps-forged");
    assert.equal(theirs?.Configuration?.Timeout, 3, "the other account's function of that name is untouched");
    assert.equal(theirs?.Configuration?.Description, "made out of band");
    assert.equal(theirs?.Tags?.["services.k8s.aws/owner-uid"], undefined, "and not claimed");
  };
  await untouched();
  assert.equal(
    (await functionIn(X, "apps-forged"))?.Configuration?.Timeout,
    3,
    "nothing written while it drifts",
  );

  // The record is the tenant's to correct; then the change lands where the decision places it.
  await writeStatusAsTenant(e2e.kube, "Function", "apps", "forged", {
    ackResourceMetadata: { ownerAccountID: null, region: null, arn: null },
  });
  await patchResource(e2e.kube, "Function", "apps", "forged", {
    metadata: { annotations: { "example.com/poke": "1" } },
  });
  await waitFor(async () => (await functionIn(X, "apps-forged"))?.Configuration?.Timeout === 42, {
    what: "the timeout applied in its own account",
    timeoutMs: 20_000,
  });
  await untouched();
  await deleteResourceAndWait(e2e.kube, "Function", "apps", "forged");
  assert.equal(await functionIn(X, "apps-forged"), undefined);
  assert.ok(await functionIn(Y, "apps-forged"), "deleting it deletes its own only");
});
