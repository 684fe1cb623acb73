// Step 2 of a sync, everything before AWS is touched: may the decision act at all (a clean `use`
// with a region), the policies from annotations, the spec as the module parses it, the values
// of its Secret-backed fields. finalize.ts reads
// the policies and the spec the same way.
import { noSecrets, type SecretValues } from "../../services/service-module.ts";
import { syncStateForDecision } from "../ack-conditions.ts";
import { adoptionFieldsConflict, adoptionSeed } from "../adoption-seed.ts";
import { type ResourcePolicies, readPolicies } from "../policies.ts";
import {
  appliedSecretsField,
  changedSecretPaths,
  readSecretInputs,
  secretFingerprint,
} from "../secret-inputs.ts";
import { type Attempt, keyFor } from "./attempt.ts";
import type { Env } from "./env.ts";
import { checkPrincipals } from "./principals.ts";
import {
  type FilledPath,
  type HeldReference,
  noReferences,
  type ReferenceCheck,
  resolveReferences,
} from "./references.ts";
import { failed, isOutcome, type Outcome } from "./result.ts";
import { warnUnknownAnnotations } from "./unknown-annotations.ts";

/** The spec's secret field values, and the Secret versions to record once AWS has them. */
export interface Inputs {
  readonly secrets: SecretValues;
  readonly versions: Readonly<Record<string, string>>;
}

const noInputs: Inputs = { secrets: noSecrets, versions: {} };

/** What a sync converges with. */
export interface Prepared<Spec> {
  readonly region: string;
  readonly policies: ResourcePolicies;
  readonly spec: Spec;
  /** The object has no spec: `spec` only names the AWS object to adopt (adoption-seed.ts). */
  readonly seeded: boolean;
  /** The plain fields `spec` has from references (references.ts): AWS's, never the user's to be written. */
  readonly referenced: readonly FilledPath[];
  /** Those references, to be checked in AWS once connected (reference-check.ts). */
  readonly checks: readonly ReferenceCheck[];
  /** References needed after the create that wait: their fields are left as AWS has them. */
  readonly held: readonly HeldReference[];
  readonly inputs: Inputs;
}

export async function prepare<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
): Promise<Prepared<Spec> | Outcome> {
  // Nothing is called in AWS unless the decision is a clean `use`.
  const blocked = syncStateForDecision(a.decision);
  if (blocked) {
    if (blocked.kind === "terminal") return failed(blocked);
    return failed(blocked, a.decision.outcome === "wait" ? env.waitRequeueMs : "none");
  }
  const region = a.decision.region;
  if (region === null) {
    return failed(
      { kind: "recoverable", reason: "IdentityUnavailable", message: "no region decided" },
      env.waitRequeueMs,
    );
  }
  const policies = policiesOf(env, a);
  if (isOutcome(policies)) return policies;
  const given = specOf(env, a, policies);
  if (isOutcome(given)) return given;
  const { seeded } = given;
  const resolved = seeded
    ? { spec: given.spec, ...noReferences }
    : await resolveReferences(env, a, given.spec);
  if (isOutcome(resolved)) {
    a.references = "refused";
    return resolved;
  }
  a.references = resolved.filled.length > 0 || resolved.checks.length > 0 ? "resolved" : "none";
  const { spec } = resolved;
  // A document letting in accounts the namespace is not granted: said, or refused (principals.ts).
  const ungranted = checkPrincipals(env, a, spec);
  if (ungranted) return ungranted;
  const inputs = await inputsOf(env, a, spec);
  if (isOutcome(inputs)) return inputs;
  // The finalizer goes on in converge, before anything is written in AWS: with a create's intent
  // in one write (intent.ts), else on its own.
  return {
    region,
    policies,
    spec,
    seeded,
    referenced: resolved.filled,
    checks: resolved.checks,
    held: resolved.held,
    inputs,
  };
}

export function policiesOf<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
): ResourcePolicies | Outcome {
  warnUnknownAnnotations(env, a);
  const r = readPolicies(
    a.obj.metadata.annotations,
    env.config.namespaceAnnotations(a.ref.namespace),
    env.module.kind.service,
    env.deletionPolicy,
  );
  if (r.ok) return r.value;
  return failed({ kind: "terminal", reason: "InvalidAnnotation", message: r.error });
}

/**
 * The spec as the module parses it; for an object with no spec, the seed that names the AWS
 * object its adoption fields point at (adoption-seed.ts), or why there is none.
 */
export function specOf<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  policies: ResourcePolicies,
): { readonly spec: Spec; readonly seeded: boolean } | Outcome {
  const given = a.obj.spec;
  if (
    given === undefined ||
    given === null ||
    (typeof given === "object" && Object.keys(given).length === 0)
  ) {
    const seed = adoptionSeed(env.module, policies, {
      region: a.decision.region ?? "",
      account: a.decision.account,
    });
    if (!seed.ok) return failed({ kind: "terminal", reason: "InvalidSpec", message: seed.message });
    // Only what names the object: converge adopts it strictly and writes AWS's spec.
    return { spec: seed.value as Spec, seeded: true };
  }
  const r = env.module.parseSpec(given);
  if (!r.ok) return failed({ kind: "terminal", reason: "InvalidSpec", message: r.message });
  // Adoption fields beside a spec must name the object the spec names.
  const conflict = adoptionFieldsConflict(env.module, policies, r.value, {
    region: a.decision.region ?? "",
    account: a.decision.account,
  });
  if (conflict !== undefined) return failed({ kind: "terminal", reason: "InvalidSpec", message: conflict });
  return { spec: r.value, seeded: false };
}

/** Secret-backed spec fields, read from the resource's own namespace only (secret-inputs.ts). */
async function inputsOf<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
  spec: Spec,
): Promise<Inputs | Outcome> {
  const fields = env.module.secretFields?.(spec) ?? [];
  if (fields.length === 0) return noInputs;
  const key = await keyFor(env, a);
  if (isOutcome(key)) return key;
  const r = await readSecretInputs(
    fields,
    a.ref.namespace,
    env.kindName,
    a.obj.status?.[appliedSecretsField],
    (namespace, name) => env.store.secret(namespace, name),
    (path, value) => secretFingerprint(key, a.owner.uid, path, value),
  );
  if (!r.ok) return failed(r.state, r.retry === "wait" ? env.waitRequeueMs : "none");
  // About to send a Secret's value again: the cache may not hold our own last status write yet
  // (its watch event lags under load), and a stale appliedSecrets would resend a value AWS
  // already has. Only then ask the apiserver for the object, once: exact, and rare. Only the
  // record differs there; the Secrets just read stay as they are.
  if (r.secrets.changed.length > 0 && a.cacheMayLag) {
    const live = await env.store.live(a.ref.namespace, a.ref.name, a.call.signal);
    if (live !== undefined && live.metadata.resourceVersion !== a.obj.metadata.resourceVersion) {
      const changed = changedSecretPaths(r.versions, live.status?.[appliedSecretsField]);
      return { secrets: { ...r.secrets, changed }, versions: r.versions };
    }
  }
  return { secrets: r.secrets, versions: r.versions };
}

/** The status record of which Secret versions AWS now has (nothing for kinds without secrets). */
export function appliedSecrets(inputs: Inputs): Readonly<Record<string, unknown>> {
  return Object.keys(inputs.versions).length === 0 ? {} : { [appliedSecretsField]: inputs.versions };
}
