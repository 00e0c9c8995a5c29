/**
 * Where the words of a pattern stand in a text, found in one pass, so that a check made for
 * every figure of a long reply ("is a chance word within 60 characters before it?") costs a
 * binary search instead of a regular expression over a window: a 100 kB reply of thousands of
 * figures is read in linear time with a small constant.
 */
import { holdsLetter, matchesOf } from "./matches.js";
export class WordPositions {
  private readonly starts: number[] = [];

  /** `words`: a global pattern each of whose words holds an ASCII letter. */
  constructor(text: string, words: RegExp) {
    if (!holdsLetter(text)) return;
    for (const match of matchesOf(text, words)) this.starts.push(match.index);
  }

  /** Whether one of the words starts in [from, to). */
  within(from: number, to: number): boolean {
    let low = 0;
    let high = this.starts.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.starts[middle] as number) < from) low = middle + 1;
      else high = middle;
    }
    return low < this.starts.length && (this.starts[low] as number) < to;
  }
}
