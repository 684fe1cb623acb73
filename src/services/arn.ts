// ARN pieces every regional service shares. A resource's ARN is known before it exists (the
// reconciler records it with the create intent), so it is built here, not read from AWS.

/** The partition a region belongs to: `aws-cn` for China, `aws-us-gov` for GovCloud, else `aws`. */
export function partitionOf(region: string | undefined): string {
  if (region === undefined) return "aws";
  if (region.startsWith("cn-")) return "aws-cn";
  if (region.startsWith("us-gov-")) return "aws-us-gov";
  return "aws";
}
