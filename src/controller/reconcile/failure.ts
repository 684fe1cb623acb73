// A step among the AWS calls failed: what it was, said as what it was. Credential failures keep
// their own reason and words (they name the identity, hop and fix); a value the kind's schema
// cannot record and a failed Kubernetes call are never worded as the AWS call they happened
// beside; anything else is the module's description of AWS's error.
import { CredentialError } from "../../credentials/errors.ts";
import { isFencedError } from "../../runtime/fence.ts";
import { isNotFound, KubeApiError } from "../../runtime/kube-client.ts";
import { causeOfType } from "../../toolkit/cause-chain.ts";
import type { FailureState } from "../ack-conditions.ts";
import { kubeApiErrorIn, kubeFailureState } from "../kube-failure.ts";
import { WriteRefused } from "../write-check.ts";
import type { Env } from "./env.ts";
import { type Failed, failed } from "./result.ts";

/** The credential failure in `err` or anything in its cause chain. */
function credentialFailure(err: unknown): CredentialError | undefined {
  return causeOfType(err, CredentialError);
}

/** A failed step, classified: `reason` is the condition's when it is AWS's own error. */
export function awsFailure<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  err: unknown,
  spec: Spec,
  reason: string,
): Failed {
  if (credentialFailure(err)) {
    return failed(
      { kind: "recoverable", reason: "CredentialsUnavailable", message: errorText(env, err, spec) },
      "backoff",
      err,
    );
  }
  if (err instanceof WriteRefused) return failed(err.state, "none", err);
  if (err instanceof SeveralTagged) return failed(err.state, "backoff", err);
  const kube = kubeApiErrorIn(err);
  if (kube) return failed(kubeFailureState(kube, env.resourceType), undefined, err);
  const kind = env.module.isTerminal(err) ? "terminal" : "recoverable";
  return failed({ kind, reason, message: errorText(env, err, spec) }, undefined, err);
}

/** A one-line message for status: credential errors already name the identity, hop and fix. */
export function errorText<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  err: unknown,
  spec?: Spec,
): string {
  const credential = credentialFailure(err);
  if (credential) return credential.message;
  const kube = kubeApiErrorIn(err);
  if (kube) return kubeFailureState(kube, env.resourceType).message;
  if (spec === undefined) return err instanceof Error ? err.message : String(err);
  return env.module.describeError(err, spec);
}

/**
 * The reconcile must end as it is, not report a failure: its object is gone, or its replica may no
 * longer act on the namespace (runtime/fence.ts: nothing more may be written, status included).
 */
export function endsReconcile(err: unknown): boolean {
  return objectGone(err) || isFencedError(err);
}

/** The apiserver says the object itself is gone (a write to it answered 404). */
export function objectGone(err: unknown): boolean {
  return err instanceof KubeApiError && isNotFound(err);
}

/** Two objects carry the resource's owner-uid tag (locate.ts): nothing is done until one goes (retried with backoff). */
export class SeveralTagged extends Error {
  readonly state: FailureState;
  constructor(state: FailureState) {
    super(state.message);
    this.name = "SeveralTagged";
    this.state = state;
  }
}
