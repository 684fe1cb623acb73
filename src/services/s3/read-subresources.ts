// Reads a chosen set of one bucket's managed sub-resources, one Get (or List) call each, in
// parallel: the whole set when the reconciler looks at a bucket (readBucket), only what S3
// decides when it looks at a bucket its own create just made (readCreatedBucket).
import {
  GetBucketAclCommand,
  GetBucketEncryptionCommand,
  GetBucketOwnershipControlsCommand,
  GetBucketPolicyCommand,
  GetBucketTaggingCommand,
  GetBucketVersioningCommand,
  GetObjectLockConfigurationCommand,
  GetPublicAccessBlockCommand,
} from "@aws-sdk/client-s3";
import type { CallContext, SendOptions } from "../call-context.ts";
import { aclFromAws } from "./acl.ts";
import { s3 } from "./calls.ts";
import {
  type ConfigurationField,
  configurationFields,
  configurationFromAws,
  configurationGroups,
  type PerIdField,
  perIdFields,
  perIdFromAws,
  perIdGroups,
} from "./configuration-groups.ts";
import { isDirectoryBucketName } from "./directory-bucket.ts";
import { type BucketClient, directoryBucketTags } from "./directory-bucket-calls.ts";
import { classifyError, errorCode, type S3Operation } from "./errors.ts";
import {
  encryptionFromAws,
  ownershipControlsFromAws,
  policyFromAws,
  publicAccessBlockFromAws,
  taggingFromAws,
  versioningFromAws,
} from "./mapping.ts";
import { objectLockFromAws } from "./object-lock.ts";
import type { BucketFields, BucketSubresource } from "./schema.ts";

/** One read: the spec fields it observes (absent ones are not set in S3). */
interface Reader {
  readonly operation: S3Operation;
  /** The error codes with which S3 says the sub-resource is not set. */
  readonly none: readonly string[];
  readonly read: (client: BucketClient, name: string, o: SendOptions) => Promise<Partial<BucketFields>>;
}

/** A reader of one field whose value `read` gives (undefined: not set). */
function fieldReader<F extends keyof BucketFields>(
  field: F,
  operation: S3Operation,
  none: readonly string[],
  read: (client: BucketClient, name: string, o: SendOptions) => Promise<BucketFields[F] | undefined>,
): Reader {
  return {
    operation,
    none,
    read: async (client, name, o) => {
      const value = await read(client, name, o);
      return value === undefined ? {} : ({ [field]: value } as Partial<BucketFields>);
    },
  };
}

function configurationReader(field: ConfigurationField): Reader {
  const group = configurationGroups[field];
  return fieldReader(field, group.get, group.none, async (client, name, o) => {
    const aws = await group.read(client.s3, name, o);
    return configurationFromAws(field, aws) as BucketFields[typeof field];
  });
}

/** Every page of a per-ID list (S3 lists 100 configurations a page). */
function perIdReader(field: PerIdField): Reader {
  const group = perIdGroups[field];
  return fieldReader(field, group.list, [], async (client, name, o) => {
    const items: unknown[] = [];
    let token: string | undefined;
    do {
      const page = await group.page(client.s3, name, token, o);
      items.push(...page.items);
      token = page.next;
    } while (token !== undefined);
    return perIdFromAws(field, items) as BucketFields[typeof field];
  });
}

const readers: { readonly [F in BucketSubresource]: Reader } = {
  tagging: fieldReader("tagging", "GetBucketTagging", ["NoSuchTagSet"], async (client, name, o) =>
    taggingFromAws(await client.s3.send(new GetBucketTaggingCommand({ Bucket: name }), o)),
  ),
  versioning: fieldReader("versioning", "GetBucketVersioning", [], async (client, name, o) =>
    versioningFromAws(await client.s3.send(new GetBucketVersioningCommand({ Bucket: name }), o)),
  ),
  encryption: fieldReader(
    "encryption",
    "GetBucketEncryption",
    ["ServerSideEncryptionConfigurationNotFoundError"],
    async (client, name, o) =>
      encryptionFromAws(await client.s3.send(new GetBucketEncryptionCommand({ Bucket: name }), o)),
  ),
  policy: fieldReader("policy", "GetBucketPolicy", ["NoSuchBucketPolicy"], async (client, name, o) =>
    policyFromAws(await client.s3.send(new GetBucketPolicyCommand({ Bucket: name }), o)),
  ),
  publicAccessBlock: fieldReader(
    "publicAccessBlock",
    "GetPublicAccessBlock",
    ["NoSuchPublicAccessBlockConfiguration"],
    async (client, name, o) =>
      publicAccessBlockFromAws(await client.s3.send(new GetPublicAccessBlockCommand({ Bucket: name }), o)),
  ),
  ownershipControls: fieldReader(
    "ownershipControls",
    "GetBucketOwnershipControls",
    ["OwnershipControlsNotFoundError"],
    async (client, name, o) =>
      ownershipControlsFromAws(
        await client.s3.send(new GetBucketOwnershipControlsCommand({ Bucket: name }), o),
      ),
  ),
  acl: {
    operation: "GetBucketAcl",
    none: [],
    read: async (client, name, o) =>
      aclFromAws(await client.s3.send(new GetBucketAclCommand({ Bucket: name }), o)),
  },
  objectLockConfiguration: {
    operation: "GetObjectLockConfiguration",
    none: ["ObjectLockConfigurationNotFoundError"],
    read: async (client, name, o) =>
      objectLockFromAws(await client.s3.send(new GetObjectLockConfigurationCommand({ Bucket: name }), o)),
  },
  ...(Object.fromEntries(configurationFields.map((f) => [f, configurationReader(f)])) as Record<
    ConfigurationField,
    Reader
  >),
  ...(Object.fromEntries(perIdFields.map((f) => [f, perIdReader(f)])) as Record<PerIdField, Reader>),
};

/** A directory bucket's tags are S3 Control's (directory-bucket-calls.ts). */
const directoryTagging = fieldReader("tagging", "ListTagsForResource", [], async (client, name, o) =>
  taggingFromAws({ TagSet: await directoryBucketTags(await client.control(), name, o) }),
);

/**
 * The `fields` of bucket `name` that are set (a field S3 reports as not set is left out), or
 * undefined when the bucket vanished while they were read. Any other failure is a BucketError
 * naming the operation and the spec field.
 */
export async function readSubresources(
  client: BucketClient,
  name: string,
  fields: readonly BucketSubresource[],
  ctx: CallContext,
): Promise<Partial<BucketFields> | undefined> {
  let vanished = false;
  const values = await Promise.all(
    fields.map(async (field) => {
      const reader = field === "tagging" && isDirectoryBucketName(name) ? directoryTagging : readers[field];
      try {
        return await s3.call(ctx, reader.operation, name, (o) => reader.read(client, name, o));
      } catch (err) {
        const code = errorCode(err);
        if (reader.none.includes(code)) return {};
        if (code !== "NoSuchBucket") {
          throw classifyError(err, { operation: reader.operation, bucket: name, field: `spec.${field}` });
        }
        vanished = true;
        return {};
      }
    }),
  );
  if (vanished) return undefined;
  return Object.assign({}, ...values) as Partial<BucketFields>;
}
