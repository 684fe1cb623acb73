// Every served kind's observed state, written back as the reconciler writes it, against the real
// kube-apiserver with the CRDs generated from the kinds' schemas: for AWS objects with the values
// AWS hands back (test/support/awkward-aws-objects.ts, made in the emulator and read with the
// kind's own module), the late-initialised spec, the spec a strict adoption writes, and the
// status are each sent to the apiserver. What the apiserver stores must be what was sent (nothing
// pruned), the controller's own check (src/controller/write-check.ts) must say exactly what the
// apiserver says, and every realistic state must be recordable — a value it cannot record is
// refused by both, so the controller reports it instead of sending it (issue 19, item 6).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { CloudWatchLogsClient } from "@aws-sdk/client-cloudwatch-logs";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { EC2Client } from "@aws-sdk/client-ec2";
import { ECRClient } from "@aws-sdk/client-ecr";
import { IAMClient } from "@aws-sdk/client-iam";
import { KMSClient } from "@aws-sdk/client-kms";
import { LambdaClient } from "@aws-sdk/client-lambda";
import { RDSClient } from "@aws-sdk/client-rds";
import { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { SNSClient } from "@aws-sdk/client-sns";
import { SQSClient } from "@aws-sdk/client-sqs";
import { lookupKind } from "../../src/api/kinds.ts";
import { nextConditions } from "../../src/controller/ack-conditions.ts";
import { asStored, checkSpecWrite, checkStatusWrite } from "../../src/controller/write-check.ts";
import { clientAs, s3As } from "../../src/local-stack/accounts.ts";
import { installCrds } from "../../src/local-stack/install-crds.ts";
import { type Stack, startStack } from "../../src/local-stack/stack.ts";
import {
  createKubeClient,
  KubeApiError,
  type KubeClient,
  patchTypes,
} from "../../src/runtime/kube-client.ts";
import { type AnyServiceModule, servedKindCatalog } from "../../src/services/catalog.ts";
import { type AwkwardCase, awkwardCases, region } from "../support/awkward-aws-objects.ts";
import { kindMakers } from "../support/minimal-resources.ts";

const account = "111111111111";
const namespace = "writeback";

let stack: Stack;
let kube: KubeClient;
let endpoint: string;

before(async () => {
  stack = await startStack();
  kube = createKubeClient(stack.kubeConfig);
  endpoint = stack.awsEndpoint ?? "";
  await installCrds(kube);
  await kube.request({
    method: "POST",
    path: "/api/v1/namespaces",
    body: { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } },
  });
});
after(() => stack?.stop());

/** The client each module's CRUD takes, acting as `account` itself. */
const clientFor: Readonly<Record<string, () => Promise<unknown>>> = {
  Bucket: async () => ({ sdk: await s3As(endpoint, account), region }),
  Topic: async () => ({ sdk: await clientAs(SNSClient, endpoint, account), account, region }),
  Queue: async () => ({ sdk: await clientAs(SQSClient, endpoint, account), region }),
  Table: async () => ({ sdk: await clientAs(DynamoDBClient, endpoint, account), region }),
  DBInstance: async () => ({ sdk: await clientAs(RDSClient, endpoint, account), region }),
  DBSubnetGroup: async () => ({ sdk: await clientAs(RDSClient, endpoint, account), region }),
  DBParameterGroup: async () => ({ sdk: await clientAs(RDSClient, endpoint, account), region }),
  DBCluster: async () => ({ sdk: await clientAs(RDSClient, endpoint, account), region }),
  DBClusterParameterGroup: async () => ({ sdk: await clientAs(RDSClient, endpoint, account), region }),
  Repository: async () => ({ sdk: await clientAs(ECRClient, endpoint, account), account, region }),
  LogGroup: async () => ({ sdk: await clientAs(CloudWatchLogsClient, endpoint, account), account, region }),
  Role: async () => ({ sdk: await clientAs(IAMClient, endpoint, account), account, region }),
  Policy: async () => ({ sdk: await clientAs(IAMClient, endpoint, account), account, region }),
  Secret: async () => ({ sdk: await clientAs(SecretsManagerClient, endpoint, account), account, region }),
  Key: async () => ({ sdk: await clientAs(KMSClient, endpoint, account), account, region }),
  Alias: async () => ({ sdk: await clientAs(KMSClient, endpoint, account), account, region }),
  VPC: async () => ({ sdk: await clientAs(EC2Client, endpoint, account), account, region }),
  Subnet: async () => ({ sdk: await clientAs(EC2Client, endpoint, account), account, region }),
  SecurityGroup: async () => ({ sdk: await clientAs(EC2Client, endpoint, account), account, region }),
  Function: async () => ({ sdk: await clientAs(LambdaClient, endpoint, account), account, region }),
};

type Obj = Record<string, unknown>;

function collection(kindName: string): string {
  const k = lookupKind(kindName);
  if (!k) throw new Error(`no kind ${kindName}`);
  return `/apis/${k.group}/${k.version}/namespaces/${namespace}/${k.plural}`;
}

async function create(kindName: string, name: string, spec: unknown): Promise<Obj> {
  const k = lookupKind(kindName);
  return kube.request<Obj>({
    method: "POST",
    path: collection(kindName),
    body: {
      apiVersion: `${k?.group}/${k?.version}`,
      kind: kindName,
      metadata: { name },
      spec: asStored(spec),
    },
  });
}

