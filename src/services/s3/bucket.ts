// Create, read, update and delete one S3 bucket and its sub-resources through an S3Client the
// caller configured (credentials of the decided identity, region, endpoint, forcePathStyle).
// Knows nothing about Kubernetes: the reconciler decides when to call what (ownership,
// adoption, deletion policy, region and account drift) and turns BucketErrors into conditions.
// Every call carries the reconcile's CallContext: shutdown aborts it, and it is logged with
// the reconcile ID.
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteBucketOwnershipControlsCommand,
  DeleteBucketPolicyCommand,
  DeleteBucketTaggingCommand,
  DeletePublicAccessBlockCommand,
  GetBucketLocationCommand,
  HeadBucketCommand,
  ListBucketsCommand,
  PutBucketAclCommand,
  PutBucketEncryptionCommand,
  PutBucketOwnershipControlsCommand,
  PutBucketPolicyCommand,
  PutBucketTaggingCommand,
  PutBucketVersioningCommand,
  PutObjectLockConfigurationCommand,
  PutPublicAccessBlockCommand,
} from "@aws-sdk/client-s3";
import { legacyOwnershipKeysIn } from "../../api/ownership-tags.ts";
import type { CallContext } from "../call-context.ts";
import type { Send } from "../service-calls.ts";
import { applyTagChanges, claimTags } from "../tag-changes.ts";
import { putBucketAclInput } from "./acl.ts";
import { s3 } from "./calls.ts";
import {
  type ConfigurationField,
  canonicalConfiguration,
  configurationGroups,
  configurationToAws,
  type PerIdField,
  perIdChanges,
  perIdGroups,
  perIdItemToAws,
} from "./configuration-groups.ts";
import { desiredOwnershipControls, diff, type FieldDifference } from "./diff.ts";
import {
  directoryBucketSubresources,
  directoryCreateProblem,
  isDirectoryBucketName,
} from "./directory-bucket.ts";
import {
  type BucketClient,
  directoryBucketTagWrites,
  listedDirectoryBucket,
} from "./directory-bucket-calls.ts";
import { BucketError, classifyError, errorCode, httpStatus, type S3Operation } from "./errors.ts";
import {
  bucketTags,
  constrainedRegion,
  createBucketInput,
  defaultBucketRegion,
  isNoOwnershipControls,
  isNoPolicy,
  isNoPublicAccessBlock,
  locationOf,
  putBucketEncryptionInput,
  putBucketOwnershipControlsInput,
  putBucketPolicyInput,
  putBucketTaggingInput,
  putBucketVersioningInput,
  putPublicAccessBlockInput,
  tagMapOf,
} from "./mapping.ts";
import { putObjectLockInput } from "./object-lock.ts";
import { readSubresources } from "./read-subresources.ts";
import { type BucketFields, type BucketSubresource, bucketSubresources } from "./schema.ts";

/** The ownership tags the reconciler wants on the bucket (empty: none, e.g. in module tests). */
export type OwnerTags = Readonly<Record<string, string>>;

/**
 * What S3 has: the managed configuration in spec form (absent = none) and where the bucket
 * lives. `tagging` holds every tag, ownership tags included.
 */
export interface ObservedBucket extends BucketFields {
  readonly region: string;
}

export type ReadResult =
  | { readonly found: false; readonly heldElsewhere?: string }
  | { readonly found: true; readonly bucket: ObservedBucket };

/**
 * Reads a bucket and every managed sub-resource. Works on any bucket the identity can read,
 * whoever created it (the reconciler decides from the tags whether it may touch it).
 * `found: false` when S3 has no bucket of that name (or it vanished mid-read), with
 * `heldElsewhere` when the name exists but another account owns it (bucket names are global):
 * nothing of this account's is there, so a delete has nothing to delete and a create cannot
 * succeed. A bucket this account lists but may not read is an AccessDenied BucketError.
 */
export async function readBucket(
  client: BucketClient,
  spec: Pick<BucketFields, "name">,
  ctx: CallContext = {},
): Promise<ReadResult> {
  const name = spec.name;
  if (isDirectoryBucketName(name)) return readDirectoryBucket(client, name, ctx);
  const region = await regionOf(client, name, ctx);
  if (region === undefined) return { found: false };
  if (region === heldByAnotherAccount) {
    return {
      found: false,
      heldElsewhere: `bucket name "${name}" is owned by another AWS account (it exists, and this account does not list it); bucket names are global across all accounts`,
    };
  }
  const fields = await readSubresources(client, name, bucketSubresources, ctx);
  return fields === undefined ? { found: false } : { found: true, bucket: { name, region, ...fields } };
}

