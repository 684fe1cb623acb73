// The main job on the embedded default: a local kube-apiserver + etcd and the AWS emulator on
// loopback, crossrole's CRDs, the real controller process (`crossrole run`), and Alice's story
// (examples/alice) applied to it. For each resource (buckets, her queue, her database) it prints
// the account it landed in (as the emulator answers, asked with each account's own
// credentials), the role used, and the summary `crossrole explain` gives. Then the stack stays up for a human (Ctrl-C stops it), or
// with --once it is torn down at once.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DescribeDBInstancesCommand, RDSClient } from "@aws-sdk/client-rds";
import { type KindName, lookupKind } from "../src/api/kinds.ts";
import { runCli } from "../src/cli/main.ts";
import { referenceWaitReasons } from "../src/controller/references.ts";
import { accountsHoldingResource, credentialsFor } from "../src/local-stack/accounts.ts";
import {
  type ControllerProcess,
  controllerAccount,
  controllerCredentials,
  region,
  startControllerProcess,
} from "../src/local-stack/controller-process.ts";
import { fillExamplePlaceholders } from "../src/local-stack/example-placeholders.ts";
import { installCrds } from "../src/local-stack/install-crds.ts";
import { applyObjects, readManifests } from "../src/local-stack/manifests.ts";
import { startStack, waitFor } from "../src/local-stack/stack.ts";
import { binaries, kubeVersion, motoVersion, repoRoot } from "../src/local-stack/versions.ts";
import { createKubeClient } from "../src/runtime/kube-client.ts";
import type { KubeObject } from "../src/runtime/kube-object.ts";
import { servedKindCatalog } from "../src/services/catalog.ts";
import { isServed } from "../src/services/served.ts";

const { values } = parseArgs({
  options: {
    once: { type: "boolean", default: false },
    example: { type: "string", default: join(repoRoot, "examples/alice") },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  process.stdout.write(
    "usage: scripts/main.sh [--once] [--example <dir>]\n  --once     tear the stack down as soon as the demo is done\n  --example  manifests to apply (default examples/alice)\n",
  );
  process.exit(0);
}

type Resource = KubeObject & {
  spec?: Record<string, unknown>;
  status?: {
    ackResourceMetadata?: {
      ownerAccountID?: string;
      region?: string;
      identity?: { roleARN?: string | null; source?: string };
    };
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
  };
};

/** Where a DB instance sits, as its own account's RDS answers: subnet group and VPC. */
async function networkOf(endpoint: string, account: string, identifier: string, inRegion: string) {
  const rds = new RDSClient({
    region: inRegion,
    endpoint,
    credentials: await credentialsFor(endpoint, account),
  });
  const out = await rds.send(new DescribeDBInstancesCommand({ DBInstanceIdentifier: identifier }));
  const instance = out.DBInstances?.[0];
  const group = instance?.DBSubnetGroup;
  const guards = (instance?.VpcSecurityGroups ?? []).map((g) => g.VpcSecurityGroupId).join(", ");
  return `${
    group?.DBSubnetGroupName
      ? `DB subnet group ${group.DBSubnetGroupName} in ${group.VpcId} over ${(group.Subnets ?? []).map((s) => s.SubnetIdentifier).join(", ")}`
      : "no DB subnet group (the account's default VPC)"
  }${guards === "" ? "" : `, behind security group ${guards}`}`;
}

const say = (line = "") => process.stdout.write(`${line}\n`);
const t0 = Date.now();
const seconds = () => ((Date.now() - t0) / 1000).toFixed(1);

// kube-controller-manager (namespace deletion, garbage collection) when it is built: a first run
// builds only kube-apiserver and etcd (scripts/ensure-deps.sh main), the tests build the rest.
const stack = await startStack({ controllerManager: existsSync(binaries.kubeControllerManager) });
let controller: ControllerProcess | undefined;
let stopping = false;
async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    say("\nstopping the controller and the local stack ...");
    await controller?.stop();
    await stack.stop();
    say("stopped; nothing left running.");
  }
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(130));
process.on("SIGTERM", () => void shutdown(143));

