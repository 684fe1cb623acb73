// The calls a directory bucket needs that a general purpose bucket does not: finding it
// (ListDirectoryBuckets, as ACK does: HeadBucket on a directory bucket goes to its zone with a
// CreateSession, a permission ACK's users never granted) and its tags, which S3 Control keeps on
// the bucket's s3express ARN (TagResource merges; UntagResource removes by key). S3 Control's SDK
// is imported on the first directory bucket's tags, not with every Bucket.
import { ListDirectoryBucketsCommand, type S3Client } from "@aws-sdk/client-s3";
import type { S3ControlClient } from "@aws-sdk/client-s3-control";
import type { CallContext, SendOptions } from "../call-context.ts";
import type { TagWrites } from "../tag-changes.ts";
import { s3 } from "./calls.ts";
import { directoryBucketArn } from "./directory-bucket.ts";

/** S3 Control acting for the bucket's account, in the S3 client's region; made on first use. */
export interface DirectoryControl {
  readonly client: S3ControlClient;
  readonly account: string;
  readonly region: string;
}

/** What a reconcile acts on a bucket with: S3, and S3 Control for a directory bucket's tags. */
export interface BucketClient {
  readonly s3: S3Client;
  readonly control: () => Promise<DirectoryControl>;
}

export interface ListedDirectoryBucket {
  readonly region: string | undefined;
  readonly createdAt: Date | undefined;
}

/** The directory bucket `name` among the account's in the client's region, or undefined. */
export async function listedDirectoryBucket(
  client: S3Client,
  name: string,
  ctx: CallContext,
): Promise<ListedDirectoryBucket | undefined> {
  let token: string | undefined;
  do {
    const page = await s3.call(ctx, "ListDirectoryBuckets", name, (o) =>
      client.send(
        new ListDirectoryBucketsCommand(token === undefined ? {} : { ContinuationToken: token }),
        o,
      ),
    );
    const entry = (page.Buckets ?? []).find((b) => b.Name === name);
    if (entry !== undefined) return { region: entry.BucketRegion, createdAt: entry.CreationDate };
    token = page.ContinuationToken === "" ? undefined : page.ContinuationToken;
  } while (token !== undefined);
  return undefined;
}

const resourceOf = (control: DirectoryControl, name: string) => ({
  AccountId: control.account,
  ResourceArn: directoryBucketArn(name, control.region, control.account),
});

/** Every tag on the directory bucket, as S3 Control lists them. */
export async function directoryBucketTags(
  control: DirectoryControl,
  name: string,
  o: SendOptions,
): Promise<{ Key: string; Value: string }[]> {
  const { ListTagsForResourceCommand } = await import("@aws-sdk/client-s3-control");
  const out = await control.client.send(new ListTagsForResourceCommand(resourceOf(control, name)), o);
  return (out.Tags ?? []).map((t) => ({ Key: t.Key ?? "", Value: t.Value ?? "" }));
}

/**
 * TagResource and UntagResource on the directory bucket (S3 Control), as the shared tag rules
 * (../tag-changes.ts: applyTagChanges, claimTags) take them.
 */
export function directoryBucketTagWrites(
  control: DirectoryControl,
  name: string,
  ctx: CallContext,
): TagWrites {
  const resource = resourceOf(control, name);
  const field = { field: "spec.tagging" };
  const commands = () => import("@aws-sdk/client-s3-control");
  return {
    tag: async (tags) => {
      const { TagResourceCommand } = await commands();
      const Tags = Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));
      return s3.send(
        ctx,
        "TagResource",
        name,
        (o) => control.client.send(new TagResourceCommand({ ...resource, Tags }), o),
        field,
      );
    },
    untag: async (TagKeys) => {
      const { UntagResourceCommand } = await commands();
      return s3.send(
        ctx,
        "UntagResource",
        name,
        (o) => control.client.send(new UntagResourceCommand({ ...resource, TagKeys }), o),
        field,
      );
    },
  };
}
