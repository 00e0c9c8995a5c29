import { type NumberToken, readNumberAt, wholeNumber } from "../numbers.js";
import type { OptionMap } from "../types.js";
import { type Block, chooseDistribution, distributions, UNPLACED } from "./choice-distributions.js";
import { proseChoices } from "./choice-prose.js";
import { letterForLabel } from "./option-labels.js";
import { AMBIGUOUS, type OptionNames, optionNames } from "./option-names.js";
import type { ChoiceEntry, RawNumber } from "./validate.js";

// Bullets, quote marks, headings, table pipes and list numbers before a line's label.
const LINE_LEAD = /^[\s>#*•+|-]*(?:\d{1,2}[.)]\s+)?/;
const PREFIXED_LETTER = /^(?:option|choice)[\s_-]*\(?([a-z])\)?(?![a-z0-9])/i;
const PARENTHESIZED_LETTER = /^\(([A-Z])\)/;
// A bare capital needs punctuation after it, so "I think…" and "U.S." are not labels.
const BARE_LETTER = /^([A-Z])(?:[):\]]|\.(?=\s|$)|(?=\s*[–—=|:])|(?=\s+-\s)|(?=\s+\())/;
const SEPARATOR = /[:=|]|\s[-–—]\s|[–—→]/g;
// "A: 50%, B: 30%"; with only a space or a word between ("A 50%", "B (55%)", "A at 50%") the
// figure must be a percentage, unless the whole line is such a list ("A 45, B 15, C 40").
const INLINE_ENTRY =
  /(?:^|[\s,;(])(?:[Oo]ption[\s_]*|[Cc]hoice[\s_]*)?\(?([A-Z])\)?(?:\s*([:=]|\s[-–—]\s)|\s+(?:(?:a|an|at|on|about|around|roughly)\s+){0,2}\(?(?=[-−]?[\d.]))/g;
const LIST_GAP = /^[\s,;]*(?:and|then)?[\s,;]*$/;
// "A) Red (50%)": the probability in brackets at the end of the line.
const BRACKETED_PERCENT = /\(\s*([^()]*?%)\s*\)[\s|*.,;]*$/;
// A "Label: 20%" line whose few words name no option ("Lib Dems" for "Liberal Democrat").
const UNPLACED_LABEL = /^\p{L}[\p{L}.'’&-]*(?: [\p{L}.'’&-]+){0,3}$/u;
const STATED_FIGURE = /\d\s*%|[:=]\s*\d/;
// A line that announces the answer: "Final answer:", "My final probabilities", "Final:".
const FINAL_MARKER =
  /\bfinal(?:ly)?\b[^\n]{0,30}?(?:answer|forecast|distribution|probabilit|prediction|estimate)|\bfinal\s*:/i;
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

interface InlineCandidate {
  letter: string;
  raw: NumberToken;
  start: number;
  separated: boolean;
}

/** Whether the candidates are the whole of a list: distinct letters with only commas between. */
function formsList(line: string, candidates: InlineCandidate[]): boolean {
  if (candidates.length < 3) return false;
  if (new Set(candidates.map((candidate) => candidate.letter)).size < candidates.length)
    return false;
  return candidates.every((candidate, index) => {
    const previous = candidates[index - 1];
    return previous === undefined || LIST_GAP.test(line.slice(previous.raw.end, candidate.start));
  });
}

function inlineEntries(line: string): ChoiceEntry[] {
  const candidates: InlineCandidate[] = [];
  for (const match of line.matchAll(INLINE_ENTRY)) {
    const token = readNumberAt(line, match.index + match[0].length);
    if (match[1] !== undefined && token !== null) {
      candidates.push({
        letter: match[1],
        raw: token,
        start: match.index,
        separated: match[2] !== undefined,
      });
    }
  }
  const list = formsList(line, candidates);
  return candidates
    .filter((candidate) => list || candidate.separated || candidate.raw.percent)
    .map(({ letter, raw }) => ({ letter, raw }));
}

/** The option probabilities one line states: "A: 50%, B: 30%", "Option_B: 30%", "Red: 50%". */
interface LineReading {
  entries: ChoiceEntry[];
  /** Names with figures in a sentence rather than labelled lines. */
  prose: boolean;
}

function labelledEntries(
  line: string,
  options: OptionMap | null,
  names: OptionNames | null,
): ChoiceEntry[] | null {
  const inline = inlineEntries(line);
  if (inline.length >= 2) return inline;
  const lettered = labelledLetter(line);
  const letteredProbability = lettered === null ? null : probabilityAfterLabel(lettered.rest);
  if (lettered !== null && letteredProbability !== null) {
    return [{ letter: lettered.letter, raw: letteredProbability.raw }];
  }
  if (inline.length === 1) return inline;
  if (options === null || names === null) return [];
  const named = probabilityAfterLabel(line);
  // "Labour: 48%, Reform UK: 32%": several statements on one line are a sentence, not a label.
  if (
    named === null ||
    STATED_FIGURE.test(line.slice(0, named.labelEnd)) ||
    (line.match(/%/g)?.length ?? 0) > 1
  ) {
    return null;
  }
  const letter = letterForLabel(line.slice(0, named.labelEnd), options);
  if (letter !== null) return [{ letter, raw: named.raw }];
  return UNPLACED_LABEL.test(line.slice(0, named.labelEnd).trim())
    ? [{ letter: UNPLACED, raw: named.raw }]
    : null;
}

function lineEntries(
  rawLine: string,
  options: OptionMap | null,
  names: OptionNames | null,
): LineReading {
  const line = rawLine.replace(LINE_LEAD, "");
  if (!/\d/.test(line)) return { entries: [], prose: false };
  const labelled = labelledEntries(line, options, names);
  if (labelled !== null) return { entries: labelled, prose: false };
  return {
    entries: names === null || options === null ? [] : proseChoices(line, options, names),
    prose: true,
  };
}

/** Runs of answer lines of one kind, split by lines of other text. */
function lineBlocks(lines: string[], options: OptionMap | null): Block[] {
  const names = options === null ? null : optionNames(options);
  const blocks: Block[] = [];
  let current: Block | null = null;
  for (const line of lines) {
    const reading = lineEntries(line, options, names);
    const entries = reading.entries.filter(
      (entry) =>
        options === null ||
        entry.letter === AMBIGUOUS ||
        entry.letter === UNPLACED ||
        entry.letter in options,
    );
    // A sentence states its distribution whole; labelled lines build one up line by line.
    if (entries.length > 0 && current?.prose === false && !reading.prose) {
      current.entries.push(...entries);
    } else if (entries.length > 0) {
      if (current !== null) blocks.push(current);
      current = { entries, prose: reading.prose };
    } else if (!DECORATIVE.test(line) && current !== null) {
      blocks.push(current);
      current = null;
    }
  }
  if (current !== null) blocks.push(current);
  return blocks;
}

/**
 * Option probabilities from labelled lines, bullets, table rows and sentences, read from the
 * last line announcing the final answer when there is one and from the whole text otherwise.
 */
export function choiceLines(text: string, options: OptionMap | null): ChoiceEntry[] {
  const lines = text.split("\n");
  const markerAt = lines.findLastIndex((line) => FINAL_MARKER.test(line));
  const afterMarker =
    markerAt === -1 ? [] : distributions(lineBlocks(lines.slice(markerAt), options));
  const all = distributions(lineBlocks(lines, options));
  return chooseDistribution(afterMarker, all, options);
}