/**
 * A directory bucket: listed in the client's region (ListDirectoryBuckets), then the few
 * configurations S3 Express keeps. Its name is unique within its zone's region, so a name this
 * account does not list is no bucket of its own here.
 */
async function readDirectoryBucket(
  client: BucketClient,
  name: string,
  ctx: CallContext,
): Promise<ReadResult> {
  const listed = await listedDirectoryBucket(client.s3, name, ctx);
  if (listed === undefined) return { found: false };
  const fields = await readSubresources(client, name, directoryBucketSubresources, ctx);
  if (fields === undefined) return { found: false };
  return {
    found: true,
    bucket: { name, region: listed.region ?? (await client.s3.config.region()), ...fields },
  };
}

/**
 * The sub-resources S3 itself decides on a new bucket: its tags (a store may ignore the ones
 * CreateBucket carried, and in us-east-1 the 200 may be for a bucket another writer made a
 * moment before: the tags tell whose it is) and the defaults the reconciler late-initialises
 * (real S3's SSE-S3, BucketOwnerEnforced and public access blocks; none on the emulator).
 * A new bucket is never versioned and has no policy, in every S3: only a later write sets them;
 * nor has it any of the configurations (CORS, lifecycle, ...), and its ACL is the owner's alone.
 */
const decidedOnCreate = [
  "tagging",
  "encryption",
  "publicAccessBlock",
  "ownershipControls",
] as const satisfies readonly BucketSubresource[];

/** What S3 decides on a new directory bucket: those of decidedOnCreate S3 Express keeps. */
const directoryDecidedOnCreate = decidedOnCreate.filter((f) =>
  (directoryBucketSubresources as readonly string[]).includes(f),
);

/**
 * A bucket right after createBucket answered `created: true` for it in `region` (S3 answers 200
 * to a CreateBucket sent to a region only for a bucket in that region), read with only the calls
 * that can tell something new: decidedOnCreate, not where it is, its versioning or its policy.
 * `found: false` when it does not show yet (S3 may not show a new bucket everywhere at once).
 */
export async function readCreatedBucket(
  client: BucketClient,
  spec: Pick<BucketFields, "name" | "objectLockEnabledForBucket">,
  region: string,
  ctx: CallContext = {},
): Promise<ReadResult> {
  const name = spec.name;
  if (isDirectoryBucketName(name)) {
    // A new directory bucket: its tags and its default encryption; it has no ACL of its own.
    const fields = await readSubresources(client, name, directoryDecidedOnCreate, ctx);
    return fields === undefined ? { found: false } : { found: true, bucket: { name, region, ...fields } };
  }
  const fields = await readSubresources(client, name, decidedOnCreate, ctx);
  if (fields === undefined) return { found: false };
  // What the create fixed: no ACL beyond the owner's (createBucket sends none), Object Lock as
  // asked, and none of the other configurations.
  const lock = spec.objectLockEnabledForBucket === true ? { objectLockEnabledForBucket: true } : {};
  return { found: true, bucket: { name, region, acl: "private", ...lock, ...fields } };
}

const heldByAnotherAccount = Symbol("held by another account");

/**
 * HeadBucket: the region, undefined when there is no such bucket, or heldByAnotherAccount when
 * HeadBucket is denied and this account's ListBuckets does not have the name. A denied HeadBucket
 * on a bucket this account does list (or a ListBuckets that fails too) stays an AccessDenied
 * error: the identity lacks a permission, and nothing may be concluded about whose bucket it is.
 */
async function regionOf(
  client: BucketClient,
  name: string,
  ctx: CallContext,
): Promise<string | undefined | typeof heldByAnotherAccount> {
  try {
    const head = await s3.call(ctx, "HeadBucket", name, (o) =>
      client.s3.send(new HeadBucketCommand({ Bucket: name }), o),
    );
    if (head.BucketRegion !== undefined && head.BucketRegion !== "") return head.BucketRegion;
  } catch (err) {
    if (httpStatus(err) === 404) return undefined;
    const denied = classifyError(err, { operation: "HeadBucket", bucket: name });
    if (httpStatus(err) !== 403) throw denied;
    let listed: Date | undefined;
    try {
      listed = await listedCreationDate(client, name, ctx);
    } catch {
      throw denied;
    }
    if (listed === undefined) return heldByAnotherAccount;
    throw denied;
  }
  // S3-compatible stores that do not send x-amz-bucket-region: ask the old way.
  const location = await s3.sendUnlessGone(ctx, "GetBucketLocation", name, (o) =>
    client.s3.send(new GetBucketLocationCommand({ Bucket: name }), o),
  );
  if (location === undefined) return undefined;
  const constraint = location.LocationConstraint as string | undefined;
  if (constraint === undefined || constraint === "") return defaultBucketRegion;
  return constraint === "EU" ? "eu-west-1" : constraint;
}

