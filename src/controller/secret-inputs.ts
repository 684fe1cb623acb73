// Spec fields whose values live in Secrets (a DBInstance's masterUserPassword): where they may
// be read from, reading them, and knowing when AWS must be told again.
//
// A reference is followed only inside the resource's own namespace. ACK follows
// `namespace` wherever it points; here that would let anyone who may create a DBInstance read
// (and send to AWS, where they can read it back) any Secret the controller can read: an
// escalation path (DESIGN §3.4), refused as Terminal until the spec changes.
//
// Which value was last applied is recorded in `status.appliedSecrets` (path → a MAC of the value
// with the controller's key, controller-key.ts): the value itself is never stored, nor a plain
// hash a tenant could test guesses against, and only a changed value is sent again — a Secret
// rewritten with the same value, or another of its keys changed, is not a change to AWS (RDS
// logs every password it is sent as a modification). Status is tenant-writable, and that is
// fine here: a forged record can only make the controller send the current value again (or not
// send a value AWS already has), never choose what is read.
import type { SecretField, SecretValues } from "../services/service-module.ts";
import type { FailureState } from "./ack-conditions.ts";
import type { ControllerKey } from "./controller-key.ts";

/** A Secret as the apiserver returns it (only what is read here). */
export interface SecretObject {
  readonly metadata: { readonly uid?: string; readonly resourceVersion?: string };
  readonly data?: Readonly<Record<string, string>>;
}

/** Reads one Secret of a namespace; undefined when it does not exist. */
export type SecretGetter = (namespace: string, name: string) => Promise<SecretObject | undefined>;

/** The status field recording, per secret field, the fingerprint of the value last applied in AWS. */
export const appliedSecretsField = "appliedSecrets";

export type SecretInputs =
  | {
      readonly ok: true;
      readonly secrets: SecretValues;
      /** What to record in status once AWS has been given these values: path → fingerprint. */
      readonly versions: Readonly<Record<string, string>>;
    }
  | { readonly ok: false; readonly state: FailureState; readonly retry: "none" | "wait" };

/** The first reference that leaves the resource's namespace, as a Terminal state; else undefined. */
export function foreignSecretRef(
  fields: readonly SecretField[],
  namespace: string,
  noun: string,
): FailureState | undefined {
  for (const { path, ref } of fields) {
    if (ref.namespace === undefined || ref.namespace === "" || ref.namespace === namespace) continue;
    return {
      kind: "terminal",
      reason: "SecretNotPermitted",
      message: `${path} names Secret "${ref.name}" in namespace "${ref.namespace}", but a ${noun} may only read Secrets in its own namespace ("${namespace}"): remove ${path}.namespace and create the Secret in "${namespace}"`,
    };
  }
  return undefined;
}

/**
 * What status records for a value AWS was given: the controller key's MAC of it, bound to the
 * object and the field (equal passwords of two objects do not show as equal records).
 */
export function secretFingerprint(key: ControllerKey, ownerUid: string, path: string, value: string): string {
  return key.mac(["crossrole.dev/secret-value/v1", ownerUid, path, value]);
}

/** Paths whose value's fingerprint differs from the one recorded as applied (or was never recorded). */
export function changedSecretPaths(versions: Readonly<Record<string, string>>, recorded: unknown): string[] {
  const applied =
    recorded !== null && typeof recorded === "object" ? (recorded as Record<string, unknown>) : {};
  return Object.keys(versions)
    .filter((path) => applied[path] !== versions[path])
    .sort();
}

/**
 * Reads every secret field's value from the resource's own namespace. A missing Secret or key
 * is Recoverable (`wait`: it may be created later; the Secret watch re-queues at once).
 */
export async function readSecretInputs(
  fields: readonly SecretField[],
  namespace: string,
  noun: string,
  recorded: unknown,
  get: SecretGetter,
  fingerprint: (path: string, value: string) => string,
): Promise<SecretInputs> {
  const foreign = foreignSecretRef(fields, namespace, noun);
  if (foreign) return { ok: false, state: foreign, retry: "none" };
  const values = new Map<string, string>();
  const versions: Record<string, string> = {};
  for (const { path, ref } of fields) {
    const unavailable = (why: string): SecretInputs => ({
      ok: false,
      state: { kind: "recoverable", reason: "SecretUnavailable", message: `${path}: ${why}` },
      retry: "wait",
    });
    let secret: SecretObject | undefined;
    try {
      secret = await get(namespace, ref.name);
    } catch (err) {
      return unavailable(
        `cannot read Secret "${namespace}/${ref.name}": ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (secret === undefined) {
      return unavailable(
        `Secret "${namespace}/${ref.name}" not found; create it in namespace "${namespace}" with key "${ref.key}"`,
      );
    }
    const encoded = secret.data?.[ref.key];
    if (encoded === undefined) {
      const keys = Object.keys(secret.data ?? {}).sort();
      return unavailable(
        `Secret "${namespace}/${ref.name}" has no key "${ref.key}" (it has ${keys.length > 0 ? keys.map((k) => `"${k}"`).join(", ") : "none"}); add it or change ${path}.key`,
      );
    }
    const value = Buffer.from(encoded, "base64").toString("utf8");
    values.set(path, value);
    versions[path] = fingerprint(path, value);
  }
  return { ok: true, secrets: { values, changed: changedSecretPaths(versions, recorded) }, versions };
}
