// Finds the cluster to talk to the way kubectl does: --kubeconfig, else $KUBECONFIG (a
// path list, merged), else ~/.kube/config, else the in-cluster service account.
import { existsSync } from "node:fs";
import path from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { badInput } from "./errors.ts";

export interface KubeconfigChoice {
  readonly kubeconfig: string | undefined;
  readonly context: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

export interface LoadedKubeconfig {
  readonly kubeConfig: KubeConfig;
  /** Where it came from, for error messages. */
  readonly description: string;
}

export function loadKubeconfig(choice: KubeconfigChoice): LoadedKubeconfig {
  const files = kubeconfigFiles(choice);
  const kubeConfig = new KubeConfig();
  let description: string;
  if (files.length > 0) {
    files.forEach((file, index) => {
      const one = index === 0 ? kubeConfig : new KubeConfig();
      try {
        one.loadFromFile(file);
        // Like kubectl, the first file that sets the current context wins.
        if (index > 0) kubeConfig.mergeConfig(one, kubeConfig.getCurrentContext() !== "");
      } catch (error) {
        throw badInput(
          `kubeconfig ${file}: cannot load it (${error instanceof Error ? error.message : String(error)}).`,
        );
      }
    });
    description = `kubeconfig ${files.join(path.delimiter)}`;
  } else if (choice.env["KUBERNETES_SERVICE_HOST"] !== undefined) {
    kubeConfig.loadFromCluster();
    description = "in-cluster service account";
  } else {
    throw badInput(
      "No kubeconfig found: pass --kubeconfig <file>, set KUBECONFIG, create ~/.kube/config, " +
        "or work offline from manifests with --from <file-or-dir>.",
    );
  }
  if (choice.context !== undefined) {
    if (kubeConfig.getContextObject(choice.context) === null) {
      const known = kubeConfig.getContexts().map((c) => c.name);
      throw badInput(
        `--context ${choice.context}: no such context in ${description}. Contexts: ${known.join(", ") || "(none)"}.`,
      );
    }
    kubeConfig.setCurrentContext(choice.context);
  }
  if (kubeConfig.getCurrentCluster() === null) {
    throw badInput(`${description}: the current context names no cluster. Pick one with --context.`);
  }
  return { kubeConfig, description };
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
    const existing = files.filter((f) => existsSync(f));
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
export function contextNamespace(kubeConfig: KubeConfig): string {
  return kubeConfig.getContextObject(kubeConfig.getCurrentContext())?.namespace ?? "default";
}
