// Whether AWS knows a decision's region (DESIGN §3.1 step 4). A region is only checked for its
// form (src/api/validation.ts), so `mars-north-1` is accepted, reconciles against an emulator,
// and would fail against AWS later with an endpoint error that names no cause. The AWS SDK's own
// partition data (aws-partitions.ts, generated from the SDK) lists the regions that exist; a
// region it does not list is warned about, never refused: AWS opens new regions, and one newer
// than the SDK still works.

import { type AwsPartition, awsPartitions } from "./aws-partitions.ts";

/** What the partition data says of a region. */
export type RegionStanding =
  /** A partition lists it. */
  | { readonly kind: "listed"; readonly partition: string }
  /** No partition lists it, but it has the form of one partition's regions (a newer region, or a typo). */
  | { readonly kind: "pattern"; readonly partition: AwsPartition }
  /** No partition lists it or has regions of its form. */
  | { readonly kind: "unknown" };

/** Partition data ready for lookups: built once per data set. */
export interface RegionIndex {
  readonly partitions: readonly AwsPartition[];
  readonly listed: ReadonlyMap<string, string>;
  readonly patterns: readonly { readonly partition: AwsPartition; readonly regex: RegExp }[];
}

export function indexPartitions(partitions: readonly AwsPartition[]): RegionIndex {
  const listed = new Map<string, string>();
  for (const p of partitions) for (const r of p.regions) listed.set(r, p.id);
  return {
    partitions,
    listed,
    patterns: partitions.map((partition) => ({ partition, regex: new RegExp(partition.regionRegex) })),
  };
}

/** The SDK's partitions, indexed once: decisions are taken for every resource on every change. */
const sdkRegions = indexPartitions(awsPartitions);

export function regionStanding(region: string, index: RegionIndex = sdkRegions): RegionStanding {
  const listedIn = index.listed.get(region);
  if (listedIn !== undefined) return { kind: "listed", partition: listedIn };
  const match = index.patterns.find((p) => p.regex.test(region));
  return match === undefined ? { kind: "unknown" } : { kind: "pattern", partition: match.partition };
}

/** The partition a region belongs to (`aws`, `aws-cn`, `aws-us-gov`, ...); `aws` when none claims it. */
export function partitionOf(region: string, index: RegionIndex = sdkRegions): string {
  const standing = regionStanding(region, index);
  if (standing.kind === "listed") return standing.partition;
  if (standing.kind === "pattern") return standing.partition.id;
  return "aws";
}

/**
 * The warning for a region the partition data does not list, naming the pattern known regions
 * follow and where the region came from (`from`); undefined for a listed region.
 */
export function unknownRegionWarning(
  region: string,
  from: string,
  index: RegionIndex = sdkRegions,
): string | undefined {
  const standing = regionStanding(region, index);
  const notBlocked = "it is not blocked, since AWS opens new regions";
  switch (standing.kind) {
    case "listed":
      return undefined;
    case "pattern":
      return `region ${region} (${from}) has the form of AWS partition ${standing.partition.id}'s regions (${standing.partition.regionRegex}) but is not one the AWS SDK lists; unless AWS opened it after this crossrole was built, calls there will fail against AWS: check the spelling (${notBlocked})`;
    case "unknown": {
      const patterns = index.partitions.map((p) => `${p.id} ${p.regionRegex}`).join(", ");
      return `region ${region} (${from}) is not known to any AWS partition: known regions follow ${patterns}, and calls there will fail against AWS; check the spelling (${notBlocked})`;
    }
  }
}
