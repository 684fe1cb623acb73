// The main job on the embedded default: a local kube-apiserver + etcd and the AWS emulator,
// brought up on loopback, checked, and (until the controller lands) left running for a human
// to use with kubectl and the AWS CLI. Ctrl-C (or --once) tears everything down.
import { parseArgs } from "node:util";
import { GetCallerIdentityCommand, STSClient } from "@aws-sdk/client-sts";
import { CoreV1Api } from "@kubernetes/client-node";
import { startStack } from "../test/harness/index.ts";
import { kubeVersion, motoVersion } from "../test/harness/versions.ts";

const { values } = parseArgs({
  options: {
    once: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  process.stdout.write(
    "usage: scripts/main.sh [--once]\n  --once  tear the stack down as soon as it is up and checked\n",
  );
  process.exit(0);
}

const t0 = Date.now();
const stack = await startStack({ controllerManager: true });
let stopping = false;
async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    process.stdout.write("\nstopping the local stack ...\n");
    await stack.stop();
    process.stdout.write("stopped; nothing left running.\n");
  }
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(130));
process.on("SIGTERM", () => void shutdown(143));

try {
  const namespaces = await stack.kubeConfig.makeApiClient(CoreV1Api).listNamespace();
  const sts = new STSClient({
    region: "us-east-1",
    endpoint: stack.awsEndpoint,
    credentials: { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "local" },
  });
  const who = await sts.send(new GetCallerIdentityCommand({}));
  process.stdout.write(
    [
      `local stack up in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
      `  kube-apiserver ${kubeVersion}: ${stack.controlPlane.serverURL} (${namespaces.items.length} namespaces)`,
      `  kubeconfig:    ${stack.kubeconfigPath}`,
      `  AWS emulator:  ${stack.awsEndpoint} (moto ${motoVersion}; default credentials act in account ${who.Account})`,
      `  logs:          ${stack.dir}`,
      "",
      `  try: KUBECONFIG=${stack.kubeconfigPath} kubectl get namespaces`,
      "",
    ].join("\n"),
  );
} catch (err) {
  process.stderr.write(
    `the local stack came up but did not answer: ${err instanceof Error ? err.message : String(err)}\n`,
  );
  await shutdown(1);
}

if (values.once) await shutdown(0);
process.stdout.write("press Ctrl-C to stop\n");
