// Stable cache keys. A hop's key is a SHA-256 over a canonical JSON of everything that shapes
// its credentials: its source's key (so a chain's key covers all earlier hops), the STS region
// and endpoint, the identity and role, every session parameter, the tenant the tags are for,
// and a static identity's Secret data hash. Equal inputs give equal keys in any process; any
// change (a rotated Secret, a new external ID) gives a new key and so new credentials.
// The canonical JSON is the toolkit's (src/toolkit/canonical-json.ts).
import { createHash } from "node:crypto";
import { canonicalJson, type Json } from "../toolkit/canonical-json.ts";

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The key of a value: SHA-256 of its canonical JSON. */
export function stableHash(value: Json): string {
  return sha256Hex(canonicalJson(value));
}

/** Hash of a Secret's data, so rotating the Secret changes the key without the key holding secrets. */
export function secretDataHash(data: Readonly<Record<string, string>>): string {
  return stableHash(data);
}
