import { findNumbers } from "../numbers.js";
import { isEvidence } from "./evidence.js";
import { statesChanceOfNo } from "./negated-event.js";
import { complement, readProbabilityAt, type StatedFigure } from "./stated-figure.js";

export interface ProseFigure extends StatedFigure {
  /** A decimal such as "0.62", as opposed to a percentage or "N in M" odds. */
  fraction: boolean;
  /** Written next to a word of probability: "62% chance", "a chance of 62%", "put it at 0.3". */
  attached: boolean;
  /** Quoted from others, a reference class or the past, or a share of something. */
  readonly evidence: boolean;
}

const WORD_AFTER =
  /^\s*(?:chance|probability|likelihood|likely|odds|risk|shot|sure|confident|certain)\b/i;
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
  String.raw`(?:(?:chance|probability|likelihood|odds)(?:\s+(?:(?:of|that|for)\s)?${EVENT})?|(?:estimate|forecast|prediction)(?:\s+(?:of|that|for)\s${EVENT})?|put (?:it|this|the odds|the probability) at|I(?:'d| would)? put|I(?:'d| would) say)(?:\s+(?:of|at|is|are|to be|would be|will be|as))?[\s:]*(?:(?:about|around|roughly|approximately|approx\.|nearly|some|a|an)\s+)*$`,
  "i",
);

function lineBefore(text: string, index: number): string {
  const before = text.slice(Math.max(0, index - 60), index);
  return before.slice(before.lastIndexOf("\n") + 1);
}

/** Whether the figure from `start` to `end` is written to be rejected ("not 70%", "too high"). */
export function isRejected(text: string, start: number, end: number): boolean {
  return (
    REJECTED_BEFORE.test(lineBefore(text, start)) || REJECTED_AFTER.test(text.slice(end, end + 40))
  );
}

/** Percentages, "N in M" odds and decimal fractions written in prose. */
export function proseProbabilities(text: string): ProseFigure[] {
  const found: ProseFigure[] = [];
  let consumedUntil = 0;
  for (const token of findNumbers(text)) {
    if (token.start < consumedUntil) continue;
    const figure = readProbabilityAt(text, token.start);
    if (figure === null) continue;
    const isOdds = figure.end !== token.end;
    const fraction = !isOdds && !token.percent;
    if (fraction && (token.bareInteger || token.value <= 0 || token.value >= 1)) continue;
    consumedUntil = figure.end;
    if (/\bconfidence\b/i.test(lineBefore(text, figure.start))) continue;
    if (isRejected(text, figure.start, figure.end)) continue;
    const attached =
      WORD_AFTER.test(text.slice(figure.end)) ||
      WORD_BEFORE.test(text.slice(Math.max(0, figure.start - 60), figure.start));
    const raw = statesChanceOfNo(text, figure.start, figure.end)
      ? complement(figure.raw)
      : figure.raw;
    const { start, end } = figure;
    // Judged on first use: most readings need it only for the last few figures.
    let evidence: boolean | undefined;
    found.push({
      raw,
      start,
      end,
      fraction,
      attached,
      get evidence() {
        evidence ??= isEvidence(text, start, end);
        return evidence;
      },
    });
  }
  return found;
}
