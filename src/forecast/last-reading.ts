/*
 * The readings of one reply ask for the same derived text (its numbers, its words of chance
 * rewritten) several times in a row, and on a long reply each costs a pass over all of it.
 * Such a derivation keeps its last result for the reading of one reply: the reading of the
 * next starts by forgetting them all, so no reply is read faster for having been read before.
 */

const forgetters: (() => void)[] = [];

/** `read` that keeps its last result; the result is shared, and callers must not change it. */
export function keepingLast<T>(read: (text: string) => T): (text: string) => T {
  let lastText: string | null = null;
  let lastResult: T | undefined;
  forgetters.push(() => {
    lastText = null;
    lastResult = undefined;
  });
  return (text: string): T => {
    if (text !== lastText || lastResult === undefined) {
      lastResult = read(text);
      lastText = text;
    }
    return lastResult;
  };
}

/**
 * `read` that keeps its results for the last `count` texts: for a check asked of the reply and
 * of the texts derived from it in turn, whose results would push each other out of one place.
 */
export function keepingRecent<T>(read: (text: string) => T, count: number): (text: string) => T {
  const texts: string[] = [];
  const results: T[] = [];
  forgetters.push(() => {
    texts.length = 0;
    results.length = 0;
  });
  return (text: string): T => {
    const kept = texts.indexOf(text);
    if (kept !== -1) return results[kept] as T;
    const result = read(text);
    if (texts.length === count) {
      texts.pop();
      results.pop();
    }
    texts.unshift(text);
    results.unshift(result);
    return result;
  };
}

/** Forgets every kept result: called where the reading of one reply starts and ends. */
export function forgetKeptReadings(): void {
  for (const forget of forgetters) forget();
}
