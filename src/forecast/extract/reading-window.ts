/**
 * How much of a reply its answer is read from. A reply states its final answer at its end, and
 * reading every figure of a 100 kB reply would hold the event loop for tens of milliseconds, so
 * a longer reply is read from its last part only. What was left unread may hold a statement the
 * end does not repeat ("Answer: 35%" before pages of reasoning), so such a reply is read only by
 * rules for statements the reply commits to (tags, labels, final markers, option lists), never
 * by the loose readings of a figure in prose: those would take a figure from the reasoning.
 */
export const READING_WINDOW_CHARACTERS = 8_000;

// How far past the cut a line, then a sentence, is looked for to start the part read at: a
// reply of one long line has no line start near its end.
const BOUNDARY_REACH = 4_000;
const SENTENCE_END = /[.!?]["')\]]*\s+/g;
const SPACE = /\s+/g;

export interface ReadingWindow {
  /** The part of the reply its answer is read from. */
  text: string;
  /** Where it starts in the reply: after the part left unread. */
  start: number;
  /** Whether an earlier part was left unread. */
  cut: boolean;
}

/** Where the first match of `pattern` at or after `from` ends, if within reach; else -1. */
function endOfMatchFrom(text: string, pattern: RegExp, from: number): number {
  pattern.lastIndex = from;
  const match = pattern.exec(text);
  if (match === null || match.index > from + BOUNDARY_REACH) return -1;
  return match.index + match[0].length;
}

/** The start of the first line, else sentence, else word at or after `from`. */
function statementStart(text: string, from: number): number {
  const lineBreak = text.indexOf("\n", from - 1);
  if (lineBreak !== -1 && lineBreak < from + BOUNDARY_REACH) return lineBreak + 1;
  const sentence = endOfMatchFrom(text, SENTENCE_END, from);
  if (sentence !== -1) return sentence;
  const word = endOfMatchFrom(text, SPACE, from);
  return word === -1 ? from : word;
}

/**
 * The part of `text` its answer is read from: all of it, or its last `characters` from a
 * statement's start.
 */
export function readingWindow(text: string, characters = READING_WINDOW_CHARACTERS): ReadingWindow {
  if (text.length <= characters) return { text, start: 0, cut: false };
  const start = statementStart(text, text.length - characters);
  return { text: text.slice(start), start, cut: true };
}
