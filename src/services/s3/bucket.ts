// Create, read, update and delete one S3 bucket and its sub-resources through an S3Client the
// caller configured (credentials of the decided identity, region, endpoint, forcePathStyle).
// Knows nothing about Kubernetes: the reconciler decides when to call what (adoption,
// deletion policy, region and account drift) and turns BucketErrors into conditions.
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteBucketOwnershipControlsCommand,
  DeleteBucketPolicyCommand,
  DeleteBucketTaggingCommand,
  DeletePublicAccessBlockCommand,
  GetBucketEncryptionCommand,
  GetBucketLocationCommand,
  GetBucketOwnershipControlsCommand,
  GetBucketPolicyCommand,
  GetBucketTaggingCommand,
  GetBucketVersioningCommand,
  GetPublicAccessBlockCommand,
  HeadBucketCommand,
  ListBucketsCommand,
  PutBucketEncryptionCommand,
  PutBucketOwnershipControlsCommand,
  PutBucketPolicyCommand,
  PutBucketTaggingCommand,
  PutBucketVersioningCommand,
  PutPublicAccessBlockCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { diff, type FieldDifference } from "./diff.ts";
import { BucketError, classifyError, errorCode, httpStatus, type S3Operation } from "./errors.ts";
import {
  createBucketInput,
  defaultBucketRegion,
  encryptionFromAws,
  isNoOwnershipControls,
  isNoPolicy,
  isNoPublicAccessBlock,
  isNoTags,
  locationOf,
  ownershipControlsFromAws,
  policyFromAws,
  publicAccessBlockFromAws,
  putBucketEncryptionInput,
  putBucketOwnershipControlsInput,
  putBucketPolicyInput,
  putBucketTaggingInput,
  putBucketVersioningInput,
  putPublicAccessBlockInput,
  taggingFromAws,
  versioningFromAws,
} from "./mapping.ts";
import { type BucketFields, type BucketSubresource, bucketSubresources } from "./schema.ts";

/** What S3 has: the managed configuration in spec form (absent = none) and where the bucket lives. */
export interface ObservedBucket extends BucketFields {
  readonly region: string;
}

export type ReadResult =
  | { readonly found: false }
  | { readonly found: true; readonly bucket: ObservedBucket };

/**
 * Reads a bucket and every managed sub-resource. Works on any bucket the identity can read,
 * whoever created it, which is what adoption needs. `found: false` when S3 has no bucket of
 * that name (or it vanished mid-read); a bucket owned by another account is an AccessDenied
 * BucketError, never `found: false`.
 */
export async function readBucket(client: S3Client, spec: Pick<BucketFields, "name">): Promise<ReadResult> {
  const name = spec.name;
  const region = await regionOf(client, name);
  if (region === undefined) return { found: false };
  try {
    const [tagging, versioning, encryption, policy, publicAccessBlock, ownershipControls] = await Promise.all(
      [
        getOrNone(name, "GetBucketTagging", "spec.tagging", ["NoSuchTagSet"], async () =>
          taggingFromAws(await client.send(new GetBucketTaggingCommand({ Bucket: name }))),
        ),
        getOrNone(name, "GetBucketVersioning", "spec.versioning", [], async () =>
          versioningFromAws(await client.send(new GetBucketVersioningCommand({ Bucket: name }))),
        ),
        getOrNone(
          name,
          "GetBucketEncryption",
          "spec.encryption",
          ["ServerSideEncryptionConfigurationNotFoundError"],
          async () => encryptionFromAws(await client.send(new GetBucketEncryptionCommand({ Bucket: name }))),
        ),
        getOrNone(name, "GetBucketPolicy", "spec.policy", ["NoSuchBucketPolicy"], async () =>
          policyFromAws(await client.send(new GetBucketPolicyCommand({ Bucket: name }))),
        ),
        getOrNone(
          name,
          "GetPublicAccessBlock",
          "spec.publicAccessBlock",
          ["NoSuchPublicAccessBlockConfiguration"],
          async () =>
            publicAccessBlockFromAws(await client.send(new GetPublicAccessBlockCommand({ Bucket: name }))),
        ),
        getOrNone(
          name,
          "GetBucketOwnershipControls",
          "spec.ownershipControls",
          ["OwnershipControlsNotFoundError"],
          async () =>
            ownershipControlsFromAws(
              await client.send(new GetBucketOwnershipControlsCommand({ Bucket: name })),
            ),
        ),
      ],
    );
    const bucket: ObservedBucket = {
      name,
      region,
      ...defined({ tagging, versioning, encryption, policy, publicAccessBlock, ownershipControls }),
    };
    return { found: true, bucket };
  } catch (err) {
    if (err instanceof BucketVanished) return { found: false };
    throw err;
  }
}

