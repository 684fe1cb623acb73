// One reconcile of one object: what load.ts takes from the cache and the decision, and what the
// steps after it read (and the few things they carry forward: the object as last written, the
// controller's key once needed, the cleanup of a create whose object went away).
import type { Logger } from "pino";
import type { ResourceRef } from "../../credentials/types.ts";
import type { Decision } from "../../resolver/types.ts";
import type { CallContext } from "../../services/call-context.ts";
import { type ControllerKey, ControllerKeyError } from "../controller-key.ts";
import type { Owner } from "../ownership.ts";
import type { Env } from "./env.ts";
import type { ManagedObject } from "./object-store.ts";
import { failed, type Outcome } from "./result.ts";

export interface Attempt {
  /** The object as last written (updated when the finalizer is added or the spec patched). */
  obj: ManagedObject;
  readonly decision: Decision;
  readonly ref: ResourceRef;
  readonly key: string;
  readonly owner: Owner;
  readonly call: CallContext;
  readonly log: Logger;
  /**
   * Whether a write of ours was still unseen when `obj` was taken from the cache, so `obj` may
   * be older than what this controller last wrote. Taken in the same synchronous step as `obj`:
   * an echo that arrives during a later await updates the cache, not `obj`.
   */
  readonly cacheMayLag: boolean;
  /**
   * Set once this attempt called create: deletes what the create made if the Kubernetes object
   * turns out to be gone (another controller released it meanwhile), so nothing is orphaned.
   */
  onGone?: () => Promise<void>;
  /** The controller's key, once this attempt needed it. */
  controllerKey?: ControllerKey;
  /**
   * The IdentitySelected Event this reconcile owes (load.ts): said in its create's Event if it
   * creates, else by settle.ts at its end.
   */
  identityNote?: string;
  /**
   * Set once this attempt's create made the object: what the create call cannot carry (a bucket's
   * versioning) is then applied by the update that follows, as part of the creation, which its
   * Created Event has said: no "brought back" Event for it.
   */
  createdNow?: boolean;
  /**
   * Where this attempt got with the spec's references (ACK.ReferencesResolved): none set, every one
   * resolved (and held in AWS), or one refused; undefined while not reached (the condition stays).
   */
  references?: "none" | "resolved" | "refused";
}

/** The controller's key (controller-key.ts), or why it is not available: then nothing is created. */
export async function keyFor<Spec extends object, Observed, Client>(
  env: Env<Spec, Observed, Client>,
  a: Attempt,
): Promise<ControllerKey | Outcome> {
  if (a.controllerKey) return a.controllerKey;
  try {
    a.controllerKey = await env.controllerKey.get(a.call.signal);
    return a.controllerKey;
  } catch (err) {
    if (!(err instanceof ControllerKeyError)) throw err;
    return failed(
      { kind: "recoverable", reason: "ControllerKeyUnavailable", message: err.message },
      "backoff",
      err,
    );
  }
}
