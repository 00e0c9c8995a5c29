import { blankMentions, isAttributed } from "./attributed-figures.js";
import type { Block } from "./choice-distributions.js";
import type { LineReader } from "./choice-line-reading.js";
import type { ChoiceText } from "./choice-text.js";

// A line of marks alone: a rule, a table's divider, a bullet with nothing after it.
export const DECORATIVE = /^[\s|:\-–—=*_#+]*$/;
// Marks beyond ASCII written among figures that are neither letters nor figures themselves.
const FIGURE_MARKS = "–—−±≈×·•°→…‘’“”";

/**
 * Whether the line from `start` to `end` holds a digit and nothing else an option could be
 * named by: no letter, and beyond ASCII only the marks written among figures (not "½", "é").
 * One look at each character, for the lines of figures a long reply may be made of.
 */
export function isFiguresAlone(text: string, start: number, end: number): boolean {
  let digit = false;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) digit = true;
    else if ((code | 0x20) >= 97 && (code | 0x20) <= 122) return false;
    else if (code >= 128 && !FIGURE_MARKS.includes(text[index] as string)) return false;
  }
  return digit;
}
// A line that introduces what follows: "Market prices:", "**Polling average:**", "## Odds",
// or a table's header row.
// "Label:" is tested apart: its search tries every character, the others only the start.
const HEADING = /^\s*#|^\s*\|[^\d\n]*\|\s*$/;
const LABEL_HEADING = /:[\s*_]*$/;
const HEADING_END = /[\s|*_#]+$/;

/** Whether `line` is written as a heading, which alone may give what follows to someone else. */
export function mayIntroduce(line: string): boolean {
  return HEADING.test(line) || (line.includes(":") && LABEL_HEADING.test(line));
}

/**
 * Whether a heading gives what follows to someone else or the past: "Market prices:",
 * "Betting odds imply:", "| Candidate | Polymarket |"; not "My forecast (vs the market):".
 */
export function introducesAttributed(line: string, start: number, reply: ChoiceText): boolean {
  if (!mayIntroduce(line)) return false;
  const text = line.replace(HEADING_END, "");
  const heading = blankMentions(text, reply.mentionsIn(text, start));
  const probe = `${heading} 1%`;
  return isAttributed(probe, { start: heading.length + 1, end: probe.length });
}

/**
 * Where the line holding `index` ends: the next line break, or the end of the text. A look at
 * each character, as a search from `index` would count the whole text's length on every line.
 */
export function lineEnd(text: string, index: number): number {
  let end = index;
  while (end < text.length && text.charCodeAt(end) !== 10) end++;
  return end;
}

/** Where the line holding `index` starts. */
export function lineStartBefore(text: string, index: number): number {
  let start = index;
  while (start > 0 && text.charCodeAt(start - 1) !== 10) start--;
  return start;
}

/**
 * Runs of answer lines of one kind, split by lines of other text: the lines of `text` from
 * `from` on, found in place, since most lines of a long reply of figures need no copy of their own.
 * With `headingUnread`, the first lines may be under a heading that gives them to someone else.
 */
export function lineBlocks(
  text: string,
  from: number,
  reader: LineReader,
  headingUnread = false,
): Block[] {
  const names = reader.reply.names;
  const blocks: Block[] = [];
  let current: Block | null = null;
  // Lines under a heading that gives them to someone else, up to the next line of other text.
  let othersFigures = headingUnread;
  for (let start = from, end = 0; end < text.length; start = end + 1) {
    end = lineEnd(text, start);
    // An empty line changes nothing. A line of figures alone names no option (unless an
    // option's text holds figures) and no source (it has too few letters): it ends a block.
    if (start === end) continue;
    if (names?.namedByFigures !== true && isFiguresAlone(text, start, end)) {
      othersFigures = false;
      if (current !== null) blocks.push(current);
      current = null;
      continue;
    }
    const line = text.slice(start, end);
    const reading = reader.read(line, start);
    const stated = reading.entries;
    if (stated.length === 0 && !DECORATIVE.test(line)) {
      othersFigures = introducesAttributed(line, start, reader.reply);
    }
    const entries = othersFigures ? [] : stated;
    // A sentence states its distribution whole; labelled lines build one up line by line.
    if (entries.length > 0 && current?.prose === false && !reading.prose) {
      for (const entry of entries) current.entries.push(entry);
    } else if (entries.length > 0) {
      if (current !== null) blocks.push(current);
      // A copy: the reading is kept for the next line like it, and blocks grow.
      current = { entries: entries.slice(), prose: reading.prose };
    } else if (!DECORATIVE.test(line) && current !== null) {
      blocks.push(current);
      current = null;
    }
  }
  if (current !== null) blocks.push(current);
  return blocks;
}
