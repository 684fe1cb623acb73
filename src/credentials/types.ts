// The small shared vocabulary of the credentials module: what a provider returns, how time is
// read (injected so tests can move it), and which resource asked (for tenant session tags).
import type { AwsCredentialIdentity } from "@smithy/types";

/** AWS credentials as the SDK takes them; `expiration` absent = long-lived keys. */
export type Credentials = AwsCredentialIdentity & { readonly expiration?: Date };

/** A credential provider is a plain async function, so providers compose by closure. */
export type CredentialProvider = () => Promise<Credentials>;

/** Where "now" comes from. Injected everywhere a decision depends on time. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Waits; injected next to the clock so tests of waiting code need no real time. */
export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) =>
  new Promise((resolve) => {
    setTimeout(resolve, Math.max(0, ms));
  });

/** A number in [0, 1); injected so jitter is reproducible in tests. */
export type Random = () => number;

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
