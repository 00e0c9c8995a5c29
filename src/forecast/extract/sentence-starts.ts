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
 * The sentence starts of `text` from the last back, each as `/^(?=\S)/` at the start of the text
 * and `/(?:\n|[.!?;:][ \t]+)(?=\S)/g` after it find them: "So 30%.", "Overall: 35%", "- Maybe
 * 30%". A look at each character from the end, so a reader that wants the last few starts of a
 * paragraph of thousands of lines pays for those alone.
 */
export function* sentenceStartsFromEnd(text: string): Generator<SentenceStart> {
  for (let end = text.length - 1; end >= 0; end--) {
    if (isSpaceCode(text.charCodeAt(end))) continue;
    if (end === 0) {
      yield { index: 0, end: 0 };
      continue;
    }
    if (text.charCodeAt(end - 1) === NEWLINE) {
      yield { index: end - 1, end };
      continue;
    }
    let index = end - 1;
    while (index >= 0 && (text.charCodeAt(index) === SPACE || text.charCodeAt(index) === TAB)) {
      index--;
    }
    // At the very start the text's own start is found instead: ". 30%" starts at the ".".
    if (index > 0 && index < end - 1 && ENDS_SENTENCE.has(text.charCodeAt(index))) {
      yield { index, end };
    }
  }
}
