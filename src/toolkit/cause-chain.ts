// An error and the errors it wraps (`cause`), walked once the same way everywhere: the reconcile
// contract's TerminalError, a credential failure inside an AWS call's error, a Kubernetes
// failure among a reconcile's steps, a create AWS refused. Bounded, so a cycle of causes ends it.

const maxDepth = 10;

/** `err` and the errors in its `cause` chain, outermost first. */
export function* causeChain(err: unknown): Generator<object> {
  for (let e = err, depth = 0; e !== null && typeof e === "object" && depth < maxDepth; depth++) {
    yield e;
    e = (e as { cause?: unknown }).cause;
  }
}

/** The first error of the chain that is an instance of `Class`. */
export function causeOfType<T>(err: unknown, Class: abstract new (...args: never[]) => T): T | undefined {
  for (const e of causeChain(err)) if (e instanceof Class) return e;
  return undefined;
}
