/**
 * `read` that keeps its last result: the readings of one reply ask for the same derived text
 * (its numbers, its words of chance rewritten) several times in a row, and on a long reply each
 * costs a pass over all of it. The result is shared between callers, which must not change it.
 */
export function keepingLast<T>(read: (text: string) => T): (text: string) => T {
  let lastText: string | null = null;
  let lastResult: T | undefined;
  return (text: string): T => {
    if (text !== lastText || lastResult === undefined) {
      lastResult = read(text);
      lastText = text;
    }
    return lastResult;
  };
}
