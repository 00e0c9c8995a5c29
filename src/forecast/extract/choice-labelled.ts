import { type NumberToken, readNumberAt, wholeNumber } from "../numbers.js";
import { UNPLACED } from "./choice-distributions.js";
import type { ChoiceText } from "./choice-text.js";
import { holdsAny, matchesOf } from "./matches.js";
import { boundOf, normalizeName, type OptionNames } from "./option-names.js";
import type { LineEntry } from "./validate.js";

const PREFIXED_LETTER = /^(?:option|choice)[\s_-]*\(?([a-z])\)?(?![a-z0-9])/i;
const PARENTHESIZED_LETTER = /^\(([A-Z])\)/;
const SEPARATOR = /[:=|]|\s[-–—]\s|[–—→]/g;
// What every separator holds, looked for first: see holdsAny in matches.ts.
const SEPARATOR_SIGNS = [":", "=", "|", "-", "–", "—", "→"];
// A bare capital needs punctuation after it, so "I think…" and "U.S." are not labels.
const BARE_LETTER = /^([A-Z])(?:[):\]]|\.(?=\s|$)|(?=\s*[–—=|:])|(?=\s+-\s)|(?=\s+\())/;
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
const DIGIT = /\d/;
// Fewer digits than 1e309, which Number() reads as Infinity.
const MAX_FINITE_DIGITS = 309;
const STATED_FIGURE = /\d\s*%|[:=]\s*\d/;
// Text that may follow a figure in a "label: figure" line without making it prose.
const TRAILING_JUNK = /^[\s|*.,;]*$/;
const TRAILING_COMMENT = /^\s*[(\-–—,;]/;

// What may follow a bare capital label (BARE_LETTER): a mark, or white space.
const AFTER_BARE_LETTER = "):].–—=|";

/**
 * Whether `line` may start with a letter label: "(", the "o" or "c" of "option" or "choice",
 * or a capital followed by a mark or white space; most lines of a long reply start otherwise.
 */
function mayStartWithLetter(line: string): boolean {
  const code = line.charCodeAt(0);
  if (code === 40 || (code | 0x20) === 111 || (code | 0x20) === 99) return true;
  if (code < 65 || code > 90) return false;
  return AFTER_BARE_LETTER.includes(line.charAt(1)) || isSpaceAt(line, 1);
}

function labelledLetter(line: string): { letter: string; rest: string } | null {
  if (!mayStartWithLetter(line)) return null;
  for (const pattern of [PREFIXED_LETTER, PARENTHESIZED_LETTER, BARE_LETTER]) {
    const match = pattern.exec(line);
    if (match?.[1] !== undefined) {
      return { letter: match[1].toUpperCase(), rest: line.slice(match[0].length) };
    }
  }
  return null;
}

const SPACE = /\s/;

/** Whether the character at `index` is white space (`\s`). */
function isSpaceAt(line: string, index: number): boolean {
  const code = line.charCodeAt(index);
  return code < 128 ? code === 32 || (code >= 9 && code <= 13) : SPACE.test(line[index] ?? "");
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

// What every inline entry holds (ENTRY): a capital followed, after a ")" if any, by white
// space, ":" or "=". Most lines of a long reply hold none, and are not searched for entries.
const MAY_HOLD_ENTRY = /[A-Z]\)?[\s:=]/;

function inlineEntries(line: string): LineEntry[] {
  if (!MAY_HOLD_ENTRY.test(line)) return [];
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

/**
 * How many percent signs `line` holds outside comments in brackets, whose figures are not
 * statements of the line ("35% (market: 40%)"): a comment is a "(" closed on its line before
 * any other bracket, as `/\([^()\n]*\)/`.
 */
function percentsOutsideBrackets(line: string): number {
  let count = 0;
  for (let index = 0; index < line.length; index++) {
    const code = line.charCodeAt(index);
    if (code === 37) count++;
    if (code !== 40) continue;
    let close = index + 1;
    for (; close < line.length; close++) {
      const next = line.charCodeAt(close);
      if (next === 40 || next === 41 || next === 10) break;
    }
    if (line.charCodeAt(close) === 41) index = close;
  }
  return count;
}

/**
 * Whether `label` is an option's whole text ("1.50%–1.75%", "Above 2.00%") or its bound
 * ("Under 1%" for "<1%"), so the figures in it are the option's own.
 */
function isWholeOptionText(label: string, names: OptionNames): boolean {
  // No option's text, name or bound holds a figure, and a label's figure stays one in both
  // (unless it is too long to be a finite number, "Infinity").
  if (!names.namedByFigures && label.length < MAX_FINITE_DIGITS && DIGIT.test(label)) return false;
  const wanted = normalizeName(label);
  const bound = boundOf(label, true);
  return (
    names.normalized.some(([, name]) => name === wanted) ||
    (bound !== null && names.lookupLabel(bound) !== undefined)
  );
}

/**
 * The entries of a line of labels and figures ("A: 50%, B: 30%", "Option_B: 30%", "Red: 50%"),
 * or null when the line is a sentence to read as prose.
 */
export function labelledEntries(line: string, reply: ChoiceText): LineEntry[] | null {
  const inline = inlineEntries(line);
  if (inline.length >= 2) return inline;
  const lettered = labelledLetter(line);
  const letteredProbability = lettered === null ? null : probabilityAfterLabel(lettered.rest);
  if (lettered !== null && letteredProbability !== null) {
    const raw = shifted(letteredProbability.raw, line.length - lettered.rest.length);
    return [{ letter: lettered.letter, raw }];
  }
  if (inline.length === 1) return inline;
  const names = reply.names;
  if (names === null) return [];
  const named = probabilityAfterLabel(line);
  if (named === null) return null;
  // "Labour: 48%, Reform UK: 32%": several statements on one line are a sentence, not a label,
  // unless the figures before the last are the option's own text ("1.50%–1.75%: 35%").
  const label = line.slice(0, named.labelEnd);
  const figuresBefore = STATED_FIGURE.test(label) || percentsOutsideBrackets(line) > 1;
  if (figuresBefore && !isWholeOptionText(label, names)) return null;
  const letter = reply.letterFor(label);
  if (letter !== null) return [{ letter, raw: named.raw }];
  return UNPLACED_LABEL.test(label.trim()) ? [{ letter: UNPLACED, raw: named.raw }] : null;
}
