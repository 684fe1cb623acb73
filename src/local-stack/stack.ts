// The local stack tests and humans run against: a real kube-apiserver + etcd and a real
// AWS API emulator, on loopback, in a temp dir. See README.md in this folder.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RestConfig } from "../runtime/rest-config.ts";
import { type ControlPlane, startControlPlane } from "./control-plane.ts";
import { type Emulator, startEmulator } from "./emulator.ts";

export { HarnessError } from "./process.ts";
export { waitFor } from "./wait.ts";
export type { ControlPlane, Emulator };
export { startControlPlane, startEmulator };

export interface StackOptions {
  /** Start the AWS emulator (default true). */
  readonly aws?: boolean;
  /** Record the requests the emulator serves (default false). */
  readonly awsRecording?: boolean;
  /** Also run kube-controller-manager (namespace deletion, garbage collection). */
  readonly controllerManager?: boolean;
  /** Keep the temp dir (logs, kubeconfig) after stop(); default: keep only if CROSSROLE_KEEP_STACK=1. */
  readonly keepDir?: boolean;
}

export interface Stack {
  readonly dir: string;
  readonly kubeconfigPath: string;
  readonly kubeConfig: RestConfig;
  readonly controlPlane: ControlPlane;
  readonly emulator: Emulator | undefined;
  /** The emulator's endpoint, when it runs. */
  readonly awsEndpoint: string | undefined;
  stop(): Promise<void>;
}

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const dir = await mkdtemp(join(tmpdir(), "crossrole-stack-"));
  const keep = opts.keepDir ?? process.env["CROSSROLE_KEEP_STACK"] === "1";
  const [cp, emu] = await Promise.allSettled([
    startControlPlane({ dir, controllerManager: opts.controllerManager ?? false }),
    opts.aws === false
      ? Promise.resolve(undefined)
      : startEmulator({ dir, recording: opts.awsRecording ?? false }),
  ]);
  if (cp.status === "rejected" || emu.status === "rejected") {
    if (cp.status === "fulfilled") await cp.value.stop();
    if (emu.status === "fulfilled") await emu.value?.stop();
    throw cp.status === "rejected" ? cp.reason : (emu as PromiseRejectedResult).reason;
  }
  const controlPlane = cp.value;
  const emulator = emu.value;
  let stopped = false;
  return {
    dir,
    kubeconfigPath: controlPlane.kubeconfigPath,
    kubeConfig: controlPlane.kubeConfig,
    controlPlane,
    emulator,
    awsEndpoint: emulator?.endpoint,
    async stop() {
      if (stopped) return;
      stopped = true;
      await Promise.all([controlPlane.stop(), emulator?.stop()]);
      if (!keep) await rm(dir, { recursive: true, force: true });
    },
  };
}
