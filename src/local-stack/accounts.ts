// Which account holds what, asked in the emulator with that account's own credentials
// (moto maps an assumed role's keys to the role's account).
import {
  GetBucketLocationCommand,
  GetBucketTaggingCommand,
  ListBucketsCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { AssumeRoleCommand, STSClient } from "@aws-sdk/client-sts";
import type { KindName } from "../api/kinds.ts";
import { isReservedTagKey } from "../api/reserved-tag-keys.ts";
import { servedKindCatalog } from "../services/catalog.ts";
import { controllerAccount, controllerCredentials, region } from "./controller-process.ts";

/** Assumed roles' credentials by endpoint and account: each role is assumed once per process. */
const assumed = new Map<string, ReturnType<typeof assumeInspectorRole>>();

export async function credentialsFor(endpoint: string, account: string) {
  if (account === controllerAccount) return controllerCredentials;
  const key = `${endpoint}\u0000${account}`;
  let credentials = assumed.get(key);
  if (credentials === undefined) {
    const pending = assumeInspectorRole(endpoint, account);
    // A failed AssumeRole is not kept: the next call tries again.
    pending.catch(() => {
      if (assumed.get(key) === pending) assumed.delete(key);
    });
    assumed.set(key, pending);
    credentials = pending;
  }
  return credentials;
}

async function assumeInspectorRole(endpoint: string, account: string) {
  const sts = new STSClient({ region, endpoint, credentials: controllerCredentials });
  const out = await sts.send(
    new AssumeRoleCommand({
      RoleArn: `arn:aws:iam::${account}:role/e2e-inspector`,
      RoleSessionName: "e2e-inspector",
    }),
  );
  const c = out.Credentials;
  if (!c?.AccessKeyId || !c.SecretAccessKey)
    throw new Error(`AssumeRole into ${account} returned no credentials`);
  return { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken };
}

const clients = new Map<string, unknown>();

/**
 * An SDK client of class `Client` acting as `account` itself (what an out-of-band change, or an
 * inspector, uses), one per class, endpoint and account.
 */
export async function clientAs<C>(
  Client: new (config: {
    region: string;
    endpoint: string;
    credentials: Awaited<ReturnType<typeof credentialsFor>>;
  }) => C,
  endpoint: string,
  account: string,
): Promise<C> {
  const key = `${Client.name}\u0000${endpoint}\u0000${account}`;
  let c = clients.get(key) as C | undefined;
  if (c === undefined) {
    c = new Client({ region, endpoint, credentials: await credentialsFor(endpoint, account) });
    clients.set(key, c);
  }
  return c;
}

/** An S3 client acting as `account` itself (what an out-of-band change, or an inspector, uses). */
export async function s3As(endpoint: string, account: string): Promise<S3Client> {
  return new S3Client({
    region,
    endpoint,
    forcePathStyle: true,
    credentials: await credentialsFor(endpoint, account),
  });
}

/** The bucket names account `account` owns, as S3's ListBuckets answers for it. */
export async function bucketsIn(endpoint: string, account: string): Promise<string[]> {
  const s3 = await s3As(endpoint, account);
  const out = await s3.send(new ListBucketsCommand({}));
  return (out.Buckets ?? []).map((b) => b.Name ?? "").sort();
}

/** Where S3 says `bucket` (owned by `account`) lives. */
export async function bucketRegion(endpoint: string, account: string, bucket: string): Promise<string> {
  const s3 = await s3As(endpoint, account);
  const out = await s3.send(new GetBucketLocationCommand({ Bucket: bucket }));
  return out.LocationConstraint || "us-east-1";
}

/** The accounts (among `accounts`) whose ListBuckets includes `bucket`. */
export async function accountsHolding(
  endpoint: string,
  bucket: string,
  accounts: readonly string[],
): Promise<string[]> {
  const out: string[] = [];
  for (const a of accounts) if ((await bucketsIn(endpoint, a)).includes(bucket)) out.push(a);
  return out;
}

/**
 * A bucket's tags as `account` reads them, split into the user's tags and crossrole's
 * ownership tags (DESIGN §3.5), so tests compare each with what they expect.
 */
export async function bucketTagsIn(
  endpoint: string,
  account: string,
  bucket: string,
): Promise<{ user: Record<string, string>; ownership: Record<string, string> }> {
  const s3 = await s3As(endpoint, account);
  let tags: [string, string][] = [];
  try {
    const out = await s3.send(new GetBucketTaggingCommand({ Bucket: bucket }));
    tags = (out.TagSet ?? []).map((t) => [t.Key ?? "", t.Value ?? ""]);
  } catch (err) {
    if ((err as { name?: string }).name !== "NoSuchTagSet") throw err;
  }
  return {
    user: Object.fromEntries(tags.filter(([k]) => !isReservedTagKey(k))),
    ownership: Object.fromEntries(tags.filter(([k]) => isReservedTagKey(k))),
  };
}

/**
 * The accounts (among `accounts`) that hold a resource of `kind` named `name` in `inRegion`, each
 * asked with its own credentials by the kind's inspector (src/services/catalog.ts, `locate`):
 * what the main job and placement checks print as "in AWS".
 */
export async function accountsHoldingResource(
  endpoint: string,
  kind: string,
  name: string,
  inRegion: string,
  accounts: readonly string[],
): Promise<string[]> {
  if (!Object.hasOwn(servedKindCatalog, kind))
    throw new Error(`accountsHoldingResource: ${kind} is no served kind`);
  const { locate } = servedKindCatalog[kind as KindName];
  const out: string[] = [];
  for (const account of accounts) {
    const config = { region: inRegion, endpoint, credentials: await credentialsFor(endpoint, account) };
    if (await locate(config, name)) out.push(account);
  }
  return out;
}
