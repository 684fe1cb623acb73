// ARN pieces every regional service shares. A resource's ARN is known before it exists (the
// reconciler records it with the create intent), so it is built here, not read from AWS.

import { partitionOf as partitionOfRegion } from "../resolver/known-regions.ts";

/** The partition a region belongs to, from the SDK's partition data: `aws-cn`, `aws-us-gov`, ..., else `aws`. */
export function partitionOf(region: string | undefined): string {
  return region === undefined ? "aws" : partitionOfRegion(region);
}

/** `arn:<partition>:<service>:<region>:<account>:<resource>`. */
export function regionalArn(service: string, region: string, account: string, resource: string): string {
  return `arn:${partitionOf(region)}:${service}:${region}:${account}:${resource}`;
}

/** `arn:<partition>:<service>::<account>:<resource>`: an ARN naming the account and no region (IAM's). */
export function accountArn(service: string, region: string, account: string, resource: string): string {
  return `arn:${partitionOf(region)}:${service}::${account}:${resource}`;
}

/** `arn:<partition>:<service>:::<resource>`: an ARN naming neither region nor account (S3's buckets). */
export function globalArn(service: string, region: string, resource: string): string {
  return `arn:${partitionOf(region)}:${service}:::${resource}`;
}

/** A regional ARN's parts; `resource` is what follows the account, split at its colons. */
export interface RegionalArnParts {
  readonly region: string;
  readonly account: string;
  readonly resource: readonly string[];
}

/** The parts of one of `service`'s ARNs; undefined when `arn` is not one. */
export function parseRegionalArn(arn: string, service: string): RegionalArnParts | undefined {
  const [prefix, , arnService, region = "", account = "", ...resource] = arn.split(":");
  if (prefix !== "arn" || arnService !== service || resource.length === 0) return undefined;
  return { region, account, resource };
}

/**
 * The region, account and name an ARN whose resource is a bare name names (an SNS topic, an SQS
 * queue); undefined when it is not one of `service`'s.
 */
export function parseNamedArn(
  arn: string,
  service: string,
): { readonly region: string; readonly account: string; readonly name: string } | undefined {
  const parts = parseRegionalArn(arn, service);
  if (parts?.resource.length !== 1) return undefined;
  return { region: parts.region, account: parts.account, name: parts.resource[0] ?? "" };
}
