import { type NumberToken, readNumberAt, wholeNumber } from "../numbers.js";
import type { OptionMap } from "../types.js";
import { isAttributed, withNamesBlanked } from "./attributed-figures.js";
import { type Block, chooseDistribution, distributions, UNPLACED } from "./choice-distributions.js";
import { proseChoices } from "./choice-prose.js";
import { holdsAny, matchesOf } from "./matches.js";
import { letterForLabel } from "./option-labels.js";
import {
  AMBIGUOUS,
  boundOf,
  normalizeName,
  type OptionNames,
  optionNames,
} from "./option-names.js";
import type { ChoiceEntry, LineEntry } from "./validate.js";

// Bullets, quote marks, headings, table pipes and list numbers before a line's label.
const LINE_LEAD = /^[\s>#*•+|-]*(?:\d{1,2}[.)]\s+)?/;
const PREFIXED_LETTER = /^(?:option|choice)[\s_-]*\(?([a-z])\)?(?![a-z0-9])/i;
const PARENTHESIZED_LETTER = /^\(([A-Z])\)/;
// A bare capital needs punctuation after it, so "I think…" and "U.S." are not labels.
const BARE_LETTER = /^([A-Z])(?:[):\]]|\.(?=\s|$)|(?=\s*[–—=|:])|(?=\s+-\s)|(?=\s+\())/;
const SEPARATOR = /[:=|]|\s[-–—]\s|[–—→]/g;
// What every separator holds, looked for first: see holdsAny in matches.ts.
const SEPARATOR_SIGNS = [":", "=", "|", "-", "–", "—", "→"];
// "A: 50%, B: 30%"; with only a space or a word between ("A 50%", "B (55%)", "A at 50%") the
// figure must be a percentage, unless the whole line is such a list ("A 45, B 15, C 40").
// An entry at the start of the line is looked for apart: a pattern that may start at "^" tries
// that first at every character, and searches about twice as slowly.
const ENTRY = String.raw`(?:[Oo]ption[\s_]*|[Cc]hoice[\s_]*)?\(?([A-Z])\)?(?:\s*([:=]|\s[-–—]\s)|\s+(?:(?:a|an|at|on|about|around|roughly)\s+){0,2}\(?(?=[-−]?[\d.]))`;
const INLINE_ENTRY_AT_START = new RegExp(`^${ENTRY}`);
const INLINE_ENTRY = new RegExp(String.raw`[\s,;(]${ENTRY}`, "g");
const LIST_GAP = /^[\s,;]*(?:and|then)?[\s,;]*$/;
// "A) Red (50%)": the probability in brackets at the end of the line.
const BRACKETED_PERCENT = /\(\s*([^()]*?%)\s*\)[\s|*.,;]*$/;
// A "Label: 20%" line whose few words name no option ("Lib Dems" for "Liberal Democrat").
const UNPLACED_LABEL = /^\p{L}[\p{L}.'’&-]*(?: [\p{L}.'’&-]+){0,3}$/u;
const STATED_FIGURE = /\d\s*%|[:=]\s*\d/;
// A comment in brackets, whose figures are not statements of the line: "35% (market: 40%)".
const BRACKETED = /\([^()\n]*\)/g;
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
 * The separators of a line outside round brackets, in one pass: a separator inside brackets
 * belongs to a comment ("Starmer: 35% (market: 40%)").
 */
function separatorsOutsideBrackets(line: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  let depth = 0;
  let scanned = 0;
  const separators = holdsAny(line, SEPARATOR_SIGNS) ? matchesOf(line, SEPARATOR) : [];
  for (const match of separators) {
    for (; scanned < match.index; scanned++) {
      const char = line[scanned];
      if (char === "(") depth++;
      else if (char === ")" && depth > 0) depth--;
    }
    if (depth === 0) found.push({ start: match.index, end: match.index + match[0].length });
  }
  return found;
}

/**
 * The probability a label's remainder states: the figure after the last separator that has
 * one ("A) Above 5%: 30%" → 30%), or a figure standing alone ("C) 20%"). A figure followed by
 * prose only counts when written as a percentage after a separator.
 */
function probabilityAfterLabel(rest: string): { raw: NumberToken; labelEnd: number } | null {
  const separators = separatorsOutsideBrackets(rest);
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
  const bracketed = rest.includes("(") ? BRACKETED_PERCENT.exec(rest) : null;
  const inside = bracketed?.[1];
  const inBrackets = inside === undefined ? null : wholeNumber(inside);
  return bracketed === null || inside === undefined || inBrackets === null
    ? null
    : {
        raw: shifted(inBrackets, bracketed.index + bracketed[0].indexOf(inside)),
        labelEnd: bracketed.index,
      };
}