export type CreateResult =
  /** S3 made the bucket (or, in us-east-1, answered 200 for one this account already had). */
  | { readonly created: true; readonly location: string }
  /** BucketAlreadyOwnedByYou: this account already has it; whose it is, the tags must tell. */
  | { readonly created: false };

/**
 * CreateBucket in `region` (the client must be configured for it), tagged with `ownerTags` and
 * the spec's tags in the same call, with what only a create can choose (createBucketConfiguration,
 * namespace, Object Lock) and the object ownership. Nothing else: a bucket's other sub-resources
 * are applied by updateBucket once the reconciler has read the bucket back and seen from its
 * tags that it is its own — in us-east-1 S3 answers 200 for a bucket the account already had,
 * and writing to it then would take over someone else's bucket. The ACL too waits for the update
 * (PutBucketAcl), for that reason.
 */
export async function createBucket(
  client: BucketClient,
  spec: BucketFields,
  region: string,
  ownerTags: OwnerTags = {},
  ctx: CallContext = {},
): Promise<CreateResult> {
  const clientRegion = await client.s3.config.region();
  if (clientRegion !== region) {
    throw new Error(
      `createBucket: the S3 client is configured for ${clientRegion} but the bucket belongs in ${region}`,
    );
  }
  const name = spec.name;
  const directoryProblem = directoryCreateProblem(spec);
  if (directoryProblem !== undefined) {
    throw new BucketError({
      disposition: "terminal",
      code: "InvalidRequest",
      operation: "CreateBucket",
      bucket: name,
      field: "spec.createBucketConfiguration",
      message: directoryProblem,
    });
  }
  const constrained = constrainedRegion(spec);
  if (constrained !== undefined && constrained !== region) {
    throw new BucketError({
      disposition: "terminal",
      code: "IllegalLocationConstraintException",
      operation: "CreateBucket",
      bucket: name,
      field: "spec.createBucketConfiguration.locationConstraint",
      message: `spec.createBucketConfiguration.locationConstraint: "${spec.createBucketConfiguration?.locationConstraint}" is not the resource's region ${region} (the services.k8s.aws/region annotation, or the namespace's or controller's default): S3 creates a bucket in the region it is asked in; make them agree, or remove locationConstraint`,
    });
  }
  try {
    const out = await s3.call(ctx, "CreateBucket", name, (o) =>
      client.s3.send(
        new CreateBucketCommand(createBucketInput(name, region, bucketTags(spec.tagging, ownerTags), spec)),
        o,
      ),
    );
    return {
      created: true,
      location: out.Location !== undefined && out.Location !== "" ? out.Location : locationOf(name),
    };
  } catch (err) {
    const code = errorCode(err);
    if (code === "BucketAlreadyOwnedByYou") return { created: false };
    if (code === "AccessDenied" && !isDirectoryBucketName(name)) {
      throw await explainCreateDenied(client, name, err, ctx);
    }
    throw classifyError(err, { operation: "CreateBucket", bucket: name, field: "spec.name" });
  }
}

/**
 * CreateBucket answers AccessDenied both when the identity may not create buckets and (moto
 * with cross-account access off) when another account owns the name. Tell them apart: a name
 * that exists (HeadBucket 403) but is not among this account's buckets belongs to someone else.
 */
