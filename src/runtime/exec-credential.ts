// client-go exec credential plugins (`users[].user.exec` in a kubeconfig, e.g. `aws eks
// get-token`, `gke-gcloud-auth-plugin`, `kubelogin`): run the command with KUBERNETES_EXEC_INFO,
// read the ExecCredential it prints. Never interactive: stdin is closed.
import { execFile } from "node:child_process";
import path from "node:path";
import type { ExecConfig, RestConfig } from "./rest-config.ts";

export interface ExecCredential {
  readonly token?: string;
  /** PEM client certificate and key, when the plugin hands out mutual-TLS credentials. */
  readonly cert?: string;
  readonly key?: string;
  /** When to run the plugin again (ms since the epoch); never when absent. */
  readonly expiresAt?: number;
}

/** Runs `exec`'s command (relative commands with a path are found next to the kubeconfig). */
export async function runExecPlugin(
  exec: ExecConfig,
  cluster: Pick<RestConfig, "server" | "tls">,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<ExecCredential> {
  const command =
    exec.baseDir !== undefined && exec.command.includes("/") && !path.isAbsolute(exec.command)
      ? path.resolve(exec.baseDir, exec.command)
      : exec.command;
  const info = {
    apiVersion: exec.apiVersion,
    kind: "ExecCredential",
    spec: {
      interactive: false,
      ...(exec.provideClusterInfo
        ? {
            cluster: {
              server: cluster.server,
              ...(cluster.tls.ca
                ? { "certificate-authority-data": Buffer.from(cluster.tls.ca).toString("base64") }
                : {}),
              ...(cluster.tls.insecureSkipTLSVerify ? { "insecure-skip-tls-verify": true } : {}),
              ...(cluster.tls.serverName ? { "tls-server-name": cluster.tls.serverName } : {}),
            },
          }
        : {}),
    },
  };
  const childEnv: Record<string, string | undefined> = { ...env, KUBERNETES_EXEC_INFO: JSON.stringify(info) };
  for (const { name, value } of exec.env) childEnv[name] = value;
  const what = `exec credential plugin ${exec.command}`;
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = execFile(
      command,
      [...exec.args],
      { env: childEnv, timeout: 120_000, maxBuffer: 4 * 1024 * 1024, encoding: "utf8" },
      (err, out, stderr) => {
        if (!err) return resolve(out);
        const code = (err as NodeJS.ErrnoException).code;
        if (code === "ENOENT") {
          return reject(
            new Error(
              `${what}: command not found.${exec.installHint ? ` ${exec.installHint.trim()}` : " Install it or fix the kubeconfig's exec.command."}`,
            ),
          );
        }
        const tail = stderr.trim().split("\n").slice(-5).join("\n");
        reject(new Error(`${what} failed (${err.message.split("\n")[0]})${tail ? `: ${tail}` : ""}`));
      },
    );
    child.stdin?.end();
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    throw new Error(`${what} printed no ExecCredential JSON: ${stdout.slice(0, 200)}`);
  }
  const status = (parsed as { status?: Record<string, unknown> } | null)?.status ?? {};
  const str = (k: string) => (typeof status[k] === "string" && status[k] !== "" ? status[k] : undefined);
  const token = str("token");
  const cert = str("clientCertificateData");
  const key = str("clientKeyData");
  if (token === undefined && (cert === undefined || key === undefined)) {
    throw new Error(`${what} returned neither a token nor a client certificate and key.`);
  }
  const expiration = str("expirationTimestamp");
  const expiresAt = expiration === undefined ? undefined : Date.parse(expiration);
  return {
    ...(token !== undefined ? { token } : {}),
    ...(cert !== undefined && key !== undefined ? { cert, key } : {}),
    ...(expiresAt !== undefined && Number.isFinite(expiresAt) ? { expiresAt } : {}),
  };
}
