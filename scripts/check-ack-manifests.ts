// Applies ACK's own e2e manifests for the served kinds, unchanged but for their `$VARIABLES`, to a
// local kube-apiserver with crossrole's CRDs, server-side with strict field validation and
// dryRun=All (nothing is stored, nothing reconciled): a manifest the apiserver refuses is a gap in
// ACK compatibility (DESIGN §2.1). A developer's tool, as scripts/ack-crd-paths.ts is: it reads the
// aws-controllers-k8s repositories from a local clone of each, at the reference releases.
//   node scripts/check-ack-manifests.ts <dir holding aws-controllers-k8s+<service>-controller/repo>
import { execFileSync } from "node:child_process";
import { parseAllDocuments } from "yaml";
import { lookupKind } from "../src/api/kinds.ts";
import { installCrds } from "../src/local-stack/install-crds.ts";
import { discoverer, pathFor } from "../src/local-stack/manifests.ts";
import { startStack } from "../src/local-stack/stack.ts";
import { createKubeClient, KubeApiError, patchTypes } from "../src/runtime/kube-client.ts";
import type { KubeObject } from "../src/runtime/kube-object.ts";
import { servedKindCatalog, servedKinds } from "../src/services/catalog.ts";

/**
 * Each ACK controller's release, as the served kinds' catalog entries name it (src/services/catalog.ts):
 * the controller is named as the kind's API group (`cloudwatchlogs`, whose model is `logs`).
 */
const releases = [
  ...new Map(
    servedKinds.map((kind) => [lookupKind(kind)?.service ?? kind, servedKindCatalog[kind].ack.release]),
  ),
];

/** What ACK's e2e tests substitute, closely enough for admission: names, ARNs, booleans. */
function substitute(text: string): string {
  const account = "111111111111";
  const values: Record<string, string> = {
    COPY_TAGS_TO_SNAPSHOT: "true",
    USE_LATEST_RESTORABLE_TIME: "true",
    ADOPTION_POLICY: "adopt",
    BUCKET_NAMESPACE: "account-regional",
    DELETION_POLICY: "delete",
    REPLICA_REGION_1: "us-west-2",
    REPLICA_REGION_2: "eu-west-1",
    REGION_NAME: "us-west-2",
    LOCATION_NAME: "us-east-1",
    MASTER_USER_PASS_SECRET_NAMESPACE: "default",
    MASTER_USER_PASS_SECRET_KEY: "password",
    RESOURCE_POLICY: '{"Version":"2012-10-17","Statement":[]}',
    // ECR's tests (test_repository.py): filters as objects, a lifecycle policy of ECR's length.
    IMAGE_TAG_MUTABILITY_EXCLUSION_FILTER_1: '{"filter": "*.dev", "filterType": "WILDCARD"}',
    IMAGE_TAG_MUTABILITY_EXCLUSION_FILTER_2: '{"filter": "*.staging", "filterType": "WILDCARD"}',
    // IAM's tests (test_role.py): a session duration in seconds.
    MAX_SESSION_DURATION: "3600",
    // EC2's tests (test_vpc.py): the VPC's flags.
    ENABLE_DNS_SUPPORT: "true",
    ENABLE_DNS_HOSTNAMES: "true",
    ENABLE_NETWORK_ADDRESS_USAGE_METRICS: "false",
    DISALLOW_DEFAULT_SECURITY_GROUP_RULE: "true",
    // EC2's tests (test_security_group.py): a rule's port range.
    FROM_PORT: "80",
    TO_PORT: "80",
    // Lambda's tests (test_function.py): numbers, and an account's role.
    RESERVED_CONCURRENT_EXECUTIONS: "0",
    ARCHITECTURES: "x86_64",
    MAXIMUM_EVENT_AGE_IN_SECONDS: "100",
    MAXIMUM_RETRY_ATTEMPTS: "1",
    EXECUTION_TIMEOUT: "60",
    RETENTION_PERIOD_IN_DAYS: "7",
    LAMBDA_ROLE: `arn:aws:iam::${account}:role/ack-e2e-lambda`,
    REPOSITORY_LIFECYCLE_POLICY:
      '{"rules":[{"rulePriority":1,"description":"Expire images older than 14 days","selection":{"tagStatus":"untagged","countType":"sinceImagePushed","countUnit":"days","countNumber":14},"action":{"type":"expire"}}]}',
  };
  return text.replace(/\$([A-Z_][A-Z0-9_]*)/g, (_m, name: string) => {
    if (values[name] !== undefined) return values[name];
    if (name.endsWith("_ARN")) return `arn:aws:iam::${account}:role/ack-e2e`;
    if (name.endsWith("_FIELDS")) return '{"name":"ack-e2e"}';
    return `ack-e2e-${name.toLowerCase().replace(/_/g, "-")}`;
  });
}

