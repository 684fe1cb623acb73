// "Did you mean": the one candidate a mistyped word is nearest to, for messages that name the
// fix (a CARM key's misspelt service prefix). Edit distance, not prefixes: `sqss` and `dynamo`
// are a letter or two away from `sqs` and `dynamodb`. Import-free, so the pure resolver may use it.

/** Levenshtein distance: single-character insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidate nearest to `word` when it is at most `maxDistance` edits away and no other
 * candidate is as near; null otherwise (a guess between two would mislead more than none).
 */
export function closestText(word: string, candidates: readonly string[], maxDistance = 2): string | null {
  let best: string | null = null;
  let bestDistance = maxDistance + 1;
  let tie = false;
  for (const candidate of new Set(candidates)) {
    const d = editDistance(word, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
      tie = false;
    } else if (d === bestDistance) {
      tie = true;
    }
  }
  return tie ? null : best;
}
