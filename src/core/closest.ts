// "Did you mean …?" for names a user typed: the known name within a small edit distance, if there is one.

/** The known name closest to `word` (Levenshtein distance at most 2, and less than the word's length). */
export function closestName(word: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Math.min(3, word.length);
  for (const k of known) {
    const d = editDistance(word, k);
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}