/** HeadBucket: the region, or undefined when there is no such bucket. */
async function regionOf(client: S3Client, name: string): Promise<string | undefined> {
  try {
    const head = await client.send(new HeadBucketCommand({ Bucket: name }));
    if (head.BucketRegion !== undefined && head.BucketRegion !== "") return head.BucketRegion;
  } catch (err) {
    if (httpStatus(err) === 404) return undefined;
    throw classifyError(err, { operation: "HeadBucket", bucket: name });
  }
  // S3-compatible stores that do not send x-amz-bucket-region: ask the old way.
  try {
    const location = await client.send(new GetBucketLocationCommand({ Bucket: name }));
    const constraint = location.LocationConstraint as string | undefined;
    if (constraint === undefined || constraint === "") return defaultBucketRegion;
    return constraint === "EU" ? "eu-west-1" : constraint;
  } catch (err) {
    if (errorCode(err) === "NoSuchBucket") return undefined;
    throw classifyError(err, { operation: "GetBucketLocation", bucket: name });
  }
}

class BucketVanished extends Error {}

/** One Get*: S3 answers "none" with an error code per sub-resource; those become undefined. */
async function getOrNone<T>(
  name: string,
  operation: S3Operation,
  field: string,
  noneCodes: readonly string[],
  call: () => Promise<T | undefined>,
): Promise<T | undefined> {
  try {
    return await call();
  } catch (err) {
    const code = errorCode(err);
    if (noneCodes.includes(code)) return undefined;
    if (code === "NoSuchBucket") throw new BucketVanished();
    throw classifyError(err, { operation, bucket: name, field });
  }
}

function defined<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export interface CreateResult {
  /** For `status.location`: CreateBucket's Location, or "/<name>" when S3 gave none. */
  readonly location: string;
  /** The bucket already existed in this account (an earlier attempt, or adoption by create). */
  readonly alreadyOwned: boolean;
}

/**
 * Creates the bucket in `region` (the S3 client must be configured for the same region) and
 * applies every sub-resource the spec sets. Idempotent: a bucket this account already owns in
 * that region is brought to the spec instead. A BucketError whose `operation` is not
 * CreateBucket means the bucket exists and a sub-resource failed: record the bucket as created.
 */
export async function createBucket(
  client: S3Client,
  spec: BucketFields,
  region: string,
): Promise<CreateResult> {
  const clientRegion = await client.config.region();
  if (clientRegion !== region) {
    throw new Error(
      `createBucket: the S3 client is configured for ${clientRegion} but the bucket belongs in ${region}`,
    );
  }
  const name = spec.name;
  let location = locationOf(name);
  try {
    const out = await client.send(new CreateBucketCommand(createBucketInput(name, region)));
    if (out.Location !== undefined && out.Location !== "") location = out.Location;
  } catch (err) {
    const code = errorCode(err);
    if (code === "BucketAlreadyOwnedByYou") {
      await bringExistingToSpec(client, spec, region);
      return { location, alreadyOwned: true };
    }
    if (code === "AccessDenied") throw await explainCreateDenied(client, name, err);
    throw classifyError(err, { operation: "CreateBucket", bucket: name, field: "spec.name" });
  }
  for (const field of bucketSubresources) {
    if (spec[field] !== undefined) await apply(client, spec, field);
  }
  return { location, alreadyOwned: false };
}

/** A bucket of ours already had the name: it must be in the right region, then it is updated. */
async function bringExistingToSpec(client: S3Client, spec: BucketFields, region: string): Promise<void> {
  const existing = await readBucket(client, spec);
  if (!existing.found) {
    throw new BucketError({
      disposition: "retryable",
      code: "NoSuchBucket",
      operation: "HeadBucket",
      bucket: spec.name,
      message: `HeadBucket on bucket "${spec.name}" found nothing although CreateBucket said this account owns it (S3 may not show it everywhere yet; retrying)`,
    });
  }
  if (existing.bucket.region !== region) {
    throw new BucketError({
      disposition: "terminal",
      code: "BucketAlreadyOwnedByYou",
      operation: "CreateBucket",
      bucket: spec.name,
      field: "spec.name",
      bucketRegion: existing.bucket.region,
      message: `spec.name: bucket "${spec.name}" already exists in this account in region ${existing.bucket.region}, not in ${region}; S3 cannot move a bucket`,
    });
  }
  await updateBucket(client, spec, existing.bucket);
}

/**
 * CreateBucket answers AccessDenied both when the identity may not create buckets and (moto
 * with cross-account access off) when another account owns the name. Tell them apart: a name
 * that exists (HeadBucket 403) but is not among this account's buckets belongs to someone else.
 */
