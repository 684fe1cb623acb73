// Fencing a unit of work (one reconcile) at every write it makes (DESIGN §5): with sharding, a
// replica may lose a namespace while a reconcile of it is in flight — its Lease went stale (it
// was paused, or cut off from the apiserver) and another replica took the namespace over. Being
// allowed when the reconcile started proves nothing then. So just before each write — every
// Kubernetes request other than a GET (kube-client.ts) and every AWS call (the services'
// awsCall) — the unit's fence is asked again, and a unit no longer allowed fails there with
// FencedError, before anything is sent. Its owner also aborts its signal once it learns the unit
// is fenced, which aborts the calls already in flight.
//
// The fence travels with the async context (AsyncLocalStorage), as step-times.ts's unit does: no
// call needs to be told which reconcile it serves. Outside a unit (Lease renewals, the label
// writer, start-up) there is no fence and nothing is checked.
import { AsyncLocalStorage } from "node:async_hooks";
import { causeChain } from "../toolkit/cause-chain.ts";

/** Says, at the moment of a write, whether the unit may still write; throws FencedError if not. */
export interface Fence {
  check(): void;
}

const fencedMark = Symbol.for("crossrole.runtime.FencedError");

/** A write refused, or a call aborted, because its unit's replica no longer holds its namespace. */
export class FencedError extends Error {
  readonly [fencedMark] = true;
  constructor(message: string) {
    super(message);
    this.name = "FencedError";
  }
}

/** True for a FencedError, or an error whose cause chain (or an abort's reason) holds one. */
export function isFencedError(err: unknown): boolean {
  for (const e of causeChain(err)) {
    if ((e as { [fencedMark]?: boolean } | null)?.[fencedMark] === true) return true;
  }
  return false;
}

const current = new AsyncLocalStorage<Fence>();

/** Runs `fn` as a unit whose writes are fenced by `fence`. */
export function withFence<T>(fence: Fence, fn: () => Promise<T>): Promise<T> {
  return current.run(fence, fn);
}

/** Just before a write: throws FencedError when the current unit may no longer write. */
export function checkFence(): void {
  current.getStore()?.check();
}