async function explainCreateDenied(
  client: BucketClient,
  name: string,
  denied: unknown,
  ctx: CallContext,
): Promise<BucketError> {
  const deniedError = classifyError(denied, { operation: "CreateBucket", bucket: name, field: "spec.name" });
  try {
    await s3.call(ctx, "HeadBucket", name, (o) => client.s3.send(new HeadBucketCommand({ Bucket: name }), o));
    return deniedError;
  } catch (err) {
    if (httpStatus(err) !== 403) return deniedError;
  }
  try {
    if ((await listedCreationDate(client, name, ctx)) !== undefined) return deniedError;
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

/** The bucket's CreationDate from this account's ListBuckets, or undefined if not listed. */
async function listedCreationDate(
  client: BucketClient,
  name: string,
  ctx: CallContext,
): Promise<Date | undefined> {
  const listed = await s3.call(ctx, "ListBuckets", name, (o) =>
    client.s3.send(new ListBucketsCommand({ Prefix: name }), o),
  );
  const entry = (listed.Buckets ?? []).find((b) => b.Name === name);
  return entry === undefined ? undefined : (entry.CreationDate ?? new Date(Number.NaN));
}

/**
 * When S3 says this account created the bucket (ListBuckets' CreationDate), or undefined when
 * the account does not list it. The reconciler uses it to recognise its own unfinished create.
 */
export async function bucketCreatedAt(
  client: BucketClient,
  name: string,
  ctx: CallContext = {},
): Promise<Date | undefined> {
  try {
    const date = isDirectoryBucketName(name)
      ? (await listedDirectoryBucket(client.s3, name, ctx))?.createdAt
      : await listedCreationDate(client, name, ctx);
    return date === undefined || Number.isNaN(date.getTime()) ? undefined : date;
  } catch (err) {
    throw classifyError(err, { operation: "ListBuckets", bucket: name });
  }
}

/**
 * Applies the sub-resources that differ between `desired` and `observed`, in a safe order
 * (public access block before policy, so a policy the new block allows is not refused).
 * A "none" value (no tags, "" policy, `{}` block, no ownership rules) deletes the
 * sub-resource; tags are always written together with `ownerTags`, so they are never lost.
 * Returns what it changed.
 */
export async function updateBucket(
  client: BucketClient,
  desired: BucketFields,
  observed: BucketFields,
  ownerTags: OwnerTags = {},
  ctx: CallContext = {},
): Promise<FieldDifference[]> {
  const differences = inApplyOrder(diff(desired, observed), desired);
  for (const d of differences) await apply(client, desired, observed, d.field, ownerTags, ctx);
  return differences;
}

/**
 * S3 refuses to suspend versioning while replication is configured: a replication the spec
 * removes goes before versioning (otherwise versioning goes first, as replication needs it).
 */
function inApplyOrder(differences: FieldDifference[], desired: BucketFields): FieldDifference[] {
  const removesReplication = canonicalConfiguration("replication", desired.replication) === undefined;
  const replication = differences.find((d) => d.field === "replication");
  if (!removesReplication || replication === undefined) return differences;
  return [replication, ...differences.filter((d) => d !== replication)];
}

/**
 * Puts the ownership tags on a bucket that lacks them, keeping every tag it has but crossrole's
 * earlier ownership keys (adoption, finishing a create whose tagging never ran, moving the keys).
 */
export async function claimBucket(
  client: BucketClient,
  observed: ObservedBucket,
  ownerTags: OwnerTags,
  ctx: CallContext = {},
): Promise<void> {
  const name = observed.name;
  if (isDirectoryBucketName(name)) {
    // S3 Control adds tags and removes them by key, as the other services' tag calls do.
    const writes = directoryBucketTagWrites(await client.control(), name, ctx);
    return claimTags(tagMapOf(observed.tagging), ownerTags, writes);
  }
  // PutBucketTagging replaces the whole set: crossrole's earlier ownership keys are left out.
  const kept = tagMapOf(observed.tagging);
  for (const key of legacyOwnershipKeysIn(kept)) delete kept[key];
  const tags = { ...kept, ...ownerTags };
  await s3.send(
    ctx,
    "PutBucketTagging",
    name,
    (o) => client.s3.send(new PutBucketTaggingCommand(putBucketTaggingInput(name, tags)), o),
    { field: "spec.tagging" },
  );
}

/** Puts one sub-resource as the spec says, or deletes it when the spec says "none". */
async function apply(
  client: BucketClient,
  spec: BucketFields,
  observed: BucketFields,
  field: BucketSubresource,
  ownerTags: OwnerTags,
  ctx: CallContext,
): Promise<void> {
  const name = spec.name;
  const send = async (operation: S3Operation, run: Send<unknown>) => {
    await s3.send(ctx, operation, name, run, { field: `spec.${field}` });
  };
  if (field in configurationGroups) {
    return applyConfiguration(client, spec, field as ConfigurationField, send);
  }
  if (field in perIdGroups) {
    return applyPerId(client, spec, observed, field as PerIdField, send);
  }
  switch (field) {
    case "acl":
      return send("PutBucketAcl", (o) =>
        client.s3.send(new PutBucketAclCommand(putBucketAclInput(name, spec)), o),
      );
    case "objectLockConfiguration":
      return send("PutObjectLockConfiguration", (o) =>
        client.s3.send(new PutObjectLockConfigurationCommand(putObjectLockInput(name, spec)), o),
      );
    case "tagging": {
      const tags = bucketTags(spec.tagging, ownerTags);
      if (isDirectoryBucketName(name)) {
        const writes = directoryBucketTagWrites(await client.control(), name, ctx);
        return applyTagChanges(tags, tagMapOf(observed.tagging), writes);
      }
      if (Object.keys(tags).length === 0) {
        return send("DeleteBucketTagging", (o) =>
          client.s3.send(new DeleteBucketTaggingCommand({ Bucket: name }), o),
        );
      }
      return send("PutBucketTagging", (o) =>
        client.s3.send(new PutBucketTaggingCommand(putBucketTaggingInput(name, tags)), o),
      );
    }
    case "policy": {
      const policy = spec.policy;
      if (policy === undefined || isNoPolicy(policy)) {
        return send("DeleteBucketPolicy", (o) =>
          client.s3.send(new DeleteBucketPolicyCommand({ Bucket: name }), o),
        );
      }
      return send("PutBucketPolicy", (o) =>
        client.s3.send(new PutBucketPolicyCommand(putBucketPolicyInput(name, policy)), o),
      );
    }
    case "publicAccessBlock": {
      const block = spec.publicAccessBlock;
      if (block === undefined || isNoPublicAccessBlock(block)) {
        return send("DeletePublicAccessBlock", (o) =>
          client.s3.send(new DeletePublicAccessBlockCommand({ Bucket: name }), o),
        );
      }
      return send("PutPublicAccessBlock", (o) =>
        client.s3.send(new PutPublicAccessBlockCommand(putPublicAccessBlockInput(name, block)), o),
      );
    }
    case "ownershipControls": {
      const controls = desiredOwnershipControls(spec);
      if (controls === undefined || isNoOwnershipControls(controls)) {
        return send("DeleteBucketOwnershipControls", (o) =>
          client.s3.send(new DeleteBucketOwnershipControlsCommand({ Bucket: name }), o),
        );
      }
      return send("PutBucketOwnershipControls", (o) =>
        client.s3.send(
          new PutBucketOwnershipControlsCommand(putBucketOwnershipControlsInput(name, controls)),
          o,
        ),
      );
    }
    case "versioning": {
      const versioning = spec.versioning;
      // Late-initialised: diff never reports it absent, and S3 cannot remove versioning.
      if (versioning === undefined) return;
      return send("PutBucketVersioning", (o) =>
        client.s3.send(new PutBucketVersioningCommand(putBucketVersioningInput(name, versioning)), o),
      );
    }
    case "encryption": {
      const encryption = spec.encryption;
      // Late-initialised, and S3 always encrypts: there is nothing to delete.
      if (encryption === undefined) return;
      return send("PutBucketEncryption", (o) =>
        client.s3.send(new PutBucketEncryptionCommand(putBucketEncryptionInput(name, encryption)), o),
      );
    }
  }
}

type SendAs = (operation: S3Operation, run: Send<unknown>) => Promise<void>;

/** Puts a configuration as the spec has it, or removes it when the spec has none. */
async function applyConfiguration(
  client: BucketClient,
  spec: BucketFields,
  field: ConfigurationField,
  send: SendAs,
): Promise<void> {
  const group = configurationGroups[field];
  const name = spec.name;
  if (canonicalConfiguration(field, spec[field]) !== undefined) {
    const configuration = configurationToAws(field, spec[field]);
    return send(group.put, (o) => group.write(client.s3, name, configuration, o));
  }
  const remove = group.remove;
  if ("put" in remove) return send(group.put, (o) => group.write(client.s3, name, remove.put, o));
  return send(remove.operation, (o) => remove.run(client.s3, name, o));
}

/** Puts each configuration that is new or changed, and deletes each ID the spec no longer has. */
async function applyPerId(
  client: BucketClient,
  spec: BucketFields,
  observed: BucketFields,
  field: PerIdField,
  send: SendAs,
): Promise<void> {
  const group = perIdGroups[field];
  const name = spec.name;
  const { put, remove } = perIdChanges(spec[field], observed[field]);
  for (const item of put) {
    const configuration = perIdItemToAws(field, item);
    await send(group.put, (o) => group.write(client.s3, name, item.id, configuration, o));
  }
  for (const id of remove) await send(group.delete, (o) => group.remove(client.s3, name, id, o));
}

/**
 * Deletes the bucket only (as ACK does): S3 refuses a bucket that still holds objects, which
 * is a retryable BucketNotEmpty error saying so. A bucket already gone is "not-found".
 */
export async function deleteBucket(
  client: BucketClient,
  name: string,
  ctx: CallContext = {},
): Promise<"deleted" | "not-found"> {
  return s3.deleteUnlessGone(ctx, "DeleteBucket", name, (o) =>
    client.s3.send(new DeleteBucketCommand({ Bucket: name }), o),
  );
}