/** A figure read from a part of a line, placed in the whole line. */
function shifted(token: NumberToken, by: number): NumberToken {
  return Object.assign({}, token, { start: token.start + by, end: token.end + by });
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

/** The matches of `/(?:^|[\s,;(])${ENTRY}/g` in `line`. */
function inlineEntryMatches(line: string): RegExpExecArray[] {
  const first = INLINE_ENTRY_AT_START.exec(line);
  return first === null
    ? matchesOf(line, INLINE_ENTRY)
    : [first, ...matchesOf(line, INLINE_ENTRY, first[0].length)];
}

function inlineEntries(line: string): LineEntry[] {
  const candidates: InlineCandidate[] = [];
  for (const match of inlineEntryMatches(line)) {
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
  entries: LineEntry[];
  /** Names with figures in a sentence rather than labelled lines. */
  prose: boolean;
}

/**
 * Whether `label` is an option's whole text ("1.50%–1.75%", "Above 2.00%") or its bound
 * ("Under 1%" for "<1%"), so the figures in it are the option's own.
 */
function isWholeOptionText(label: string, names: OptionNames): boolean {
  const wanted = normalizeName(label);
  const bound = boundOf(label, true);
  return (
    names.normalized.some(([, name]) => name === wanted) ||
    (bound !== null && names.lookupLabel(bound) !== undefined)
  );
}

function labelledEntries(
  line: string,
  options: OptionMap | null,
  names: OptionNames | null,
): LineEntry[] | null {
  const inline = inlineEntries(line);
  if (inline.length >= 2) return inline;
  const lettered = labelledLetter(line);
  const letteredProbability = lettered === null ? null : probabilityAfterLabel(lettered.rest);
  if (lettered !== null && letteredProbability !== null) {
    const raw = shifted(letteredProbability.raw, line.length - lettered.rest.length);
    return [{ letter: lettered.letter, raw }];
  }
  if (inline.length === 1) return inline;
  if (options === null || names === null) return [];
  const named = probabilityAfterLabel(line);
  if (named === null) return null;
  // "Labour: 48%, Reform UK: 32%": several statements on one line are a sentence, not a label,
  // unless the figures before the last are the option's own text ("1.50%–1.75%: 35%").
  const percents = line.replace(BRACKETED, "").match(/%/g)?.length ?? 0;
  const figuresBefore = STATED_FIGURE.test(line.slice(0, named.labelEnd)) || percents > 1;
  if (figuresBefore && !isWholeOptionText(line.slice(0, named.labelEnd), names)) return null;
  const letter = letterForLabel(line.slice(0, named.labelEnd), options);
  if (letter !== null) return [{ letter, raw: named.raw }];
  return UNPLACED_LABEL.test(line.slice(0, named.labelEnd).trim())
    ? [{ letter: UNPLACED, raw: named.raw }]
    : null;
}

const NO_ENTRIES: LineReading = { entries: [], prose: false };
const LETTER = /\p{L}/gu;

/** Whether `text` holds two letters: no attribution ("market", "polls", "of") holds fewer. */
function holdsTwoLetters(text: string): boolean {
  LETTER.lastIndex = 0;
  const two = LETTER.test(text) && LETTER.test(text);
  LETTER.lastIndex = 0;
  return two;
}

// Marks beyond ASCII written among figures that are neither letters nor figures themselves.
const FIGURE_MARKS = "–—−±≈×·•°→…‘’“”";

/**
 * Whether the line from `start` to `end` holds a digit and nothing else an option could be
 * named by: no letter, and beyond ASCII only the marks written among figures (not "½", "é").
 * One look at each character, for the lines of figures a long reply may be made of.
 */
function isFiguresAlone(text: string, start: number, end: number): boolean {
  let digit = false;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) digit = true;
    else if ((code | 0x20) >= 97 && (code | 0x20) <= 122) return false;
    else if (code >= 128 && !FIGURE_MARKS.includes(text[index] as string)) return false;
  }
  return digit;
}

