// The small shared vocabulary of the credentials module: what a provider returns, and which
// resource asked (for tenant session tags). Time (Clock, Sleep) and Random come from src/toolkit.
import type { AwsCredentialIdentity } from "@smithy/types";

/** AWS credentials as the SDK takes them; `expiration` absent = long-lived keys. */
export type Credentials = AwsCredentialIdentity & { readonly expiration?: Date };

/** A credential provider is a plain async function, so providers compose by closure. */
export type CredentialProvider = () => Promise<Credentials>;

/** The resource a request is for; tenantSessionTags turns it into session tags. */
export interface ResourceRef {
  readonly namespace: string;
  readonly kind: string;
  readonly name: string;
}

/** Where STS calls for a chain go: a region, and an endpoint override (null = AWS's regional one). */
export interface StsTarget {
  readonly region: string;
  readonly endpoint: string | null;
}
