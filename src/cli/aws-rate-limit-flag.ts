// `--aws-api-rate-limit <service>=<perSecond>:<burst>`: a service's own client-side limit per
// region and account (src/credentials/aws-rate-limit.ts), parsed without loading the controller.
import type { RateLimit } from "../toolkit/token-bucket.ts";

/**
 * `--aws-api-rate-limit` values: `<service>=<perSecond>:<burst>` (`rds=10:100`), one per service.
 * Returns the map, or the first value that does not parse, with why.
 */
export function parseServiceRateLimits(
  values: readonly string[],
): { ok: true; value: Record<string, RateLimit> } | { ok: false; error: string } {
  const out: Record<string, RateLimit> = {};
  for (const v of values) {
    const m = /^([a-z0-9-]+)=(\d+(?:\.\d+)?):(\d+)$/.exec(v.trim());
    if (!m) {
      return {
        ok: false,
        error: `--aws-api-rate-limit ${JSON.stringify(v)}: write <service>=<calls per second>:<burst>, e.g. rds=10:100`,
      };
    }
    const ratePerSecond = Number(m[2]);
    const burst = Number(m[3]);
    if (!(ratePerSecond > 0) || !(burst >= 1)) {
      return {
        ok: false,
        error: `--aws-api-rate-limit ${JSON.stringify(v)}: the rate must be above 0 and the burst at least 1`,
      };
    }
    out[m[1]!] = { ratePerSecond, burst };
  }
  return { ok: true, value: out };
}
