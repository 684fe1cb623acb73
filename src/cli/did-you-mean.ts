// "Did you mean" for the CLI's mistakes (a subcommand, a flag, a kind, an output format, a
// manifest's kind): the one known spelling nearest to what was typed, by edit distance
// (src/toolkit/closest-text.ts), ignoring case, since `Bucket` and `bucket` are one typo apart
// for a person but two edits apart for the distance.
import { closestText } from "../toolkit/closest-text.ts";

/** The candidate `word` most likely misspells, as the candidate is written; null when none is near. */
export function closestKnown(word: string, candidates: readonly string[]): string | null {
  const byLower = new Map<string, string>();
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    if (!byLower.has(lower)) byLower.set(lower, candidate);
  }
  const lower = word.toLowerCase();
  // A word only different in case is still a typo worth naming (e.g. `-o JSON`).
  const exact = byLower.get(lower);
  if (exact !== undefined) return exact === word ? null : exact;
  // A word of one or two letters is near everything short: then only one edit counts.
  const found = closestText(lower, [...byLower.keys()], lower.length <= 2 ? 1 : 2);
  return found === null ? null : (byLower.get(found) ?? null);
}

/**
 * ` Did you mean <candidate>?` to append to a message, or "" when nothing is near; `show`
 * writes the candidate as the user would type it (e.g. `-o html`).
 */
export function didYouMean(
  word: string,
  candidates: readonly string[],
  show: (candidate: string) => string = (c) => `"${c}"`,
): string {
  const found = closestKnown(word, candidates);
  return found === null ? "" : ` Did you mean ${show(found)}?`;
}
