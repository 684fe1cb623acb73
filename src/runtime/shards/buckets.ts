// Namespaces fall into a fixed number of buckets, and buckets (not namespaces) are what members
// own. A bucket is a label value the apiserver can select on: each managed object carries
// `crossrole.dev/shard-bucket: <bucket of its namespace>`, and a replica's resource informers
// watch `crossrole.dev/shard-bucket in (<the buckets it owns>)`, so it caches only its shard.
// The bucket of a namespace is a pure function of its name: any replica can tell whether an
// object's label is right, so a wrong or missing label (a tenant may write any) is put right by
// whoever sees it (labeler.ts) and never decides who acts: the gate judges namespaces.
// The count is part of the wire format (every replica must agree): never change it.
import { hash } from "node:crypto";

export const shardBucketLabel = "crossrole.dev/shard-bucket";

/** Buckets in all: enough that rendezvous spreads them evenly over tens of replicas. */
export const bucketCount = 256;

/** Every bucket's label value, "0" … "255". */
export const allBuckets: readonly string[] = Array.from({ length: bucketCount }, (_, i) => String(i));

/**
 * Buckets already worked out: the gate asks for every key a worker takes and the caches for every
 * watch event, always about the same few namespaces. Started afresh past this many.
 */
const known = new Map<string, string>();
const knownAtMost = 65_536;

/** The bucket of a namespace: the first 32 bits of SHA-256(namespace), modulo the count. */
export function bucketOf(namespace: string): string {
  let bucket = known.get(namespace);
  if (bucket === undefined) {
    bucket = String(Number.parseInt(hash("sha256", namespace, "hex").slice(0, 8), 16) % bucketCount);
    if (known.size >= knownAtMost) known.clear();
    known.set(namespace, bucket);
  }
  return bucket;
}

/** A label value no bucket has: selects nothing (a member that owns no bucket yet). */
const noBucket = "none";

/** The label selector for objects in `buckets` (sorted, so equal sets give equal selectors). */
export function bucketSelector(buckets: Iterable<string>): string {
  const values = [...new Set(buckets)].sort((a, b) => Number(a) - Number(b));
  return `${shardBucketLabel} in (${values.length > 0 ? values.join(",") : noBucket})`;
}

/** The label selector for objects whose bucket label is missing or not a bucket at all. */
export const unbucketedSelector = `${shardBucketLabel} notin (${allBuckets.join(",")})`;
