// Pinned component versions and where their cached builds live. The versions come from
// scripts/versions.env, which the install scripts also read: one place to change them.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

function readVersions(): Record<string, string> {
  const text = readFileSync(join(repoRoot, "scripts/versions.env"), "utf8");
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const m = /^([A-Z_]+)=(\S+)$/.exec(line.trim());
    if (m?.[1] && m[2]) out[m[1]] = m[2];
  }
  return out;
}

const versions = readVersions();
function version(name: string): string {
  const v = versions[name];
  if (!v) throw new Error(`scripts/versions.env does not define ${name}`);
  return v;
}

export const kubeVersion = version("KUBE_VERSION");
export const etcdVersion = version("ETCD_VERSION");
export const motoVersion = version("MOTO_VERSION");
export const helmVersion = version("HELM_VERSION");

export const cacheDir = process.env["CROSSROLE_CACHE"] ?? join(homedir(), ".cache", "crossrole");

/**
 * A cached build: the optimised one the tests build, else the unoptimised one the main job's
 * first run builds (`build-control-plane.sh main`); the optimised path when neither is there, so
 * the error names what the tests expect.
 */
function cachedBuild(name: string): string {
  const optimised = join(cacheDir, "bin", name);
  const quick = `${optimised}-noopt`;
  return !existsSync(optimised) && existsSync(quick) ? quick : optimised;
}

export const binaries = {
  etcd: cachedBuild(`etcd-${etcdVersion}`),
  kubeApiserver: cachedBuild(`kube-apiserver-${kubeVersion}`),
  kubeControllerManager: join(cacheDir, "bin", `kube-controller-manager-${kubeVersion}`),
  kubectl: join(cacheDir, "bin", `kubectl-${kubeVersion}`),
  motoServer: join(cacheDir, `moto-${motoVersion}`, "bin", "moto_server"),
  helm: join(cacheDir, "bin", `helm-${helmVersion}`),
};

/**
 * The pinned helm binary (scripts/build-helm.sh builds it); throws, saying how to build it, when
 * it is missing: tests that need helm fail loudly rather than skip.
 */
export function helmBinary(): string {
  if (!existsSync(binaries.helm)) {
    throw new Error(
      `helm ${helmVersion} is not built (expected ${binaries.helm}); run scripts/build-helm.sh or scripts/ensure-deps.sh`,
    );
  }
  return binaries.helm;
}
