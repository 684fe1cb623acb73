// What admission tests need to read an apiserver's refusal: the 422's field causes.
import assert from "node:assert/strict";
import { KubeApiError } from "../../src/runtime/kube-client.ts";

export interface Cause {
  readonly field?: string;
  readonly message?: string;
}

/** Runs `write`, expecting a 422 Invalid; returns the field causes the apiserver gave. */
export async function rejection(write: () => Promise<unknown>): Promise<Cause[]> {
  try {
    await write();
  } catch (err) {
    assert.ok(err instanceof KubeApiError, `expected an API error, got ${String(err)}`);
    assert.equal(err.status, 422, `expected 422 Invalid, got ${err.status}: ${err.message}`);
    const status = (typeof err.body === "string" ? JSON.parse(err.body) : err.body) as {
      details?: { causes?: Cause[] };
    };
    return status.details?.causes ?? [];
  }
  assert.fail("the apiserver accepted the object");
}

export function show(causes: readonly Cause[]): string {
  return causes.map((c) => `${c.field ?? "<no field>"}: ${c.message ?? ""}`).join("\n");
}
