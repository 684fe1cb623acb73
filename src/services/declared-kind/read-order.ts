// In which order a read's own calls go (the tags, the groups read by calls of their own): one
// after another, stopping at the first that found the object gone, or all at once
// (runtime.read.groupsAtOnce), where a failure is still the first in their order.

/** What a read was answered when the object went between its calls. */
export const gone = Symbol("gone");

/** Reads one after another, stopping after one that found the object gone (shorter then). */
export async function inTurn(reads: readonly (() => Promise<unknown>)[]): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const read of reads) {
    const answer = await read();
    answers.push(answer);
    if (answer === gone) break;
  }
  return answers;
}

/**
 * Reads all at once; the object gone in any is gone, else a failure is the first in their order,
 * whichever AWS answered first.
 */
export async function allAtOnce(reads: readonly (() => Promise<unknown>)[]): Promise<unknown[]> {
  const settled = await Promise.allSettled(reads.map((read) => read()));
  // The object gone meanwhile says more than another read's failure.
  if (settled.some((r) => r.status === "fulfilled" && r.value === gone)) return [gone];
  const failed = settled.find((r) => r.status === "rejected");
  if (failed !== undefined) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value);
}