const mirror = process.argv[2];
if (mirror === undefined) {
  console.error(
    "usage: node scripts/check-ack-manifests.ts <dir with aws-controllers-k8s+<service>-controller/repo>",
  );
  process.exit(2);
}

const stack = await startStack({ aws: false });
let refused = 0;
let applied = 0;
try {
  const client = createKubeClient(stack.kubeConfig);
  await installCrds(client);
  const discover = discoverer(client);
  const namespaces = new Set(["default"]);
  const ensureNamespace = async (name: string): Promise<void> => {
    if (namespaces.has(name)) return;
    await client.request({ method: "POST", path: "/api/v1/namespaces", body: { metadata: { name } } });
    namespaces.add(name);
  };
  for (const [service, release] of releases) {
    const repo = `${mirror}/aws-controllers-k8s+${service}-controller/repo`;
    const files = execFileSync(
      "git",
      ["-C", repo, "ls-tree", "-r", "--name-only", release, "test/e2e/resources"],
      {
        encoding: "utf8",
      },
    )
      .split("\n")
      .filter((f) => f.endsWith(".yaml"));
    for (const file of files) {
      const text = substitute(
        execFileSync("git", ["-C", repo, "show", `${release}:${file}`], { encoding: "utf8" }),
      );
      for (const doc of parseAllDocuments(text)) {
        const obj = doc.toJS() as KubeObject | null;
        const known = obj?.kind === undefined ? undefined : lookupKind(obj.kind);
        if (obj === null || known === undefined || obj.apiVersion !== `${known.group}/${known.version}`)
          continue;
        const namespaced: KubeObject = {
          ...obj,
          metadata: { ...obj.metadata, namespace: obj.metadata?.namespace ?? "default" },
        };
        // ACK's e2e tests name FIFO queues and topics with the ".fifo" suffix SQS and SNS require.
        const spec = (namespaced as { spec?: Record<string, unknown> }).spec;
        if (spec !== undefined && (spec["fifoQueue"] === "true" || spec["fifoTopic"] === "true")) {
          for (const key of ["queueName", "name"])
            if (typeof spec[key] === "string") spec[key] = `${spec[key]}.fifo`;
        }
        await ensureNamespace(namespaced.metadata?.namespace ?? "default");
        const { plural } = await discover(obj.apiVersion ?? "", obj.kind ?? "");
        try {
          await client.request({
            method: "PATCH",
            path: pathFor(namespaced, plural, true, true),
            query: { fieldManager: "ack-e2e", force: true, fieldValidation: "Strict", dryRun: "All" },
            body: namespaced,
            contentType: patchTypes.apply,
          });
          applied++;
          console.log(`ok       ${service} ${release} ${file}`);
        } catch (err) {
          if (!(err instanceof KubeApiError)) throw err;
          refused++;
          console.log(`REFUSED  ${service} ${release} ${file}: ${err.message}`);
        }
      }
    }
  }
} finally {
  await stack.stop();
}
console.log(`${applied} applied, ${refused} refused`);
process.exit(refused === 0 ? 0 : 1);
