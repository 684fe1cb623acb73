// Static keys (AWSStaticIdentity): `AccessKeyID`, `SecretAccessKey` and optional `SessionToken`
// from a Secret in the controller's system namespace. The Secret is read when the chain is
// planned (its data hash is part of the cache key, so a rotated Secret is a new key); the
// provider turns that data into credentials, naming the Secret and key when one is missing.
import { type HopContext, SecretUnavailableError } from "../errors.ts";
import type { SecretData, SecretReader } from "../secret-reader.ts";
import type { CredentialProvider, Credentials } from "../types.ts";

export const staticSecretKeys = {
  accessKeyId: "AccessKeyID",
  secretAccessKey: "SecretAccessKey",
  sessionToken: "SessionToken",
} as const;

export interface StaticSecretRef {
  readonly namespace: string;
  readonly name: string;
  readonly context: HopContext;
}

function missing(ref: StaticSecretRef, key: string | null): SecretUnavailableError {
  const secret = `${ref.namespace}/${ref.name}`;
  return new SecretUnavailableError({
    context: ref.context,
    secret,
    key,
    summary:
      key === null ? `Secret ${secret} does not exist` : `Secret ${secret} has no (or an empty) key ${key}`,
    fix:
      key === null
        ? `create Secret ${ref.name} in namespace ${ref.namespace} with keys ${staticSecretKeys.accessKeyId} and ${staticSecretKeys.secretAccessKey} (optional ${staticSecretKeys.sessionToken}), or correct secretRef on ${ref.context.identity}`
        : `add key ${key} to Secret ${secret}`,
  });
}

/** Reads the Secret a static identity names; a missing Secret is an error naming it. */
export async function readStaticSecret(secrets: SecretReader, ref: StaticSecretRef): Promise<SecretData> {
  const data = await secrets.read(ref.namespace, ref.name);
  if (data === null) throw missing(ref, null);
  return data;
}

/** The credentials in a static identity's Secret data; a missing key is an error naming it. */
export function credentialsFromSecret(data: SecretData, ref: StaticSecretRef): Credentials {
  const accessKeyId = data[staticSecretKeys.accessKeyId]?.trim();
  const secretAccessKey = data[staticSecretKeys.secretAccessKey]?.trim();
  const sessionToken = data[staticSecretKeys.sessionToken]?.trim();
  if (!accessKeyId) throw missing(ref, staticSecretKeys.accessKeyId);
  if (!secretAccessKey) throw missing(ref, staticSecretKeys.secretAccessKey);
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

/** Provider over Secret data already read (the data that shaped the cache key). */
export function staticCredentials(data: SecretData, ref: StaticSecretRef): CredentialProvider {
  return async () => credentialsFromSecret(data, ref);
}
