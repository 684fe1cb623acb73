// What the generic runtime observed (src/services/declared-kind/), flattened for the integration
// tests first written against the hand-written modules: the spec fields at the top beside
// `fields`, `tags` (every tag, as a map), `status`, `arn`; and back, with any spec field a test
// changed at the top folded into `fields`.
import type { DeclaredObserved } from "../../src/services/declared-kind/source.ts";

/** `o` with its spec fields also at the top, and `extra` (the old modules' own names). */
export function flatObserved<T>(o: DeclaredObserved, extra: Readonly<Record<string, unknown>>): T {
  return { ...o.fields, ...o, ...extra } as T;
}

/** Back to what the module observed; the keys of `extra` are left out. */
export function observedOf(o: DeclaredObserved, extra: readonly string[]): DeclaredObserved {
  const { fields, tags, status, arn, handle, busy, ...top } = o as DeclaredObserved & Record<string, unknown>;
  for (const key of extra) delete top[key];
  return {
    fields: { ...fields, ...top },
    tags,
    status,
    arn,
    ...(handle === undefined ? {} : { handle }),
    ...(busy === undefined ? {} : { busy }),
  };
}
