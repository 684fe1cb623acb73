// Running the helm binary on the chart (helm/crossrole/): `npm run generate` renders
// config/default/ with it, and the chart tests lint and render it. The binary is the pinned
// build from scripts/build-helm.sh; callers pass its path.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CommandResult, runToCompletion } from "./process.ts";

export type HelmResult = CommandResult;

/**
 * Runs `helm <args>` with its state (cache, config, data) in a temp dir; never throws on a
 * non-zero exit. Without `kubeconfig` helm sees no cluster (template and lint need none).
 */
export async function runHelm(
  helm: string,
  args: readonly string[],
  kubeconfig?: string,
): Promise<HelmResult> {
  const home = await mkdtemp(join(tmpdir(), "crossrole-helm-"));
  try {
    return await runToCompletion(helm, args, {
      env: {
        PATH: process.env["PATH"] ?? "/usr/bin:/bin",
        HOME: home,
        HELM_CACHE_HOME: join(home, "cache"),
        HELM_CONFIG_HOME: join(home, "config"),
        HELM_DATA_HOME: join(home, "data"),
        // No cluster: template and lint use the Kubernetes version helm was built for.
        KUBECONFIG: kubeconfig ?? join(home, "no-kubeconfig"),
      },
    });
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

export interface RenderOptions {
  readonly release?: string;
  readonly namespace?: string;
  /** Values, as a `-f` file. */
  readonly values?: Readonly<Record<string, unknown>>;
  /** Also print the chart's crds/ (helm template --include-crds). */
  readonly includeCrds?: boolean;
}

/** The args of `helm <command>` for a chart with values (lint and template share them). */
async function withValues<T>(
  values: Readonly<Record<string, unknown>> | undefined,
  run: (valueArgs: readonly string[]) => Promise<T>,
): Promise<T> {
  if (values === undefined) return run([]);
  const dir = await mkdtemp(join(tmpdir(), "crossrole-values-"));
  try {
    const file = join(dir, "values.yaml");
    await writeFile(file, JSON.stringify(values));
    return await run(["-f", file]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `helm template`: resolves with the result (check `code`; stderr says what is wrong). */
export function helmTemplate(helm: string, chart: string, opts: RenderOptions = {}): Promise<HelmResult> {
  return withValues(opts.values, (valueArgs) =>
    runHelm(helm, [
      "template",
      opts.release ?? "crossrole",
      chart,
      "--namespace",
      opts.namespace ?? "ack-system",
      ...(opts.includeCrds ? ["--include-crds"] : []),
      ...valueArgs,
    ]),
  );
}

/** `helm lint --strict` (warnings fail too). */
export function helmLint(
  helm: string,
  chart: string,
  opts: Pick<RenderOptions, "namespace" | "values"> = {},
): Promise<HelmResult> {
  return withValues(opts.values, (valueArgs) =>
    runHelm(helm, ["lint", "--strict", chart, "--namespace", opts.namespace ?? "ack-system", ...valueArgs]),
  );
}
