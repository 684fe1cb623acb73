// Starts crossrole's local stack (etcd + kube-apiserver + kube-controller-manager + moto, on
// loopback), installs crossrole's CRDs and runs the real controller (`crossrole run`, the flags
// scripts/main.ts uses), then writes a shell env file and waits for SIGTERM/SIGINT.
// suite.sh runs it: node_modules/.bin/node test/ack-e2e/stack.ts ENVFILE
import { writeFileSync } from "node:fs";
import {
  controllerAccount,
  region,
  startControllerProcess,
} from "../../src/local-stack/controller-process.ts";
import { installCrds } from "../../src/local-stack/install-crds.ts";
import { startStack } from "../../src/local-stack/stack.ts";
import { createKubeClient } from "../../src/runtime/kube-client.ts";

const envFile = process.argv[2];
if (!envFile) throw new Error("usage: stack.ts ENVFILE");
// moto records every request it serves (body included): what crossrole sent, e.g. the tags.
const stack = await startStack({
  controllerManager: true,
  keepDir: true,
  awsRecording: process.env["ACK_E2E_RECORD"] !== "0",
});
let stopping = false;
const controller: { stop?: () => Promise<unknown> } = {};
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  await controller.stop?.();
  await stack.stop();
  process.exit(code);
}
process.on("SIGTERM", () => void shutdown(0));
process.on("SIGINT", () => void shutdown(0));
try {
  const kube = createKubeClient(stack.kubeConfig);
  const crds = await installCrds(kube);
  // The controller's own namespace (ACK's chart installs into ack-system; crossrole keeps its
  // signing key and CARM ConfigMaps there).
  await kube.request({
    method: "POST",
    path: "/api/v1/namespaces",
    body: { apiVersion: "v1", kind: "Namespace", metadata: { name: "ack-system" } },
  });
  const ctl = await startControllerProcess(
    stack,
    (process.env["CROSSROLE_EXTRA_ARGS"] ?? "").split(" ").filter(Boolean),
    {
      logLevel: process.env["CROSSROLE_LOG_LEVEL"] ?? "debug",
      name: "crossrole",
    },
  );
  controller.stop = () => ctl.stop();
  writeFileSync(
    envFile,
    [
      `export KUBECONFIG=${stack.kubeconfigPath}`,
      `export AWS_ENDPOINT_URL=${stack.awsEndpoint}`,
      `export STACK_DIR=${stack.dir}`,
      `export CONTROLLER_LOG=${ctl.logFile}`,
      `export CONTROLLER_PID=${ctl.pid}`,
      `export CONTROLLER_ACCOUNT=${controllerAccount}`,
      `export CONTROLLER_REGION=${region}`,
      `export CRDS_INSTALLED=${crds.length}`,
      "",
    ].join("\n"),
  );
  process.stdout.write(`stack up: ${stack.dir}; controller pid ${ctl.pid}\n`);
} catch (err) {
  process.stderr.write(`stack failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  await shutdown(1);
}
setInterval(() => {}, 1 << 30);
