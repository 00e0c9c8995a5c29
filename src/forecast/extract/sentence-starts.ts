import { isSpaceCode } from "../number-tokens.js";

/** Where a sentence starts: the break before it ("\n", ". ", ": ") from `index` to `end`. */
export interface SentenceStart {
  index: number;
  end: number;
}

const NEWLINE = 10;
const SPACE = 32;
const TAB = 9;
const ENDS_SENTENCE = new Set([".", "!", "?", ";", ":"].map((char) => char.charCodeAt(0)));

/**
 * The last sentence start of `text` whose sentence starts at or before `from`, or null: each
 * as `/^(?=\S)/` at the start of the text and `/(?:\n|[.!?;:][ \t]+)(?=\S)/g` after it find
 * them: "So 30%.", "Overall: 35%", "- Maybe 30%". Read from `from` back, and only as far as
 * the start, so a reader that wants the last few starts of a paragraph of thousands of lines
 * pays for those alone; the next one back is the last before the found start's `end - 1`.
 */
export function sentenceStartBefore(text: string, from: number): SentenceStart | null {
  for (let end = from; end > 0; end--) {
    // Every start after the first follows a break that ends in a newline, a space or a tab:
    // only there are the characters around it looked at.
    const before = text.charCodeAt(end - 1);
    if (before !== NEWLINE && before !== SPACE && before !== TAB) continue;
    if (isSpaceCode(text.charCodeAt(end))) continue;
    if (before === NEWLINE) return { index: end - 1, end };
    let index = end - 2;
    while (index >= 0 && (text.charCodeAt(index) === SPACE || text.charCodeAt(index) === TAB)) {
      index--;
    }
    // At the very start the text's own start is found instead: ". 30%" starts at the ".".
    if (index > 0 && ENDS_SENTENCE.has(text.charCodeAt(index))) return { index, end };
  }
  return from >= 0 && !isSpaceCode(text.charCodeAt(0)) ? { index: 0, end: 0 } : null;
}