/** What the apiserver answered a write: the stored object, or its refusal (422). */
type Verdict =
  | { readonly accepted: true; readonly stored: Obj }
  | { readonly accepted: false; readonly why: string };

async function verdictOf(write: () => Promise<Obj>): Promise<Verdict> {
  try {
    return { accepted: true, stored: await write() };
  } catch (err) {
    if (err instanceof KubeApiError && err.status === 422) return { accepted: false, why: err.message };
    throw err;
  }
}

/** The apiserver and the controller's check agree; an accepted write is stored as sent. */
function agree(
  what: string,
  verdict: Verdict,
  refusal: { readonly message: string } | undefined,
  sent: unknown,
  stored: (o: Obj) => unknown,
): void {
  const why = verdict.accepted ? "" : verdict.why;
  assert.equal(
    verdict.accepted,
    refusal === undefined,
    `${what}: the apiserver ${verdict.accepted ? "accepted" : `refused (${why})`} what the controller's check ${refusal ? `refused (${refusal.message})` : "accepted"}`,
  );
  if (verdict.accepted)
    assert.deepEqual(stored(verdict.stored), sent, `${what}: stored as sent, nothing pruned`);
}

const serviceModules: AnyServiceModule[] = await Promise.all(
  Object.values(servedKindCatalog).map((k) => k.module()),
);
for (const module of serviceModules) {
  const kindName = module.kind.kind;
  describe(`${kindName}: what the controller writes back for what AWS hands back`, () => {
    const cases: readonly AwkwardCase[] = awkwardCases[kindName] ?? [];

    test("has cases (a new kind adds them to test/support/awkward-aws-objects.ts)", () => {
      assert.ok(cases.length > 0);
      assert.ok(clientFor[kindName], `a client for ${kindName}`);
    });

    cases.forEach((c, i) => {
      test(c.title, async () => {
        const base = `wb-${kindName.toLowerCase()}-${i}`;
        const awsName = c.name?.(base) ?? base;
        const madeId = await c.make(endpoint, account, awsName);
        const parsed = module.parseSpec({ ...kindMakers[kindName]?.spec(awsName, account), ...c.spec });
        assert.ok(parsed.ok, parsed.ok ? "" : parsed.message);
        const spec = parsed.value;
        const client = await clientFor[kindName]?.();
        // A kind named by the ID AWS assigned (a KMS key): the module's calls take the ID the
        // case's make answered; what is written back is the user's spec, which never holds it.
        const named =
          module.assigned !== undefined && typeof madeId === "string"
            ? module.assigned.withId(spec, madeId)
            : spec;
        const observation = await module.read(client, named, {});
        assert.ok(observation.found, `${awsName} read back`);
        const observed = c.answer ? c.answer(observation.observed) : observation.observed;
        const recordable = c.recordable ?? true;

        // Late initialisation: a merge patch of the spec with AWS's values filled in.
        const late = module.lateInitialize(spec, observed);
        const lateRefusal = checkSpecWrite({
          kind: kindName,
          parseSpec: module.parseSpec,
          current: spec,
          next: late.spec,
          filled: late.initialized,
          strictAdoption: false,
        });
        await create(kindName, `${base}-late`, spec);
        const lateVerdict = await verdictOf(() =>
          kube.request<Obj>({
            method: "PATCH",
            path: `${collection(kindName)}/${base}-late`,
            contentType: patchTypes.merge,
            body: { spec: asStored(late.spec) },
          }),
        );
        agree("late initialisation", lateVerdict, lateRefusal, asStored(late.spec), (o) => o["spec"]);
        assert.equal(lateRefusal === undefined, recordable, lateRefusal?.message ?? "recorded");

        // A strict adoption: the spec becomes AWS's, then late-initialised.
        const adopted = module.lateInitialize(module.specFromObserved(observed, spec), observed);
        const adoptRefusal = checkSpecWrite({
          kind: kindName,
          parseSpec: module.parseSpec,
          current: spec,
          next: adopted.spec,
          filled: adopted.initialized,
          strictAdoption: true,
        });
        const adoptVerdict = await verdictOf(() => create(kindName, `${base}-adopt`, adopted.spec));
        agree("strict adoption", adoptVerdict, adoptRefusal, asStored(adopted.spec), (o) => o["spec"]);
        assert.equal(adoptRefusal === undefined, recordable, adoptRefusal?.message ?? "recorded");

        // Status: conditions, ackResourceMetadata and the kind's own fields, as one merge patch.
        const status = {
          conditions: nextConditions(undefined, { kind: "synced" }, null, 1, new Date()),
          ackResourceMetadata: {
            arn: module.arn(named, region, account),
            ownerAccountID: account,
            region,
            identity: { source: "default", roleARN: null, sessionName: null },
          },
          ...module.statusFrom?.(observed),
          intent: null,
        };
        const statusRefusal = checkStatusWrite({ kind: kindName, parseStatus: module.parseStatus, status });
        await create(kindName, `${base}-status`, spec);
        const statusVerdict = await verdictOf(() =>
          kube.request<Obj>({
            method: "PATCH",
            path: `${collection(kindName)}/${base}-status/status`,
            contentType: patchTypes.merge,
            body: { status },
          }),
        );
        agree("status", statusVerdict, statusRefusal, asStored(status), (o) => o["status"]);
        assert.equal(statusRefusal, undefined, "what AWS reports is always recorded in status");
      });
    });
  });
}