try {
  const endpoint = stack.awsEndpoint ?? "";
  say(`local stack up in ${seconds()} s`);
  say(`  kube-apiserver ${kubeVersion}: ${stack.controlPlane.serverURL}`);
  say(`  kubeconfig:    ${stack.kubeconfigPath}`);
  say(
    `  AWS emulator:  ${endpoint} (moto ${motoVersion}; the controller's own credentials act in ${controllerAccount})`,
  );

  const kube = createKubeClient(stack.kubeConfig);
  const crds = await installCrds(kube);
  say(`installed ${crds.length} CRDs (${seconds()} s)`);
  // The example names central IT's subnets by placeholder: the emulator's are random.
  const objects = await fillExamplePlaceholders(await readManifests(values.example), endpoint);
  await applyObjects(kube, objects);
  say(`applied ${objects.length} objects from ${values.example}`);

  controller = await startControllerProcess(stack, [], { logLevel: "info", name: "crossrole" });
  say(`crossrole run is up (pid ${controller.pid}; logs ${controller.logFile}) at ${seconds()} s`);

  // A served kind in its own API group (a core Secret is no Secrets Manager Secret).
  const resources = objects.filter((o) => {
    const kind = lookupKind(o.kind ?? "");
    return isServed(o.kind ?? "") && kind !== undefined && o.apiVersion === `${kind.group}/${kind.version}`;
  });
  const accounts = [controllerAccount, ...new Set(JSON.stringify(objects).match(/\b\d{12}\b/g) ?? [])].filter(
    (a, i, all) => all.indexOf(a) === i,
  );
  say();
  for (const r of resources) {
    const kind = lookupKind(r.kind ?? "");
    if (!kind) continue;
    const ns = r.metadata.namespace ?? "default";
    const path = `/apis/${kind.group}/${kind.version}/namespaces/${ns}/${kind.plural}/${r.metadata.name}`;
    // Wait for the controller's verdict: synced, or a recoverable/terminal condition.
    const current = await waitFor(
      async () => {
        const o = await kube.request<Resource>({ method: "GET", path });
        const settled = o.status?.conditions?.some(
          (c) =>
            (c.type === "ACK.ResourceSynced" && c.status === "True") ||
            (c.type === "ACK.Terminal" && c.status === "True") ||
            // Waiting for a referenced object (the database for its subnet group) is not a verdict.
            (c.type === "ACK.Recoverable" &&
              c.status === "True" &&
              !referenceWaitReasons.has(c.reason ?? "")),
        );
        return settled ? o : undefined;
      },
      { what: `${r.kind} ${ns}/${r.metadata.name} to settle`, timeoutMs: 60_000 },
    );
    const meta = current.status?.ackResourceMetadata;
    // The spec field holding the AWS name is the module's (spec.name, spec.queueName, ...).
    const entry = isServed(r.kind ?? "") ? servedKindCatalog[r.kind as KindName] : undefined;
    const module = await entry?.module();
    const field = module?.identifierField.slice("spec.".length);
    // An object AWS named (a KMS key, a security group) by the ID its status records.
    const assigned = module?.assigned;
    const name =
      assigned === undefined
        ? String(current.spec?.[field ?? "name"] ?? r.metadata.name)
        : String((current.status as Record<string, unknown> | undefined)?.[assigned.statusField] ?? "");
    const holders = await accountsHoldingResource(
      endpoint,
      r.kind ?? "",
      name,
      meta?.region ?? region,
      accounts,
    );
    const blocking = current.status?.conditions?.find(
      (c) => (c.type === "ACK.Recoverable" || c.type === "ACK.Terminal") && c.status === "True",
    );
    say(`${r.kind} ${ns}/${r.metadata.name}`);
    say(
      `  in AWS:   ${holders.length === 0 ? "in no account (nothing was created)" : `account ${holders.join(", ")} (verified in the emulator)`}`,
    );
    if (meta?.ownerAccountID) {
      say(
        `  role:     ${meta.identity?.roleARN ?? "the controller's own credentials"} (${meta.identity?.source}), region ${meta.region}`,
      );
    }
    if (blocking) say(`  status:   ${blocking.type} ${blocking.reason}`);
    if (r.kind === "DBInstance" && holders[0])
      say(`  network:  ${await networkOf(endpoint, holders[0], name, meta?.region ?? region)}`);
    let explained = "";
    await runCli(
      [
        "explain",
        `${kind.singular}/${r.metadata.name}`,
        "-n",
        ns,
        `--kubeconfig=${stack.kubeconfigPath}`,
        `--aws-endpoint-url=${endpoint}`,
        `--aws-region=${region}`,
      ],
      {
        stdout: (t) => {
          explained += t;
        },
        stderr: (t) => {
          explained += t;
        },
        env: {
          ...process.env,
          AWS_ACCESS_KEY_ID: controllerCredentials.accessKeyId,
          AWS_SECRET_ACCESS_KEY: controllerCredentials.secretAccessKey,
          AWS_EC2_METADATA_DISABLED: "true",
        },
        cwd: process.cwd(),
      },
    );
    say(`  explain:  ${explained.split("\n")[0]}`);
    say();
  }
  say(`done in ${seconds()} s.`);
  say(
    `try: npx crossrole explain bucket/shop-billing-exports -n shop --kubeconfig ${stack.kubeconfigPath} --aws-endpoint-url ${endpoint}`,
  );
  // The pinned kubectl once the tests built it (same version, same cache); else the user's own.
  const kubectl = existsSync(binaries.kubectl) ? binaries.kubectl : "kubectl";
  say(`     KUBECONFIG=${stack.kubeconfigPath} ${kubectl} get buckets,queues,dbsubnetgroups,dbinstances -A`);
} catch (err) {
  process.stderr.write(`the main job failed: ${err instanceof Error ? err.message : String(err)}\n`);
  await shutdown(1);
}

if (values.once) await shutdown(0);
say("press Ctrl-C to stop");
