import { isAsciiLetter, isSpaceCode } from "../number-tokens.js";
import { findNumbers, isYearLike, type NumberToken, readNumberAt } from "../numbers.js";
import { matchesOf } from "./matches.js";
import { statesChanceOfNo } from "./negated-event.js";
import { nextWordMayStart } from "./next-word.js";
import type { RawNumber } from "./validate.js";

/** A figure as written, for "yes", and where it stands in the text. */
export interface StatedFigure {
  raw: RawNumber;
  start: number;
  end: number;
}

// A label for the other side: "Probability of NO:", "P(NO) =", "Chance of a No outcome:".
export const NO_LABEL =
  /(?:(?:probability|chance|likelihood)\s+(?:of|for)\s+(?:an?\s+)?["'“(]?no["'”)]?(?:\s+(?:outcome|resolution|answer))?|(?:probability|chance|likelihood)\s*\(\s*no\s*\)|p\(no\))\s*(?:\([^)\n]{0,40}\))?\s*(?::|=|\bis\b|[-–—→])\s*$/i;

// A marker's figure stands in the same clause, within a few words of it: in "In conclusion, the
// 45% base rate is too high" the figure is a reference, not the conclusion.
const MARKED_CLAUSE = /^[^\n]{0,100}?(?=[.!?;](?:\s|$)|\n|$)/;
export const MARKED_GAP = 30;
// What follows the first term of a sum ("1 - 0.8 = 0.2"): that term is not the stated figure.
export const TERM_OF_SUM = /^\s*(?:[−+×*/]|-\s)\s*\d/;
// The only words that may stand between a marker and its figure: in "Final: I expect only modest
// 60% support" the figure describes something else, and a later label states the answer.
const MARKED_GAP_WORDS = new Set(
  "is at of be to around about roughly approximately approx maybe probably perhaps just only a an the i i'd i'll i'm would will say put it it's this that call go going with settle land landing on my final here now then therefore thus overall yes in probability chance odds likelihood estimate forecast answer prediction number somewhere near something like there there's".split(
    " ",
  ),
);
const GAP_SEPARATORS = /[\s:=~≈,*>#—–-]+/;
// A clause's first word, whole: no figure stands inside it, so it is in the gap before any.
const FIRST_WORD = /^[A-Za-z']+(?=[\s:=~≈,*>#—–-])/;
// A mark that opens a clause, neither a separator nor part of a figure ("| Labour | 12% |"):
// every gap before a figure starts with it, and no linking word does.
const FIRST_MARK = /^[!"%&'()+/;<?@[\\\]^_`{|}]/;
// Words a model may put between a label and its figure: "Estimate: somewhere in the 30% range".
const LABEL_FILLER = /^(?:\s*(?:somewhere|in the|around|close to|near|maybe|likely|roughly)\b)*/i;
// "30% or 40%", "0.3/0.4": two answers where one is asked for.
const ALTERNATIVE_AFTER = /^\s*(?:or|\/)\s*(?:(?:maybe|perhaps|possibly|about)\s+|~)?\d/;
export const ODDS_JOINER = /^\s*(?:in|out of)\s+/;
const ODDS_JOINER_HERE = /\s*(?:in|out of)\s+/y;

/** "3 in 10", "2 out of 3" read as a fraction; otherwise the figure itself. */
export function readProbabilityAt(text: string, index: number): StatedFigure | null {
  const token = readNumberAt(text, index);
  return token === null ? null : probabilityFrom(text, token);
}

/** The figure that starts with `token`: a fraction when odds follow ("3 in 10"), else itself. */
export function probabilityFrom(text: string, token: NumberToken): StatedFigure {
  ODDS_JOINER_HERE.lastIndex = token.end;
  const joiner = nextWordMayStart(text, token.end, "io") ? ODDS_JOINER_HERE.exec(text) : null;
  const whole = joiner === null ? null : readNumberAt(text, token.end + joiner[0].length);
  if (whole === null || token.percent || whole.percent || whole.value <= 0) {
    return { raw: token, start: token.start, end: token.end };
  }
  return {
    raw: { value: token.value / whole.value, percent: false },
    start: token.start,
    end: whole.end,
  };
}

export function complement(raw: RawNumber): RawNumber {
  const percent = raw.percent || raw.value > 1;
  return { value: (percent ? 100 : 1) - raw.value, percent };
}

/**
 * The figure stated at `index`, for "yes" when stated for "no" (after a label for the other side,
 * or in words of the event not happening); two figures offered as alternatives read as no
 * valid figure.
 */
export function statedAt(text: string, index: number, noLabel: boolean): StatedFigure | null {
  const filler = LABEL_FILLER.exec(text.slice(index, index + 40))?.[0].length ?? 0;
  const figure = readProbabilityAt(text, index + filler);
  if (figure === null) return null;
  if (ALTERNATIVE_AFTER.test(text.slice(figure.end, figure.end + 20))) {
    return figureWith(figure, { value: Number.NaN, percent: false });
  }
  const negated = noLabel !== statesChanceOfNo(text, figure.start, figure.end);
  return negated ? figureWith(figure, complement(figure.raw)) : figure;
}

/**
 * The figure read as another number. Object.assign rather than `{ ...figure, raw }`: on Node
 * 20, a literal that opens with a spread and adds to it gets a new V8 shape per object once
 * optimized, which makes every later read of it slow.
 */
function figureWith(figure: StatedFigure, raw: RawNumber): StatedFigure {
  return Object.assign({}, figure, { raw });
}

function onlyLinkingWords(gap: string): boolean {
  return gap
    .toLowerCase()
    .replace(/’/g, "'")
    .split(GAP_SEPARATORS)
    .every((word) => word === "" || MARKED_GAP_WORDS.has(word));
}

/**
 * A figure in a marked clause that states a chance: a percentage, a fraction, odds, or any
 * figure right after ":" or "=" ("Final answer: 35"). "The verdict is due in 3 weeks" is not.
 */
function readsAsProbability(clause: string, token: NumberToken): boolean {
  if (isYearLike(token)) return false;
  if (token.percent || (!token.bareInteger && token.value > 0 && token.value <= 1)) return true;
  return (
    ODDS_JOINER.test(clause.slice(token.end)) ||
    /(?:[:=—–-]|\b(?:is|at))[\s~≈]*(?:about\s+|around\s+)?$/.test(clause.slice(0, token.start))
  );
}

// FIRST_MARK's marks that always open a clause: "!", "?" and ";" may end it at once instead.
const OPENING_MARKS = new Set([...`"%&'()+/<@[\\]^_\`{|}`].map((char) => char.charCodeAt(0)));
// GAP_SEPARATORS but the newline, which ends the clause.
const WORD_ENDS = new Set([..."\t\v\f\r:=~≈,*>#—–-"].map((char) => char.charCodeAt(0)));
const NEWLINE = 10;
const APOSTROPHE = 39;
// MARKED_CLAUSE's most characters: a first word must end within them.
const CLAUSE_CHARACTERS = 100;

/**
 * Whether the clause at `from` opens with a mark (FIRST_MARK) or a whole word (FIRST_WORD) that
 * no marked figure follows, read on the codes: the clause of each sentence of a long reply is
 * then neither cut nor searched when it opens with "Labour" or "|", as nearly all do.
 */
function opensWithoutMarkedFigure(text: string, from: number): boolean {
  const code = text.charCodeAt(from);
  if (OPENING_MARKS.has(code)) return true;
  if (!isAsciiLetter(code)) return false;
  let end = from + 1;
  for (let next = text.charCodeAt(end); isAsciiLetter(next) || next === APOSTROPHE; ) {
    next = text.charCodeAt(++end);
  }
  const after = text.charCodeAt(end);
  const separated = WORD_ENDS.has(after) || (after !== NEWLINE && isSpaceCode(after));
  return (
    separated &&
    end - from < CLAUSE_CHARACTERS &&
    !MARKED_GAP_WORDS.has(text.slice(from, end).toLowerCase())
  );
}

/**
 * The figure right after a marker that ends at `from` ("Final: 20%", "I land at 40%"), for
 * "yes": the first chance in the marker's clause, with only linking words before it. It starts
 * at most MARKED_GAP characters after `from`.
 */
export function markedFigureAt(
  text: string,
  markerIndex: number,
  from: number,
): StatedFigure | null {
  if (opensWithoutMarkedFigure(text, from)) return null;
  const clause = MARKED_CLAUSE.exec(text.slice(from, from + 120))?.[0] ?? "";
  // "Labour polled 12%": a clause that opens with another word holds no marked figure, and
  // its numbers are not read; a reply of thousands of such sentences has thousands of clauses.
  const first = FIRST_WORD.exec(clause)?.[0];
  if (first !== undefined && !MARKED_GAP_WORDS.has(first.toLowerCase())) return null;
  if (FIRST_MARK.test(clause)) return null;
  const token = findNumbers(clause).find((candidate) => readsAsProbability(clause, candidate));
  if (
    token === undefined ||
    token.start > MARKED_GAP ||
    /\bthe\s*$/i.test(clause.slice(0, token.start)) ||
    !onlyLinkingWords(clause.slice(0, token.start))
  ) {
    return null;
  }
  const lead = text.slice(markerIndex, from + token.start);
  return statedAt(text, from + token.start, NO_LABEL.test(lead));
}

/** The figure right after each match of the global pattern `markers`. */
export function markedFigures(text: string, markers: RegExp): StatedFigure[] {
  const found: StatedFigure[] = [];
  for (const marker of matchesOf(text, markers)) {
    const figure = markedFigureAt(text, marker.index, marker.index + marker[0].length);
    if (figure !== null) found.push(figure);
  }
  return found;
}
