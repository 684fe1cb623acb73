// The Bucket's module (the generic runtime serving bucket-declaration.ts), under the names the
// S3 tests were first written against: readBucket, createBucket, updateBucket, ... with a bucket
// as `{name, region, ...spec fields}` (`tagging` holding every tag). Each is one call of the
// module; the tests' assertions are unchanged.
import type { S3Client } from "@aws-sdk/client-s3";
import type { CallContext } from "../../src/services/call-context.ts";
import type { DeclaredClient, DeclaredObserved } from "../../src/services/declared-kind/source.ts";
import { bucketService } from "../../src/services/s3/bucket.ts";
import type { BucketFields } from "../../src/services/s3/schema.ts";
import { noSecrets } from "../../src/services/service-module.ts";
import { tagMapOf } from "../../src/services/tag-list.ts";

/** What S3 has, as the tests read it: the spec fields and where the bucket lives. */
export type ObservedBucket = BucketFields & { readonly region: string };

export type ReadResult =
  | { readonly found: false; readonly heldElsewhere?: string }
  | { readonly found: true; readonly bucket: ObservedBucket };

/** The S3 client the tests make, and S3 Control for a directory bucket's tags (`more`). */
export interface BucketClient {
  readonly s3: S3Client;
  readonly more?: DeclaredClient<S3Client>["more"];
}

export type OwnerTags = Readonly<Record<string, string>>;

export interface FieldDifference {
  readonly field: string;
  readonly path: string;
}

async function declared(client: BucketClient): Promise<DeclaredClient<S3Client>> {
  return {
    sdk: client.s3,
    region: await client.s3.config.region(),
    ...(client.more === undefined ? {} : { more: client.more }),
  };
}

const flat = (o: DeclaredObserved): ObservedBucket =>
  ({ ...o.fields, region: o.region ?? "" }) as unknown as ObservedBucket;

/** Back to what the module observes: every tag from `tagging`, the ARN as the module makes it. */
function observedOf(bucket: BucketFields & { region?: string }): DeclaredObserved {
  const { region = "us-east-1", ...fields } = bucket;
  return {
    fields: fields as Record<string, unknown>,
    tags: tagMapOf(bucket.tagging?.tagSet),
    status: {},
    arn: bucketService.arn(bucket as never, region, ""),
    region,
  };
}

const result = (r: Awaited<ReturnType<typeof bucketService.read>>): ReadResult =>
  r.found ? { found: true, bucket: flat(r.observed) } : r;

export async function readBucket(
  client: BucketClient,
  spec: Pick<BucketFields, "name">,
  ctx: CallContext = {},
): Promise<ReadResult> {
  return result(await bucketService.read(await declared(client), spec, ctx));
}

export async function readCreatedBucket(
  client: BucketClient,
  spec: Pick<BucketFields, "name" | "objectLockEnabledForBucket">,
  region: string,
  ctx: CallContext = {},
): Promise<ReadResult> {
  const readCreated = bucketService.readCreated;
  if (readCreated === undefined) throw new Error("the Bucket module reads no created bucket");
  return result(await readCreated(await declared(client), spec, region, ctx));
}

export async function createBucket(
  client: BucketClient,
  spec: BucketFields,
  region: string,
  ownerTags: OwnerTags = {},
  ctx: CallContext = {},
): Promise<{ readonly created: true; readonly location: string } | { readonly created: false }> {
  const r = await bucketService.create(await declared(client), spec, region, ownerTags, ctx, noSecrets);
  return r.created ? { created: true, location: String(r.status?.["location"] ?? "") } : { created: false };
}

export async function updateBucket(
  client: BucketClient,
  desired: BucketFields,
  observed: BucketFields & { region?: string },
  ownerTags: OwnerTags = {},
  ctx: CallContext = {},
): Promise<FieldDifference[]> {
  const paths = await bucketService.update(
    await declared(client),
    desired,
    observedOf(observed),
    ownerTags,
    ctx,
    noSecrets,
  );
  return paths.map((path) => ({ field: path.replace(/^spec\./, ""), path }));
}

export async function claimBucket(
  client: BucketClient,
  observed: ObservedBucket,
  ownerTags: OwnerTags,
  ctx: CallContext = {},
): Promise<void> {
  await bucketService.claim(await declared(client), observedOf(observed), ownerTags, ctx);
}

export async function deleteBucket(
  client: BucketClient,
  name: string,
  ctx: CallContext = {},
): Promise<"deleted" | "not-found"> {
  return bucketService.delete(await declared(client), { name }, ctx, {});
}

export async function bucketCreatedAt(
  client: BucketClient,
  name: string,
  ctx: CallContext = {},
): Promise<Date | undefined> {
  return bucketService.createdAt?.(await declared(client), { name }, ctx);
}

/** The differences, in the order an update applies them, with both values. */
export function diff(
  desired: BucketFields,
  observed: BucketFields,
): (FieldDifference & { readonly desired: unknown; readonly observed: unknown })[] {
  return bucketService.diff(desired, observedOf(observed)).map((path) => {
    const field = path.replace(/^spec\./, "");
    const fieldOf = (spec: BucketFields) => (spec as unknown as Readonly<Record<string, unknown>>)[field];
    return { field, path, desired: fieldOf(desired), observed: fieldOf(observed) };
  });
}

export function lateInitialize<Spec extends BucketFields>(
  spec: Spec,
  observed: BucketFields,
): { spec: Spec; initialized: string[] } {
  const r = bucketService.lateInitialize(spec, observedOf(observed));
  return { spec: r.spec as Spec, initialized: r.initialized.map((p) => p.replace(/^spec\./, "")) };
}

/** What S3 holds once updateBucket applied the differences (S3 applies each write at once). */
export function afterApplying<F extends BucketFields>(
  desired: BucketFields,
  observed: F,
  ownerTags: OwnerTags,
): F {
  const after = bucketService.afterUpdate?.(desired, observedOf(observed), ownerTags);
  if (after === undefined) throw new Error("the Bucket module reads a bucket back after an update");
  const { region: _, ...rest } = flat(after) as ObservedBucket & Record<string, unknown>;
  return ("region" in observed ? { ...rest, region: (observed as { region?: string }).region } : rest) as F;
}

/** The kind's error (BucketError): terminal or retryable, naming the bucket, operation and field. */
export type BucketError = Error & {
  readonly disposition: "terminal" | "retryable";
  readonly terminal: boolean;
  readonly code: string;
  readonly operation: string;
  readonly field: string | undefined;
  readonly object: string;
  readonly bucketRegion?: string;
};

export function isBucketError(err: unknown): err is BucketError {
  return err instanceof Error && err.name === "BucketError";
}
