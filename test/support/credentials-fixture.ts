// Shared setup for the credentials integration tests: the controller's own keys (given
// through the environment, so the SDK default chain finds them without touching IMDS), a
// logger whose JSON lines the test can read, and small helpers.
import { GetCallerIdentityCommand, STSClient } from "@aws-sdk/client-sts";
import type { AwsCredentialIdentity } from "@smithy/types";
import { type Logger, pino } from "pino";

/** Keys the controller identity finds in its environment; moto puts them in account 123456789012. */
export const controllerKeys = {
  accessKeyId: "AKIACONTROLLER000001",
  secretAccessKey: "controller-secret-key",
} as const;

/** Makes the SDK default chain resolve to `controllerKeys` from the environment, never IMDS. */
export function useControllerEnvironment(): void {
  process.env["AWS_ACCESS_KEY_ID"] = controllerKeys.accessKeyId;
  process.env["AWS_SECRET_ACCESS_KEY"] = controllerKeys.secretAccessKey;
  delete process.env["AWS_SESSION_TOKEN"];
  delete process.env["AWS_PROFILE"];
  delete process.env["AWS_WEB_IDENTITY_TOKEN_FILE"];
  process.env["AWS_EC2_METADATA_DISABLED"] = "true";
}

export interface CapturedLog {
  readonly logger: Logger;
  /** Every line, parsed. */
  readonly lines: Record<string, unknown>[];
  /** Every line as written (to search for leaked secrets). */
  readonly raw: string[];
}

export function captureLog(): CapturedLog {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const logger = pino(
    { level: "info" },
    {
      write(line: string) {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  );
  return { logger, lines, raw };
}

/** Audit lines (one per new credentials). */
export function issued(log: CapturedLog): Record<string, unknown>[] {
  return log.lines.filter((l) => l["event"] === "credentials.issued");
}

/** GetCallerIdentity straight against the emulator, outside the code under test. */
export async function whoAmI(endpoint: string, credentials: AwsCredentialIdentity) {
  const sts = new STSClient({ region: "us-east-1", endpoint, credentials });
  try {
    return await sts.send(new GetCallerIdentityCommand({}));
  } finally {
    sts.destroy();
  }
}

/** The value of one sample of a metric in Prometheus text format (0 when absent). */
export async function metricValue(
  registry: { metrics(): Promise<string> },
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const text = await registry.metrics();
  const want = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort();
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = (m[2] ?? "").split(",").filter(Boolean).sort();
    if (want.every((w) => have.includes(w)) && have.length === want.length) return Number(m[3]);
  }
  return 0;
}