async function explainCreateDenied(client: S3Client, name: string, denied: unknown): Promise<BucketError> {
  const deniedError = classifyError(denied, { operation: "CreateBucket", bucket: name, field: "spec.name" });
  try {
    await client.send(new HeadBucketCommand({ Bucket: name }));
    return deniedError;
  } catch (err) {
    if (httpStatus(err) !== 403) return deniedError;
  }
  try {
    const listed = await client.send(new ListBucketsCommand({ Prefix: name }));
    if ((listed.Buckets ?? []).some((b) => b.Name === name)) return deniedError;
  } catch {
    return deniedError;
  }
  return new BucketError({
    disposition: "terminal",
    code: "BucketAlreadyExists",
    operation: "CreateBucket",
    bucket: name,
    field: "spec.name",
    message: `spec.name: bucket name "${name}" is taken by another AWS account (CreateBucket was denied, the bucket exists and is not among this account's buckets); bucket names are global across all accounts: choose another name`,
    cause: denied,
  });
}

/**
 * Applies the sub-resources that differ between `desired` and `observed`, in a safe order
 * (public access block before policy, so a policy the new block allows is not refused).
 * A "none" value (no tags, "" policy, `{}` block, no ownership rules) deletes the
 * sub-resource. Returns what it changed.
 */
export async function updateBucket(
  client: S3Client,
  desired: BucketFields,
  observed: BucketFields,
): Promise<FieldDifference[]> {
  const differences = diff(desired, observed);
  for (const d of differences) await apply(client, desired, d.field);
  return differences;
}

/** Puts one sub-resource as the spec says, or deletes it when the spec says "none". */
async function apply(client: S3Client, spec: BucketFields, field: BucketSubresource): Promise<void> {
  const name = spec.name;
  const send = async (operation: S3Operation, call: () => Promise<unknown>): Promise<void> => {
    try {
      await call();
    } catch (err) {
      throw classifyError(err, { operation, bucket: name, field: `spec.${field}` });
    }
  };
  switch (field) {
    case "tagging": {
      const tagging = spec.tagging;
      if (tagging === undefined || isNoTags(tagging)) {
        return send("DeleteBucketTagging", () =>
          client.send(new DeleteBucketTaggingCommand({ Bucket: name })),
        );
      }
      return send("PutBucketTagging", () =>
        client.send(new PutBucketTaggingCommand(putBucketTaggingInput(name, tagging))),
      );
    }
    case "policy": {
      const policy = spec.policy;
      if (policy === undefined || isNoPolicy(policy)) {
        return send("DeleteBucketPolicy", () => client.send(new DeleteBucketPolicyCommand({ Bucket: name })));
      }
      return send("PutBucketPolicy", () =>
        client.send(new PutBucketPolicyCommand(putBucketPolicyInput(name, policy))),
      );
    }
    case "publicAccessBlock": {
      const block = spec.publicAccessBlock;
      if (block === undefined || isNoPublicAccessBlock(block)) {
        return send("DeletePublicAccessBlock", () =>
          client.send(new DeletePublicAccessBlockCommand({ Bucket: name })),
        );
      }
      return send("PutPublicAccessBlock", () =>
        client.send(new PutPublicAccessBlockCommand(putPublicAccessBlockInput(name, block))),
      );
    }
    case "ownershipControls": {
      const controls = spec.ownershipControls;
      if (controls === undefined || isNoOwnershipControls(controls)) {
        return send("DeleteBucketOwnershipControls", () =>
          client.send(new DeleteBucketOwnershipControlsCommand({ Bucket: name })),
        );
      }
      return send("PutBucketOwnershipControls", () =>
        client.send(new PutBucketOwnershipControlsCommand(putBucketOwnershipControlsInput(name, controls))),
      );
    }
    case "versioning": {
      const versioning = spec.versioning;
      // Late-initialised: diff never reports it absent, and S3 cannot remove versioning.
      if (versioning === undefined) return;
      return send("PutBucketVersioning", () =>
        client.send(new PutBucketVersioningCommand(putBucketVersioningInput(name, versioning))),
      );
    }
    case "encryption": {
      const encryption = spec.encryption;
      // Late-initialised, and S3 always encrypts: there is nothing to delete.
      if (encryption === undefined) return;
      return send("PutBucketEncryption", () =>
        client.send(new PutBucketEncryptionCommand(putBucketEncryptionInput(name, encryption))),
      );
    }
  }
}

/**
 * Deletes the bucket only (as ACK does): S3 refuses a bucket that still holds objects, which
 * is a retryable BucketNotEmpty error saying so. A bucket already gone is "not-found".
 */
export async function deleteBucket(client: S3Client, name: string): Promise<"deleted" | "not-found"> {
  try {
    await client.send(new DeleteBucketCommand({ Bucket: name }));
    return "deleted";
  } catch (err) {
    if (errorCode(err) === "NoSuchBucket") return "not-found";
    throw classifyError(err, { operation: "DeleteBucket", bucket: name });
  }
}
