import { type NumberToken, readNumberAt, wholeNumber } from "../numbers.js";
import type { OptionMap } from "../types.js";
import { letterForLabel } from "./option-labels.js";
import type { ChoiceEntry, RawNumber } from "./validate.js";

// Bullets, quote marks, headings, table pipes and list numbers before a line's label.
const LINE_LEAD = /^[\s>#*•+|-]*(?:\d{1,2}[.)]\s+)?/;
const PREFIXED_LETTER = /^(?:option|choice)[\s_-]*\(?([a-z])\)?(?![a-z0-9])/i;
const PARENTHESIZED_LETTER = /^\(([A-Z])\)/;
// A bare capital needs punctuation after it, so "I think…" and "U.S." are not labels.
const BARE_LETTER = /^([A-Z])(?:[):\]]|\.(?=\s|$)|(?=\s*[–—=|:])|(?=\s+-\s)|(?=\s+\())/;
const SEPARATOR = /[:=|]|\s[-–—]\s|[–—→]/g;
// "A: 50%, B: 30%"; with only a space between ("A 50%, B 30%") the figure must be a percentage.
const INLINE_ENTRY =
  /(?:^|[\s,;(])(?:[Oo]ption[\s_]*|[Cc]hoice[\s_]*)?\(?([A-Z])\)?(?:\s*([:=]|\s[-–—]\s)|\s+(?=[-−]?[\d.]))/g;
// "A) Red (50%)": the probability in brackets at the end of the line.
const BRACKETED_PERCENT = /\(\s*([^()]*?%)\s*\)[\s|*.,;]*$/;
// What may join an option's name to its probability in prose: "Red at 50%", "Blue: 30%".
const NAME_JOINER = String.raw`\s*(?:\([^)\n]{0,40}\))?\s*(?:[:=]|[-–—]|\bat\b|\bgets\b|\bwith\b|\bon\b)?\s*`;
// Text that may follow a figure in a "label: figure" line without making it prose.
const TRAILING_JUNK = /^[\s|*.,;]*$/;
const TRAILING_COMMENT = /^\s*[(\-–—,;]/;
const DECORATIVE = /^[\s|:\-–—=*_#+]*$/;

function labelledLetter(line: string): { letter: string; rest: string } | null {
  for (const pattern of [PREFIXED_LETTER, PARENTHESIZED_LETTER, BARE_LETTER]) {
    const match = pattern.exec(line);
    if (match?.[1] !== undefined) {
      return { letter: match[1].toUpperCase(), rest: line.slice(match[0].length) };
    }
  }
  return null;
}

/**
 * The probability a label's remainder states: the figure after the last separator that has
 * one ("A) Above 5%: 30%" → 30%), or a figure standing alone ("C) 20%"). A figure followed by
 * prose only counts when written as a percentage after a separator.
 */
function probabilityAfterLabel(rest: string): { raw: RawNumber; labelEnd: number } | null {
  const separators = [...rest.matchAll(SEPARATOR)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
  }));
  for (const separator of separators.reverse()) {
    const token = readNumberAt(rest, separator.end);
    if (token === null) continue;
    const after = rest.slice(token.end);
    if (token.percent || TRAILING_JUNK.test(after) || TRAILING_COMMENT.test(after)) {
      return { raw: token, labelEnd: separator.start };
    }
  }
  const alone = readNumberAt(rest, 0);
  if (alone !== null && TRAILING_JUNK.test(rest.slice(alone.end))) {
    return { raw: alone, labelEnd: 0 };
  }
  const bracketed = BRACKETED_PERCENT.exec(rest);
  const inBrackets = bracketed === null ? null : wholeNumber(bracketed[1] ?? "");
  return bracketed === null || inBrackets === null
    ? null
    : { raw: inBrackets, labelEnd: bracketed.index };
}

function inlineEntries(line: string): ChoiceEntry[] {
  const entries: ChoiceEntry[] = [];
  for (const match of line.matchAll(INLINE_ENTRY)) {
    const token = readNumberAt(line, match.index + match[0].length);
    const separated = match[2] !== undefined;
    if (match[1] !== undefined && token !== null && (separated || token.percent)) {
      entries.push({ letter: match[1], raw: token });
    }
  }
  return entries;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

interface NameMention {
  letter: string;
  pattern: RegExp;
}

/** One pattern per option, matching its name and what joins it to a figure. */
function nameMentions(options: OptionMap): NameMention[] {
  return Object.entries(options)
    .map(([letter, text]) => ({ letter, name: escapeRegExp(text.trim()).replace(/\s+/g, "\\s+") }))
    .filter(({ name }) => name !== "")
    .map(({ letter, name }) => ({
      letter,
      pattern: new RegExp(
        String.raw`(?<![\p{L}\p{N}])${name}(?![\p{L}\p{N}])${NAME_JOINER}`,
        "giu",
      ),
    }));
}

/** Percentages written after option names in a sentence: "Red at 50%, Blue 30%". */
function mentionedChoices(line: string, mentions: NameMention[]): ChoiceEntry[] {
  const entries: { letter: string; raw: NumberToken }[] = [];
  for (const { letter, pattern } of mentions) {
    for (const match of line.matchAll(pattern)) {
      const token = readNumberAt(line, match.index + match[0].length);
      if (token?.percent) entries.push({ letter, raw: token });
    }
  }
  return entries.sort((a, b) => a.raw.start - b.raw.start);
}

/** The option probabilities one line states: "A: 50%, B: 30%", "Option_B: 30%", "Red: 50%". */
function lineEntries(
  rawLine: string,
  options: OptionMap | null,
  mentions: NameMention[],
): ChoiceEntry[] {
  const line = rawLine.replace(LINE_LEAD, "");
  const inline = inlineEntries(line);
  if (inline.length >= 2) return inline;
  const lettered = labelledLetter(line);
  const letteredProbability = lettered === null ? null : probabilityAfterLabel(lettered.rest);
  if (lettered !== null && letteredProbability !== null) {
    return [{ letter: lettered.letter, raw: letteredProbability.raw }];
  }
  if (inline.length === 1) return inline;
  if (options === null) return [];
  const named = probabilityAfterLabel(line);
  const letter = named === null ? null : letterForLabel(line.slice(0, named.labelEnd), options);
  return named !== null && letter !== null
    ? [{ letter, raw: named.raw }]
    : mentionedChoices(line, mentions);
}

/**
 * Option probabilities from labelled lines, bullets and table rows. Consecutive answer lines
 * form a block; the answer is the last block, joined with earlier ones as long as they name
 * other options (reasoning between lines), and stopping at one that repeats an option (a
 * draft written before the final list).
 */
export function choiceLines(text: string, options: OptionMap | null): ChoiceEntry[] {
  const mentions = options === null ? [] : nameMentions(options);
  const blocks: ChoiceEntry[][] = [];
  let current: ChoiceEntry[] = [];
  for (const line of text.split("\n")) {
    const entries = lineEntries(line, options, mentions).filter(
      (entry) => options === null || entry.letter in options,
    );
    if (entries.length > 0) {
      current.push(...entries);
    } else if (!DECORATIVE.test(line) && current.length > 0) {
      blocks.push(current);
      current = [];
    }
  }
  if (current.length > 0) blocks.push(current);
  const chosen = new Map<string, ChoiceEntry>();
  for (const block of blocks.reverse()) {
    if (block.some((entry) => chosen.has(entry.letter))) break;
    const byLetter = new Map(block.map((entry) => [entry.letter, entry]));
    for (const [letter, entry] of byLetter) chosen.set(letter, entry);
  }
  return [...chosen.values()];
}
