// Reads a chosen set of one bucket's managed sub-resources, one Get call each, in parallel: the
// whole set when the reconciler looks at a bucket (readBucket), only what S3 decides when it
// looks at a bucket its own create just made (readCreatedBucket).
import {
  GetBucketEncryptionCommand,
  GetBucketOwnershipControlsCommand,
  GetBucketPolicyCommand,
  GetBucketTaggingCommand,
  GetBucketVersioningCommand,
  GetPublicAccessBlockCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import type { CallContext, SendOptions } from "../call-context.ts";
import { serviceCalls } from "../service-calls.ts";
import { classifyError, errorCode, type S3Operation } from "./errors.ts";
import {
  encryptionFromAws,
  ownershipControlsFromAws,
  policyFromAws,
  publicAccessBlockFromAws,
  taggingFromAws,
  versioningFromAws,
} from "./mapping.ts";
import type { BucketFields, BucketSubresource } from "./schema.ts";

/** S3 calls: logged with the bucket's name, failures as BucketErrors; NoSuchBucket means gone. */
export const s3 = serviceCalls({
  service: "s3",
  object: "bucket",
  isGone: (err) => errorCode(err) === "NoSuchBucket",
  classify: classifyError,
});

interface Reader<F extends BucketSubresource> {
  readonly operation: S3Operation;
  /** The error codes with which S3 says the sub-resource is not set. */
  readonly none: readonly string[];
  readonly read: (client: S3Client, name: string, o: SendOptions) => Promise<BucketFields[F] | undefined>;
}

const readers: { readonly [F in BucketSubresource]: Reader<F> } = {
  tagging: {
    operation: "GetBucketTagging",
    none: ["NoSuchTagSet"],
    read: async (client, name, o) =>
      taggingFromAws(await client.send(new GetBucketTaggingCommand({ Bucket: name }), o)),
  },
  versioning: {
    operation: "GetBucketVersioning",
    none: [],
    read: async (client, name, o) =>
      versioningFromAws(await client.send(new GetBucketVersioningCommand({ Bucket: name }), o)),
  },
  encryption: {
    operation: "GetBucketEncryption",
    none: ["ServerSideEncryptionConfigurationNotFoundError"],
    read: async (client, name, o) =>
      encryptionFromAws(await client.send(new GetBucketEncryptionCommand({ Bucket: name }), o)),
  },
  policy: {
    operation: "GetBucketPolicy",
    none: ["NoSuchBucketPolicy"],
    read: async (client, name, o) =>
      policyFromAws(await client.send(new GetBucketPolicyCommand({ Bucket: name }), o)),
  },
  publicAccessBlock: {
    operation: "GetPublicAccessBlock",
    none: ["NoSuchPublicAccessBlockConfiguration"],
    read: async (client, name, o) =>
      publicAccessBlockFromAws(await client.send(new GetPublicAccessBlockCommand({ Bucket: name }), o)),
  },
  ownershipControls: {
    operation: "GetBucketOwnershipControls",
    none: ["OwnershipControlsNotFoundError"],
    read: async (client, name, o) =>
      ownershipControlsFromAws(await client.send(new GetBucketOwnershipControlsCommand({ Bucket: name }), o)),
  },
};

/**
 * The `fields` of bucket `name` that are set (a field S3 reports as not set is left out), or
 * undefined when the bucket vanished while they were read. Any other failure is a BucketError
 * naming the operation and the spec field.
 */
export async function readSubresources(
  client: S3Client,
  name: string,
  fields: readonly BucketSubresource[],
  ctx: CallContext,
): Promise<Partial<BucketFields> | undefined> {
  let vanished = false;
  const values = await Promise.all(
    fields.map(async (field) => {
      const reader: Reader<BucketSubresource> = readers[field];
      try {
        return [
          field,
          await s3.call(ctx, reader.operation, name, (o) => reader.read(client, name, o)),
        ] as const;
      } catch (err) {
        const code = errorCode(err);
        if (reader.none.includes(code)) return [field, undefined] as const;
        if (code !== "NoSuchBucket") {
          throw classifyError(err, { operation: reader.operation, bucket: name, field: `spec.${field}` });
        }
        vanished = true;
        return [field, undefined] as const;
      }
    }),
  );
  if (vanished) return undefined;
  return Object.fromEntries(values.filter(([, v]) => v !== undefined)) as Partial<BucketFields>;
}