function lineEntries(
  rawLine: string,
  options: OptionMap | null,
  names: OptionNames | null,
): LineReading {
  // A line with no digit states no figure.
  if (!/\d/.test(rawLine)) return NO_ENTRIES;
  const line = rawLine.replace(LINE_LEAD, "");
  if (!/\d/.test(line)) return NO_ENTRIES;
  // "The market gives Democrats 99%", "Democrats won 52% of the vote last time": not a forecast.
  // A line of a label and figures alone ("A: 45%", "Labour: 45%" with the name blanked) has
  // too few letters to name a source, and is not searched for one.
  let blanked: string | null | undefined;
  const attributed = (figure: NumberToken) => {
    if (blanked === undefined) {
      const named = holdsTwoLetters(line) ? withNamesBlanked(line, names) : null;
      blanked = named !== null && holdsTwoLetters(named) ? named : null;
    }
    return blanked !== null && isAttributed(blanked, figure);
  };
  const labelled = labelledEntries(line, options, names);
  if (labelled !== null) {
    return { entries: labelled.filter((entry) => !attributed(entry.raw)), prose: false };
  }
  return {
    entries:
      names === null || options === null ? [] : proseChoices(line, options, names, attributed),
    prose: true,
  };
}

// A line that introduces what follows: "Market prices:", "**Polling average:**", "## Odds",
// or a table's header row.
// "Label:" is tested apart: its search tries every character, the others only the start.
const HEADING = /^\s*#|^\s*\|[^\d\n]*\|\s*$/;
const LABEL_HEADING = /:[\s*_]*$/;
const HEADING_END = /[\s|*_#]+$/;

/**
 * Whether a heading gives what follows to someone else or the past: "Market prices:",
 * "Betting odds imply:", "| Candidate | Polymarket |"; not "My forecast (vs the market):".
 */
function introducesAttributed(line: string, names: OptionNames | null): boolean {
  if (!HEADING.test(line) && !(line.includes(":") && LABEL_HEADING.test(line))) return false;
  const heading = withNamesBlanked(line.replace(HEADING_END, ""), names);
  const probe = `${heading} 1%`;
  return isAttributed(probe, { start: heading.length + 1, end: probe.length });
}

/**
 * Each line's reading, made once per text: the lines after a final-answer marker are read
 * again as part of the whole, and a long reply repeats lines.
 */
class LineReader {
  readonly names: OptionNames | null;
  private readonly readings = new Map<string, LineReading>();

  constructor(readonly options: OptionMap | null) {
    this.names = options === null ? null : optionNames(options);
  }

  read(line: string): LineReading {
    let reading = this.readings.get(line);
    if (reading === undefined) {
      reading = lineEntries(line, this.options, this.names);
      this.readings.set(line, reading);
    }
    return reading;
  }
}

/**
 * Where the line holding `index` ends: the next line break, or the end of the text. A look at
 * each character, as a search from `index` would count the whole text's length on every line.
 */
function lineEnd(text: string, index: number): number {
  let end = index;
  while (end < text.length && text.charCodeAt(end) !== 10) end++;
  return end;
}

/** Where the line holding `index` starts. */
function lineStartBefore(text: string, index: number): number {
  let start = index;
  while (start > 0 && text.charCodeAt(start - 1) !== 10) start--;
  return start;
}

/**
 * Runs of answer lines of one kind, split by lines of other text: the lines of `text` from
 * `from` on, found in place, since most lines of a long reply of figures need no copy of their own.
 */
function lineBlocks(text: string, from: number, reader: LineReader): Block[] {
  const { options, names } = reader;
  const blocks: Block[] = [];
  let current: Block | null = null;
  // Lines under a heading that gives them to someone else, up to the next line of other text.
  let othersFigures = false;
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
    const reading = reader.read(line);
    const stated =
      reading.entries.length === 0
        ? reading.entries
        : reading.entries.filter(
            (entry) =>
              options === null ||
              entry.letter === AMBIGUOUS ||
              entry.letter === UNPLACED ||
              entry.letter in options,
          );
    if (stated.length === 0 && !DECORATIVE.test(line)) {
      othersFigures = introducesAttributed(line, names);
    }
    const entries = othersFigures ? [] : stated;
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

const FINAL_WORD = /final/gi;

/**
 * Where the marker on the last line announcing the final answer starts, or -1. Every marker
 * holds "final", found by one search of the text: testing the marker on each line of a long
 * reply of figures cost more than reading the lines.
 */
function lastMarker(text: string): number {
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
 * last line announcing the final answer when there is one and from the whole text otherwise.
 */
export function choiceLines(text: string, options: OptionMap | null): ChoiceEntry[] {
  // "… 40% of the time last year. Final probabilities: OpenAI 0.3, …": from the marker on.
  const markerAt = lastMarker(text);
  const reader = new LineReader(options);
  const afterMarker = markerAt === -1 ? [] : distributions(lineBlocks(text, markerAt, reader));
  const all = distributions(lineBlocks(text, 0, reader));
  return chooseDistribution(afterMarker, all, options);
}
