// --ungranted-principals=refuse end to end: a Role whose trust policy lets in an account its
// namespace is not granted, and a Queue whose access policy lets in every account, are Terminal
// (PrincipalNotGranted) naming the field, the account and the fix, and nothing is made in AWS; a
// trust policy naming only granted accounts (and AWS services) is made. Warn mode: iam.test.ts.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { GetRoleCommand, IAMClient } from "@aws-sdk/client-iam";
import type { KubeObject } from "../../src/runtime/kube-object.ts";
import { queueAttributesIn } from "../support/sqs-queues.ts";
import {
  clientAs,
  configMap,
  type E2E,
  identity,
  namespace,
  startE2E,
  waitForResourceCondition,
  waitForSynced,
} from "./fixture.ts";

const X = "111111111111";
let e2e: E2E;
let endpoint: string;

before(async () => {
  e2e = await startE2E();
  endpoint = e2e.stack.awsEndpoint ?? "";
  await e2e.apply([
    namespace("ack-system"),
    namespace("apps", { "services.k8s.aws/owner-account-id": X }),
    configMap("ack-role-account-map", { [X]: `arn:aws:iam::${X}:role/apps-x` }),
    identity("AWSControllerIdentity", "default", { allowedNamespaces: { list: ["ack-system"] } }),
  ]);
  await e2e.startController(["--ungranted-principals=refuse"]);
});
after(() => e2e?.stop());

const trust = (principal: unknown) =>
  JSON.stringify({
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Principal: principal, Action: "sts:AssumeRole" }],
  });

function role(name: string, assumeRolePolicyDocument: string): KubeObject {
  return {
    apiVersion: "iam.services.k8s.aws/v1alpha1",
    kind: "Role",
    metadata: { name, namespace: "apps" },
    spec: { name: `apps-${name}`, assumeRolePolicyDocument },
  } as KubeObject;
}

async function roleExists(name: string): Promise<boolean> {
  try {
    await (await clientAs(IAMClient, endpoint, X)).send(new GetRoleCommand({ RoleName: name }));
    return true;
  } catch (err) {
    if ((err as { name?: string }).name === "NoSuchEntityException") return false;
    throw err;
  }
}

test("refused: a trust policy letting in an account apps is not granted is Terminal, naming it, and no role is made", async () => {
  await e2e.apply([role("outsider", trust({ AWS: "333333333333" }))]);
  const r = await waitForResourceCondition(e2e.kube, "Role", "apps", "outsider", "ACK.Terminal", "True");
  const terminal = r.status?.conditions?.find((c) => c.type === "ACK.Terminal");
  assert.equal(terminal?.reason, "PrincipalNotGranted");
  assert.match(
    terminal?.message ?? "",
    /^spec\.assumeRolePolicyDocument lets in account 333333333333, which namespace apps is not granted \(the accounts it may act in: 111111111111\): nothing is done in AWS \(the controller runs with --ungranted-principals=refuse\)\. Fix: remove it/,
  );
  assert.equal(await roleExists("apps-outsider"), false);
});

test("refused: a queue policy letting in every account; made: a trust policy of granted accounts and services", async () => {
  const everyone = JSON.stringify({
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Principal: "*", Action: "sqs:SendMessage", Resource: "*" }],
  });
  await e2e.apply([
    {
      apiVersion: "sqs.services.k8s.aws/v1alpha1",
      kind: "Queue",
      metadata: { name: "open", namespace: "apps" },
      spec: { queueName: "apps-open", policy: everyone },
    } as KubeObject,
    role("inside", trust({ AWS: X, Service: "ec2.amazonaws.com" })),
  ]);
  const q = await waitForResourceCondition(e2e.kube, "Queue", "apps", "open", "ACK.Terminal", "True");
  assert.match(
    q.status?.conditions?.find((c) => c.type === "ACK.Terminal")?.message ?? "",
    /^spec\.policy lets in every AWS account \(Principal "\*" with no condition\)/,
  );
  assert.equal(await queueAttributesIn(endpoint, X, "apps-open"), undefined, "no queue made");
  await waitForSynced(e2e.kube, "Role", "apps", "inside", 1);
  assert.equal(await roleExists("apps-inside"), true);
});
