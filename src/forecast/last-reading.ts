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

/** Forgets every kept result: called where the reading of one reply starts and ends. */
export function forgetKeptReadings(): void {
  for (const forget of forgetters) forget();
}
