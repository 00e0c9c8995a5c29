/*
 * A reply often states a figure and then commits to another: it revises ("raising my forecast
 * from 30% to 35%", "Update: I revise to 40%", "25% → 32%"), or names a point inside a range
 * ("15–20%, leaning towards 17%"). The last such commitment is the answer when nothing more
 * explicit (a label, a final marker, an answer tag) is written after it.
 */
import { type NumberToken, readNumberAt } from "../numbers.js";
import { changesSpread, isConditional, isOthers } from "./commitment-context.js";
import { holdsAny, holdsLetter, holdsWords, matchesOf } from "./matches.js";
import { sentenceStartBefore } from "./sentence-starts.js";
import { TERM_OF_SUM } from "./stated-figure.js";

const HEDGE = String.raw`(?:(?:about|around|roughly|approximately|approx\.|maybe|just)\s+|~\s*)?`;
const FIGURE_AHEAD = String.raw`(?=[-−$€£]?\.?\d)`;
// Words of a sentence, decimals included: "from 0.35 to 0.4" is one clause.
const CLAUSE = String.raw`(?:[^.\n;!?]|\.\d)`;

// A verb of changing one's number, then "to" and the new figure, within one clause.
const REVISED_TO = new RegExp(
  String.raw`\b(?:revis(?:e|ed|es|ing)|updat(?:e|ed|es|ing)|rais(?:e|ed|es|ing)|lower(?:ed|s|ing)?|bump(?:ed|s|ing)?|cut(?:s|ting)?|adjust(?:ed|s|ing)?|mov(?:e|ed|es|ing)|nudg(?:e|ed|es|ing)|shift(?:ed|s|ing)?|go(?:es|ing)?|increas(?:e|ed|es|ing)|decreas(?:e|ed|es|ing)|reduc(?:e|ed|es|ing)|trim(?:med|s|ming)?|tweak(?:ed|s|ing)?|widen(?:ed|s|ing)?|narrow(?:ed|s|ing)?|tighten(?:ed|s|ing)?)\b${CLAUSE}{0,60}?\bto\s+${HEDGE}${FIGURE_AHEAD}`,
  "gi",
);
const ARROW = new RegExp(String.raw`\d\s*%?\s*(?:→|->|=>|⟶)\s*${HEDGE}${FIGURE_AHEAD}`, "g");
const REVISED_LABEL = new RegExp(
  String.raw`\b(?:revised|updated|new|adjusted|corrected)\s+(?:estimate|forecast|probability|number|answer|figure|prediction|view)\s*(?:is|:|=|of|at)?\s*${HEDGE}${FIGURE_AHEAD}`,
  "gi",
);
// A correction of the figure just written: "30%. Actually, 25%.", "On second thought, make
// that 25%", "Edit: 25%". The figure must end its clause: in "Actually, 40% of voters…" it is
// a quantity, not a correction.
const CORRECTED = new RegExp(
  String.raw`\b(?:actually|on second thought|correction|edit|scratch that|no,?\s+wait|make (?:it|that))\b[\s,:;.—–-]*(?:(?:make (?:it|that)|I['’]d (?:say|go with)|I(?:['’]ll)? (?:say|go with)|let['’]s say|say|(?:it['’]s\s+)?(?:closer|nearer) to|more like)\s+)?${HEDGE}${FIGURE_AHEAD}`,
  "gi",
);
const CLAUSE_ENDS_AFTER =
  /^\s*(?:%|percent|per cent)?\s*(?:$|[.!;)\n]|,?\s+(?:instead|then|final|not)\b)/i;
// "Initially 60%, now 48%": "now" right after an earlier figure in the same sentence.
const NOW_AFTER_FIGURE = new RegExp(
  String.raw`\d\s*%?[,;]?\s+(?:and\s+|but\s+)?now\s+(?:at\s+|to\s+)?${HEDGE}${FIGURE_AHEAD}`,
  "gi",
);
// A point named inside or after a range.
const POINT = new RegExp(
  String.raw`\b(?:lean(?:ing|s)?\s+(?:towards?|to)|call\s+it|point\s+estimate(?:\s+(?:of|is|at))?\s*:?|central\s+estimate(?:\s+(?:of|is|at))?\s*:?|I['’]d\s+pick|I\s+pick|most\s+likely(?:\s+(?:around|about|at|near))?|best\s+guess(?:\s+(?:of|is|at))?\s*:?|single\s+number(?:\s+(?:of|is))?\s*:?)\s*${HEDGE}${FIGURE_AHEAD}`,
  "gi",
);
const POINT_AFTER =
  /(?<![\w.])[-−$€£]?\d[\d,.]{0,20}\s*(?:%|k|m|bn|tn|million|billion)?\s+as\s+my\s+(?:central|point|best|final|single)\s+(?:estimate|guess|forecast|number|figure)\b/gi;

