/** The candidates within two edits of `word` (or starting with it), closest first. */
export function nearest(word: string, candidates: readonly string[]): string[] {
  return candidates
    .map((candidate) => ({
      candidate,
      distance: candidate.startsWith(word) && word.length > 1 ? 1 : editDistance(word, candidate),
    }))
    .filter(({ distance }) => distance <= 2)
    .sort((a, b) => a.distance - b.distance)
    .map(({ candidate }) => candidate);
}

export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        substitution,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}
