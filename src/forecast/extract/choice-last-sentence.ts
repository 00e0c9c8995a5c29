import {
  DECORATIVE,
  introducesAttributed,
  isFiguresAlone,
  lineStartBefore,
  mayIntroduce,
} from "./choice-line-blocks.js";
import type { LineReader } from "./choice-line-reading.js";

// How many lines from the end are looked at for a sentence of option figures before the search
// gives up: a reply of labelled lines or figures alone holds none, and would be read twice.
const LINES_LOOKED_AT_FOR_A_SENTENCE = 64;

/**
 * Where the last sentence of option figures near the end of `text` starts, when the lines from
 * there on are read as they are in the whole text; else -1. A sentence states its distribution
 * whole and the line after it starts another, so the distributions of the whole text from it on
 * are those of the text from it on, as long as it is not under a heading that gives its figures
 * to someone else. Only a line written as a heading may be one, and one of figures alone ends
 * any, so the lines before the sentence are looked at back to one of those, and only a heading
 * among them is read. When `headingUnread`, the text is the end of a longer reply, and a
 * sentence with no such line before it may be under a heading left unread: -1.
 */
export function lastSentenceStart(text: string, reader: LineReader, headingUnread = false): number {
  const endsHeadings = reader.reply.names?.namedByFigures !== true;
  let sentence = -1;
  let looked = 0;
  for (let end = text.length; ; ) {
    const start = lineStartBefore(text, end);
    const figuresAlone = start < end && endsHeadings && isFiguresAlone(text, start, end);
    if (sentence === -1 && start < end && ++looked > LINES_LOOKED_AT_FOR_A_SENTENCE) return -1;
    if (sentence === -1 && start < end && !figuresAlone) {
      const reading = reader.read(text.slice(start, end), start);
      if (reading.prose && reading.entries.length > 0) sentence = start;
    } else if (sentence !== -1 && figuresAlone) {
      return sentence;
    } else if (sentence !== -1 && start < end) {
      const line = text.slice(start, end);
      // A heading with figures of its own, or of marks alone, is no heading to the lines after it.
      if (
        mayIntroduce(line) &&
        reader.read(line, start).entries.length === 0 &&
        !DECORATIVE.test(line)
      ) {
        return introducesAttributed(line, start, reader.reply) ? -1 : sentence;
      }
    }
    if (start === 0) return headingUnread ? -1 : sentence;
    end = start - 1;
  }
}