/** The same statements for the chance of "yes", written after the chance of "no". */
const YES_SIDE_AFTER = /(?<![\w.])\d+(?:\.\d+)?\s*%?\s+(?:on|for|to)\s+(?:a\s+)?["'“]?yes\b/gi;
const YES_SIDE_BEFORE =
  /\b(?:yes|p\s*\(\s*yes\s*\))\s+(?:gets|at|is|=|:|of)\s*(?:only\s+)?(?=\d)|\byes\s+(?:gets|at)\s+(?:only\s+)?(?=\d)/gi;

// Statements that are explicit on their own and read by the type's own rules: labels with a
// separator, final markers, answer tags. A commitment before the last of them is not the answer.
const EXPLICIT =
  /<\s*answer\s*>|\b(?:final\s+(?:answer|forecast|probability|estimate|prediction|call|number|odds|assessment)|bottom line|in conclusion|verdict)\b|(?:^|\n)[^\n\d]{0,40}?\b(?:probability|forecast|prediction|answer|estimate|mean|median|p\(yes\)|chance)\b[^\n\d:=]{0,20}[:=]/gi;

export interface Commitment {
  figure: NumberToken;
  /** Where the statement starts. */
  index: number;
  rule: "revision" | "range_point" | "yes_side";
  /** False for a change made on a condition or to the spread: it leaves the answer open. */
  settles: boolean;
  /** For a probability: a later sentence holds a figure, which may state the answer anew. */
  figuresAfter?: boolean;
}

// What every match of a pattern that starts at a figure holds beyond it: a pass of such a
// pattern tries every digit of the text, a test for the word or sign skips over them.
const ARROWS = ["→", "->", "=>", "⟶"];
const NOW_MARK = /now/i;
const REVISED_TO_MARK = /to\s/i;
const POINT_AFTER_MARK = /\bas\s+my\b/i;
const YES_MARK = /yes/i;

// A change is the reply's own when its sentence speaks in the first person ("I revise to 40%",
// "raising my forecast to 35%") or opens with it ("Revising to 40%", "Initially 60%, now 48%");
// otherwise it is a quantity of the world changing ("polls moved from 41% to 37%", "the bank
// cut rates from 5% to 4.5%"), evidence rather than an answer.
const FIRST_PERSON = /\b(?:I|I['’](?:m|ll|d|ve)|we|we['’](?:re|ll|d|ve)|me|my|us|our)(?![\w'’])/i;
const OPENING =
  /^[\s\-*•>#]*(?:(?:so|then|and|now|actually|therefore|thus|hence|overall|on reflection|after (?:all|this|that)),?\s+)?(?:initially|originally|at first|previously|earlier)?[\s,]*[$€£]?[\d.,]*$/i;

// How far before a change its sentence's start is looked for: a reply of one endless sentence
// would be searched back to its start for every change.
const SENTENCE_REACH = 300;

// "We saw prices move from 100 to 110": the first person watching the world change.
const WITNESS = /\b(?:I|we)(?:['’]ve|\s+have)?\s+(?:seen|saw|observed|noticed|watched|noted)\b/gi;

/** Whether the change matched at `index`, its new figure at `figureAt`, is the reply's own. */
function isOwnChange(text: string, index: number, figureAt: number): boolean {
  const from = Math.max(0, index - SENTENCE_REACH);
  const sentence = text.slice(from, figureAt);
  const start = sentenceStartBefore(sentence, index - from)?.end ?? 0;
  return (
    FIRST_PERSON.test(sentence.slice(start).replace(WITNESS, "")) ||
    OPENING.test(sentence.slice(start, index - from))
  );
}

/** Whether `text` holds what `mark` says each match holds: its words, a sign, or a letter. */
function mayHold(text: string, mark: RegExp | readonly string[] | undefined): boolean {
  if (mark === undefined) return holdsLetter(text);
  return mark instanceof RegExp ? holdsWords(text, mark) : holdsAny(text, mark);
}

/** What a commitment's sentence is checked for before it counts. */
interface Checks {
  /** Only a change the reply makes to its own figure counts. */
  ownOnly?: boolean;
  /** A figure someone else states does not count. */
  notOthers?: boolean;
  /** The figure ends its clause. */
  endsClause?: boolean;
  /** The figure is not the first term of a sum ("P(YES) = 1 - 0.8 = 0.2"). */
  notTerm?: boolean;
}

/**
 * The last commitment `pattern` finds, searched for only where `mark` finds what each of its
 * matches holds: a word (see holdsWords in matches.ts) or a sign; without a mark, a letter.
 */
function lastOf(
  text: string,
  pattern: RegExp,
  rule: Commitment["rule"],
  figureAt: (match: RegExpExecArray) => number,
  mark?: RegExp | readonly string[],
  checks: Checks = {},
): Commitment | null {
  if (!mayHold(text, mark)) return null;
  let last: Commitment | null = null;
  for (const match of matchesOf(text, pattern)) {
    const at = figureAt(match as RegExpExecArray);
    const figure = readNumberAt(text, at);
    if (figure === null) continue;
    if (checks.ownOnly && !isOwnChange(text, match.index, at)) continue;
    if (checks.notOthers && isOthers(text, match.index, figure)) continue;
    if (checks.notTerm && TERM_OF_SUM.test(text.slice(figure.end, figure.end + 12))) continue;
    if (checks.endsClause && !CLAUSE_ENDS_AFTER.test(text.slice(figure.end, figure.end + 40))) {
      continue;
    }
    const settles =
      !isConditional(text, match.index, figure.end) &&
      !(rule === "revision" && changesSpread(text, match.index, at));
    last = { figure, index: match.index, rule, settles };
  }
  return last;
}

const afterMatch = (match: RegExpExecArray) => match.index + match[0].length;
const atMatch = (match: RegExpExecArray) => match.index;

const SENTENCE_END = /[!?\n]|\.(?!\d)/g;

function afterSentence(text: string, from: number): string {
  SENTENCE_END.lastIndex = from;
  const end = SENTENCE_END.exec(text);
  return end === null ? "" : text.slice(end.index + 1);
}

function lastExplicit(text: string): number {
  // Every explicit statement is written in words.
  if (!holdsLetter(text)) return -1;
  let last = -1;
  for (const match of matchesOf(text, EXPLICIT)) last = match.index;
  return last;
}

/**
 * The last revision or point estimate in `text`, when no explicit statement follows it; with
 * `yesSide`, also "…, i.e. 30% on YES". Null when there is none to take; one that does not
 * settle the answer (`settles` false) leaves it open; one with figures in later sentences
 * (`figuresAfter`) is the answer only if none of them states another.
 */
export function lastCommitment(text: string, yesSide: boolean): Commitment | null {
  const found = [
    lastOf(text, REVISED_TO, "revision", afterMatch, REVISED_TO_MARK, { ownOnly: true }),
    lastOf(text, ARROW, "revision", afterMatch, ARROWS),
    lastOf(text, REVISED_LABEL, "revision", afterMatch),
    lastOf(text, NOW_AFTER_FIGURE, "revision", afterMatch, NOW_MARK, { ownOnly: true }),
    lastOf(text, CORRECTED, "revision", afterMatch, undefined, { endsClause: true }),
    lastOf(text, POINT, "range_point", afterMatch, undefined, { notOthers: true }),
    lastOf(text, POINT_AFTER, "range_point", atMatch, POINT_AFTER_MARK, { notOthers: true }),
    ...(yesSide
      ? [
          lastOf(text, YES_SIDE_AFTER, "yes_side", atMatch, YES_MARK, { notOthers: true }),
          lastOf(text, YES_SIDE_BEFORE, "yes_side", afterMatch, YES_MARK, {
            notOthers: true,
            notTerm: true,
          }),
        ]
      : []),
  ].filter((commitment): commitment is Commitment => commitment !== null);
  const last = found.reduce<Commitment | null>(
    (latest, commitment) =>
      latest === null || commitment.figure.start > latest.figure.start ? commitment : latest,
    null,
  );
  if (last === null) return null;
  // A label or tag written after the commitment's own figure states the answer anew; for a
  // probability, so does any figure in a later sentence ("cut from 4.50% to 4.00%" in the
  // reasoning, then "I'd put this at 0.3"); "(was 38%)" in its own sentence is the old value.
  if (lastExplicit(text) > last.figure.end) return null;
  return yesSide && /\d/.test(afterSentence(text, last.figure.end))
    ? { ...last, figuresAfter: true }
    : last;
}
