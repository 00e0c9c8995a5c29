import { DECORATIVE, isFiguresAlone, lineStartBefore, mayIntroduce } from "./choice-line-blocks.js";

// How many lines with figures before the part read are looked past for the line that decides
// whether a heading governs it; past them, one may.
const LINES_LOOKED_BACK = 16;
const DIGIT = /\d/;

/**
 * Whether the first lines of `text` from `start` on may be under a heading before `start`,
 * which gives the figures under it to someone else ("Market prices:") up to the next line of
 * other text. The lines before are looked at back to one that ends such a run: a line of
 * figures alone, or of words with no figure that is not written as a heading. A line with
 * figures may state options' figures, which keep a heading's run going, so it is looked past.
 * Nothing is read: a line that may be a heading counts as one.
 */
export function opensUnderHeading(text: string, start: number): boolean {
  let end = lineStartBefore(text, start) - 1;
  for (let looked = 0; end >= 0; end = lineStartBefore(text, end) - 1) {
    const lineStart = lineStartBefore(text, end);
    if (lineStart === end) continue;
    if (isFiguresAlone(text, lineStart, end)) return false;
    const line = text.slice(lineStart, end);
    if (mayIntroduce(line)) return true;
    if (!DIGIT.test(line)) {
      if (!DECORATIVE.test(line)) return false;
    } else if (++looked > LINES_LOOKED_BACK) {
      return true;
    }
  }
  return false;
}
