// Finds the cluster to talk to the way kubectl does: --kubeconfig, else $KUBECONFIG (a
// path list, merged), else ~/.kube/config, else the in-cluster service account. Parsing and
// resolving are the runtime's (src/runtime/kubeconfig.ts, in-cluster.ts); a kubeconfig that
// cannot be used is bad input whose message names the file, the entry and the fix.
import { existsSync } from "node:fs";
import path from "node:path";
import { inClusterConfig } from "../runtime/in-cluster.ts";
import { loadKubeconfigFiles } from "../runtime/kubeconfig.ts";
import { KubeconfigError, type RestConfig } from "../runtime/rest-config.ts";
import { badInput } from "./errors.ts";

export interface KubeconfigChoice {
  readonly kubeconfig: string | undefined;
  readonly context: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

export interface LoadedKubeconfig {
  readonly kubeConfig: RestConfig;
  /** Where it came from, for error messages. */
  readonly description: string;
}

export function loadKubeconfig(choice: KubeconfigChoice): LoadedKubeconfig {
  const files = kubeconfigFiles(choice);
  try {
    if (files.length > 0) {
      const kubeConfig = loadKubeconfigFiles(
        files,
        choice.context !== undefined ? { context: choice.context } : {},
      );
      return { kubeConfig, description: kubeConfig.source };
    }
    if (choice.env["KUBERNETES_SERVICE_HOST"] !== undefined) {
      if (choice.context !== undefined) {
        throw badInput(`--context ${choice.context}: there is no kubeconfig to pick it from (in-cluster).`);
      }
      const kubeConfig = inClusterConfig({ env: choice.env });
      return { kubeConfig, description: kubeConfig.source };
    }
  } catch (error) {
    if (error instanceof KubeconfigError) throw badInput(error.message);
    throw error;
  }
  throw badInput(
    "No kubeconfig found: pass --kubeconfig <file>, set KUBECONFIG, create ~/.kube/config, " +
      "or work offline from manifests with --from <file-or-dir>.",
  );
}

function kubeconfigFiles(choice: KubeconfigChoice): string[] {
  if (choice.kubeconfig !== undefined) {
    const file = path.resolve(choice.cwd, choice.kubeconfig);
    if (!existsSync(file)) throw badInput(`--kubeconfig ${choice.kubeconfig}: no such file.`);
    return [file];
  }
  const fromEnv = choice.env["KUBECONFIG"];
  if (fromEnv !== undefined && fromEnv !== "") {
    const files = fromEnv
      .split(path.delimiter)
      .filter((f) => f !== "")
      .map((f) => path.resolve(choice.cwd, f));
    // kubectl skips the files of the list that do not exist.
    const existing = [...new Set(files.filter((f) => existsSync(f)))];
    if (existing.length === 0) throw badInput(`KUBECONFIG=${fromEnv}: none of these files exists.`);
    return existing;
  }
  const home = choice.env["HOME"] ?? choice.env["USERPROFILE"];
  if (home !== undefined) {
    const file = path.join(home, ".kube", "config");
    if (existsSync(file)) return [file];
  }
  return [];
}

/** The namespace of the current context (kubectl's default for -n), else "default". */
export function contextNamespace(kubeConfig: RestConfig): string {
  return kubeConfig.namespace ?? "default";
}
