// AWS's limits on one tag, the same on every service crossrole serves (keys 128 Unicode
// characters, values 256), and how a value crossrole makes up itself is fitted to them: the
// default tags' expanded templates (controller/default-tags.ts) and the owner tag
// `<Kind>/<namespace>/<name>` (controller/ownership.ts), which a 253-character object name
// takes past 256. A create carrying a longer value is one AWS must refuse.
import { hash } from "node:crypto";

export const awsTagKeyMaxLength = 128;
export const awsTagValueMaxLength = 256;
/** What fitTagValue ends a cut value with: "-" and this many hex characters of its SHA-256. */
const hashSuffixLength = 8;

/**
 * A tag value AWS accepts: as it is up to 256 characters; longer, its first 247 characters, "-"
 * and the first 8 hex characters of the SHA-256 of the whole value (UTF-8). The same value always
 * fits the same way, so a drift comparison that expects the fitted value never flaps, and two
 * long values that share their first 247 characters still differ. Characters are Unicode code
 * points, as AWS counts them, so a cut never splits one; the suffix is letters, digits and "-",
 * which every service's tag values allow.
 */
export function fitTagValue(value: string): string {
  const chars = [...value];
  if (chars.length <= awsTagValueMaxLength) return value;
  const digest = hash("sha256", value, "hex").slice(0, hashSuffixLength);
  return `${chars.slice(0, awsTagValueMaxLength - hashSuffixLength - 1).join("")}-${digest}`;
}
