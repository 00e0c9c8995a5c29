import { keepingLast } from "../last-reading.js";
import { type NumberToken, spacesEnd } from "../number-tokens.js";
import { type NumbersFromEnd, numbersFromEnd } from "../numbers-from-end.js";
import { isEvidence } from "./evidence.js";
import { CHANCE_WORDS, NEGATION_REACH, statesChanceOfNo } from "./negated-event.js";
import { nextWordMayStart } from "./next-word.js";
import { complement, probabilityFrom, type StatedFigure } from "./stated-figure.js";
import type { RawNumber } from "./validate.js";
import { WordPositions } from "./word-positions.js";

export interface ProseFigure extends StatedFigure {
  /** A decimal such as "0.62", as opposed to a percentage or "N in M" odds. */
  fraction: boolean;
  /** Written next to a word of probability: "62% chance", "a chance of 62%", "put it at 0.3". */
  attached: boolean;
  /** Quoted from others, a reference class or the past, or a share of something. */
  readonly evidence: boolean;
}

const WORD_AFTER_HERE =
  /\s*(?:chance|probability|likelihood|likely|odds|risk|shot|sure|confident|certain)\b/iy;
// "isn't 50%", "not 70%": a figure written to be rejected.
const REJECTED_BEFORE = /(?:\bnot|n['’]t)\s+(?:about\s+|around\s+)?$/i;
// "4 to 1 against is too bearish", "the 62% looks stale": a figure written to be rejected.
const REJECTED_AFTER =
  /^[^.\n;:\d]{0,30}?\b(?:too\s+(?:high|low|rich|cheap|bullish|bearish|aggressive|optimistic|pessimistic|generous|confident|much|little)|overconfident|overstate[sd]?|understate[sd]?|stale|off the mark)\b/i;
// The words may lead up to the figure only through the event and linking words: "a chance of
// about 62%", "the probability of flooding at 15%", "I estimate 62%", but not "a 62% chance, up
// from 40%" or "the probability of a recession is often cited as 30%" (someone else's figure).
const EVENT = String.raw`(?:(?!\b(?:is|was|are|were|has|have|had|been|but|and|than|from|although|though|while|whereas|because)\b)[^.\d\n%]){0,60}?`;
const WORD_BEFORE = new RegExp(
  String.raw`(?:(?:chance|probability|likelihood|odds)(?:\s+(?:(?:of|that|for)\s)?${EVENT})?|(?:estimate|forecast|prediction)(?:\s+(?:of|that|for)\s${EVENT})?|(?:put|price|peg|place|rate) (?:it|this|the odds|the probability) at|I(?:'d| would)? put|I(?:'d| would) say)(?:\s+(?:of|at|is|are|to be|would be|will be|as))?[\s:]*(?:(?:about|around|roughly|approximately|approx\.|nearly|some|a|an)\s+)*$`,
  "i",
);

// WORD_AFTER_HERE's words, which start after the spaces that follow an attached figure.
const ATTACHED_AFTER_WORDS = /chance|probability|likel|odds|risk|shot|sure|confident|certain/gi;

const BEFORE_REACH = 60;
// What each check of the words before a figure needs to find there: WORD_BEFORE, REJECTED_BEFORE,
// "confidence". None of them can match in a window holding none of these.
const WORDS_BEFORE =
  /chance|probabilit|likelihood|odds|estimate|forecast|prediction|put|price|peg|place|rate|say|not|n['’]t|confidence/gi;

// REJECTED_AFTER's words, which start within its 40 characters after the figure.
const AFTER_REACH = 40;
const WORDS_AFTER = /too|overconfident|overstate|understate|stale|off the mark/gi;

function lineBefore(text: string, index: number): string {
  const before = text.slice(Math.max(0, index - BEFORE_REACH), index);
  return before.slice(before.lastIndexOf("\n") + 1);
}

/** Whether the figure from `start` to `end` is written to be rejected ("not 70%", "too high"). */
export function isRejected(text: string, start: number, end: number): boolean {
  return (
    REJECTED_BEFORE.test(lineBefore(text, start)) || REJECTED_AFTER.test(text.slice(end, end + 40))
  );
}

/**
 * A figure whose `evidence` is judged on first use: most readings need it only for the last few
 * figures. A class, so that every figure of a long reply shares one shape and one getter.
 */
class LazyFigure implements ProseFigure {
  private judged: boolean | undefined;

  constructor(
    private readonly text: string,
    readonly raw: RawNumber,
    readonly start: number,
    readonly end: number,
    readonly fraction: boolean,
    readonly attached: boolean,
  ) {}

  get evidence(): boolean {
    this.judged ??= isEvidence(this.text, this.start, this.end);
    return this.judged;
  }
}

/** Whether `pattern` (sticky) matches at `index` of `text`, without copying the text. */
function matchesAt(pattern: RegExp, text: string, index: number): boolean {
  pattern.lastIndex = index;
  return pattern.test(text);
}

/** Where the words the checks of a figure look for stand, found on first use for the whole text. */
class FigureWords {
  readonly before: WordPositions;
  readonly after: WordPositions;
  readonly chance: WordPositions;
  readonly attachedAfter: WordPositions;

  constructor(text: string) {
    this.before = new WordPositions(text, WORDS_BEFORE);
    this.after = new WordPositions(text, WORDS_AFTER);
    this.chance = new WordPositions(text, CHANCE_WORDS);
    this.attachedAfter = new WordPositions(text, ATTACHED_AFTER_WORDS);
  }
}

/** Whether the figure from `start` to `end` is written next to a word of probability. */
function isAttached(text: string, start: number, end: number, worded: boolean): boolean {
  return (
    (nextWordMayStart(text, end, "cplors") && matchesAt(WORD_AFTER_HERE, text, end)) ||
    (worded && WORD_BEFORE.test(text.slice(Math.max(0, start - BEFORE_REACH), start)))
  );
}

/**
 * The prose figures that `tokens`, numbers of one stretch of `text` in order, state; with
 * `attachedOnly`, those attached to a word of probability alone, whose other checks are then
 * made for them alone. Each figure's checks read a few dozen characters around it, and only
 * where one of the words they look for stands there: linear in the text, with a small constant.
 */
function figuresOf(
  text: string,
  tokens: readonly NumberToken[],
  words: FigureWords,
  attachedOnly: boolean,
): ProseFigure[] {
  const found: ProseFigure[] = [];
  let consumedUntil = 0;
  for (const token of tokens) {
    if (token.start < consumedUntil) continue;
    const figure = probabilityFrom(text, token);
    const isOdds = figure.end !== token.end;
    const fraction = !isOdds && !token.percent;
    if (fraction && (token.bareInteger || token.value <= 0 || token.value >= 1)) continue;
    consumedUntil = figure.end;
    const { start, end } = figure;
    const worded = words.before.within(start - BEFORE_REACH, start);
    if (attachedOnly && !isAttached(text, start, end, worded)) continue;
    if (worded && /\bconfidence\b/i.test(lineBefore(text, start))) continue;
    if (worded && REJECTED_BEFORE.test(lineBefore(text, start))) continue;
    if (
      words.after.within(end, end + AFTER_REACH) &&
      REJECTED_AFTER.test(text.slice(end, end + 40))
    ) {
      continue;
    }
    const attached = attachedOnly || isAttached(text, start, end, worded);
    const chanceBefore = words.chance.within(start - NEGATION_REACH, start);
    const raw = statesChanceOfNo(text, start, end, chanceBefore)
      ? complement(figure.raw)
      : figure.raw;
    found.push(new LazyFigure(text, raw, start, end, fraction, attached));
  }
  return found;
}

/**
 * Percentages, "N in M" odds and decimal fractions written in prose, read from the end of the
 * text a stretch at a time (see numbers-from-end.ts): the readings want the last figures, and
 * stop once they have them.
 */
export class ProseFiguresFromEnd {
  private readonly stretches: (ProseFigure[] | undefined)[] = [];
  private figureWords: FigureWords | undefined;

  constructor(
    private readonly text: string,
    private readonly numbers: NumbersFromEnd = numbersFromEnd(text),
  ) {}

  /** The figures from the last backwards. */
  *backwards(): Generator<ProseFigure> {
    for (let index = 0; ; index++) {
      const figures = this.stretch(index);
      if (figures === null) return;
      for (let at = figures.length - 1; at >= 0; at--) yield figures[at] as ProseFigure;
    }
  }

  /**
   * The figures written next to a word of chance, from the last backwards. A stretch with no
   * such word in reach of its figures holds none, and is passed over unread: a reply of
   * thousands of bare figures is not read through for one.
   */
  *attachedBackwards(): Generator<ProseFigure> {
    for (let index = 0; ; index++) {
      const bounds = this.numbers.bounds(index);
      if (bounds === null) return;
      const words = this.words();
      const worded =
        words.before.within(bounds.start - BEFORE_REACH, bounds.end) ||
        words.attachedAfter.within(bounds.start, spacesEnd(this.text, bounds.end) + 1);
      if (!worded) continue;
      const figures = this.attachedStretch(index);
      for (let at = figures.length - 1; at >= 0; at--) yield figures[at] as ProseFigure;
    }
  }

  /**
   * The attached figures of a stretch: of its figures when read already, else read for them
   * alone, as a reply of thousands of figures in sentences of chances needs.
   */
  private attachedStretch(index: number): ProseFigure[] {
    const read = this.stretches[index];
    if (read !== undefined) return read.filter((figure) => figure.attached);
    const tokens = this.numbers.stretch(index) ?? [];
    return figuresOf(this.text, tokens, this.words(), true);
  }

  private words(): FigureWords {
    this.figureWords ??= new FigureWords(this.text);
    return this.figureWords;
  }

  private stretch(index: number): ProseFigure[] | null {
    const read = this.stretches[index];
    if (read !== undefined) return read;
    const tokens = this.numbers.stretch(index);
    if (tokens === null) return null;
    const figures = figuresOf(this.text, tokens, this.words(), false);
    this.stretches[index] = figures;
    return figures;
  }
}

/** The prose figures of `text` from its end; shared by the readings of one reply. */
export const proseFiguresFromEnd = keepingLast((text: string) => new ProseFiguresFromEnd(text));
