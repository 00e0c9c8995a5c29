import type { OptionMap } from "../types.js";
import { chooseDistribution, distributions, isComplete } from "./choice-distributions.js";
import { lastSentenceStart } from "./choice-last-sentence.js";
import { lineBlocks, lineEnd, lineStartBefore } from "./choice-line-blocks.js";
import { LineReader } from "./choice-line-reading.js";
import { ChoiceText } from "./choice-text.js";
import { matchesOf } from "./matches.js";
import type { ChoiceEntry } from "./validate.js";

// A line that announces the answer: "Final answer:", "My final probabilities", "Final:".
const FINAL_MARKER =
  /\bfinal(?:ly)?\b[^\n]{0,30}?(?:answer|forecast|distribution|probabilit|prediction|estimate)|\bfinal\s*:/i;

const FINAL_WORD = /final/gi;

/**
 * Where the marker on the last line announcing the final answer starts, or -1. Every marker
 * holds "final", found by one search of the text: testing the marker on each line of a long
 * reply of figures cost more than reading the lines.
 */
export function lastMarker(text: string): number {
  const found = matchesOf(text, FINAL_WORD);
  for (let next = found.length - 1; next >= 0; ) {
    const at = (found[next] as RegExpExecArray).index;
    const lineStart = lineStartBefore(text, at);
    const marker = FINAL_MARKER.exec(text.slice(lineStart, lineEnd(text, at)));
    if (marker !== null) return lineStart + marker.index;
    while (next >= 0 && (found[next] as RegExpExecArray).index >= lineStart) next--;
  }
  return -1;
}

/**
 * Option probabilities from labelled lines, bullets, table rows and sentences, read from the
 * last line announcing the final answer when there is one; otherwise from the last sentence of
 * figures when a complete distribution follows it, and from the whole text when none does.
 * With `underUnreadHeading`, the text is the end of a longer reply whose first lines may be under
 * a heading left unread ("Market prices:"), and those up to a line of other text are not read.
 */
export function choiceLines(
  text: string,
  options: OptionMap | null,
  underUnreadHeading = false,
): ChoiceEntry[] {
  // "… 40% of the time last year. Final probabilities: OpenAI 0.3, …": from the marker on.
  const markerAt = lastMarker(text);
  const reader = new LineReader(new ChoiceText(text, options));
  const afterMarker = markerAt === -1 ? [] : distributions(lineBlocks(text, markerAt, reader));
  // A distribution after the marker is chosen whatever the whole text holds: the reasoning
  // before the marker, most of a long reply, is then not read at all.
  if (afterMarker.length > 0) return chooseDistribution(afterMarker, [], options);
  // The last complete distribution is chosen: one from the last sentence of figures on is.
  const sentence = lastSentenceStart(text, reader, underUnreadHeading);
  if (sentence > 0) {
    const fromSentence = distributions(lineBlocks(text, sentence, reader));
    if (fromSentence.some((distribution) => isComplete(distribution, options))) {
      return chooseDistribution([], fromSentence, options);
    }
  }
  return chooseDistribution(
    [],
    distributions(lineBlocks(text, 0, reader, underUnreadHeading)),
    options,
  );
}
