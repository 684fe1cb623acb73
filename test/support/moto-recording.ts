// Reads the emulator's own request recorder (moto's MOTO_ENABLE_RECORDING JSON lines), so a
// test can check what reached the emulator independently of any proxy.
import { readFile } from "node:fs/promises";

export interface MotoRecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Form fields of a query-protocol call (STS). */
  readonly params: Readonly<Record<string, string>>;
}

export async function readMotoRecording(path: string): Promise<MotoRecordedRequest[]> {
  const text = await readFile(path, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const e = JSON.parse(line) as {
        method: string;
        url: string;
        headers: Record<string, string>;
        body?: string | null;
        body_encoded?: boolean;
      };
      const body = e.body_encoded ? Buffer.from(e.body ?? "", "base64").toString("utf8") : (e.body ?? "");
      const params: Record<string, string> = {};
      for (const [k, v] of new URLSearchParams(body)) params[k] = v;
      return { method: e.method, url: e.url, headers: e.headers, params };
    });
}
