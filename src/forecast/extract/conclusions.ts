import { isEvidence, lastTurnToOwnView } from "./evidence.js";
import { holdsLetter, matchesOf } from "./matches.js";
import { isRejected, type ProseFigure, proseFiguresFromEnd } from "./prose-figures.js";
import { sentenceStartBefore } from "./sentence-starts.js";
import {
  MARKED_GAP,
  markedFigureAt,
  markedFigures,
  type StatedFigure,
  statedAt,
} from "./stated-figure.js";
import { type RawNumber, toProbability } from "./validate.js";

// Words that conclude in the model's own voice: without a final marker, the figure after the last
// of them is the answer, over figures quoted earlier next to "chance" ("Analysts give a 70% chance
// … All things considered, 30%").
const CONCLUSION_MARKER =
  /\b(?:I think|I believe|I(?:'m| am) (?:at|around|near|about|roughly)|gives me|all told|all things considered|all in all|on balance|on net|net(?:[- ]net)?|overall|so|therefore|thus|hence|in sum|in short|to sum up|summing up|taken together|taking (?:everything|it all|all (?:of )?(?:this|that)|these)(?: together| into account)?|putting (?:it|this|everything|these)(?: all)? together|weighing (?:it all|everything|all (?:of )?(?:this|that|these)|these)|(?:that|which|this) (?:gives|leaves|puts|gets) me(?: at| to)?|(?:gets|moves|brings|takes) me(?: down| up)?(?: to)?|I revise(?: down| up)?(?: to)?|I(?:'m| am) going with|I(?:'d| would)? go with|call it|I make it|I come out(?: at| around| near)?|I land (?:near|around)|I(?:'d| would)? settle (?:around|near)|I(?:'d| would) say|I(?:'d| would)? estimate|I(?:'d| would)? (?:put|price|peg|place|rate) (?:it|this|the (?:odds|probability)) at|I(?:'d| would) give (?:it|this)|my (?:best )?(?:guess|estimate|view|number|take|read|call|forecast)(?: is)?|alles in allem|insgesamt|unterm strich|en resumen|en conclusión|por lo tanto|estimo|en somme|au total|dans l'ensemble|donc|j'estime|nel complesso|quindi|direi|stimo)(?![\w'’])/gi;
// Words after a figure that make it the conclusion: "45% is where I land", "30% feels right".
const CONCLUSION_AFTER =
  /\b(?:(?:is\s+)?(?:where|what)\s+I\s+(?:land|end up|come out|settle)|(?:is\s+)?my\s+(?:final\s+)?(?:number|estimate|forecast|answer|call|view|guess|pick|take)|(?:seems|feels|looks|sounds|is)\s+(?:about\s+|roughly\s+|more or less\s+|just\s+)?(?:right|fair|reasonable|sensible|correct))\b/gi;
// The figure those words follow: "45%", "0.3", "3 in 4".
const FIGURE_BEFORE =
  /(?:\d+(?:\.\d+)?\s+(?:in|out of)\s+)?\d+(?:\.\d+)?(?:\s*(?:%|per\s?cent))?\s*$/i;
const PARAGRAPH_BREAK = /\n[ \t]*\n/g;
const SAME_ANSWER = 0.005;
const NO_VALID_ANSWER: RawNumber = { value: Number.NaN, percent: false };

export function lastDigitAt(text: string): number {
  for (let index = text.length - 1; index >= 0; index--) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) return index;
  }
  return -1;
}

/** Where the paragraph holding `index` starts. */
function paragraphStart(text: string, index: number): number {
  let start = 0;
  if (!text.includes("\n")) return start;
  for (const separator of text.matchAll(PARAGRAPH_BREAK)) {
    if (separator.index >= index) break;
    start = separator.index + separator[0].length;
  }
  return start;
}

/** Whether two valid figures state different answers. */
function differ(a: RawNumber, b: RawNumber): boolean {
  return (
    Math.abs((toProbability(a) ?? Number.NaN) - (toProbability(b) ?? Number.NaN)) > SAME_ANSWER
  );
}

/**
 * The last valid figure the reply states as its own, of `fromEnd` (figures from the last
 * backwards), unless an earlier own figure of its paragraph says something different and
 * nothing chooses between them ("maybe 30%, maybe 45%"; but "a 70% chance of rain, but I
 * estimate 15%"): then a figure that is no valid answer, so the reply is read as having none.
 * Walks back from the end, so figures are read, and evidence judged, only as far as it must.
 */
export function lastOwnFigure(text: string, fromEnd: Iterable<ProseFigure>): RawNumber[] {
  const valid = (figure: ProseFigure) => toProbability(figure.raw) !== null && !figure.evidence;
  let last: ProseFigure | undefined;
  let from = 0;
  for (const figure of fromEnd) {
    if (last === undefined) {
      if (!valid(figure)) continue;
      last = figure;
      const start = paragraphStart(text, last.start);
      // Figures before the last turn to the model's own view are set aside by it. The turn is
      // in words: a text of figures alone is not searched for it.
      const turn = holdsLetter(text) ? lastTurnToOwnView(text.slice(start, last.start)) : -1;
      from = Math.max(start, start + turn);
      continue;
    }
    if (figure.start < from) break;
    if (valid(figure) && differ(figure.raw, last.raw)) return [NO_VALID_ANSWER];
  }
  return last === undefined ? [] : [last.raw];
}

function firstOf<T>(items: Iterable<T>, wanted: (item: T) => boolean): T | undefined {
  for (const item of items) if (wanted(item)) return item;
  return undefined;
}

function stated(text: string, figure: StatedFigure): boolean {
  return (
    toProbability(figure.raw) !== null &&
    !isEvidence(text, figure.start, figure.end) &&
    !isRejected(text, figure.start, figure.end)
  );
}

/** Figures followed by words that make them the conclusion: "45% is where I land". */
function concludedAfter(text: string): StatedFigure[] {
  const found: StatedFigure[] = [];
  if (!holdsLetter(text)) return found;
  for (const words of matchesOf(text, CONCLUSION_AFTER)) {
    const lead = FIGURE_BEFORE.exec(text.slice(Math.max(0, words.index - 40), words.index));
    if (lead === null) continue;
    const figure = statedAt(text, words.index - lead[0].length, false);
    if (figure !== null) found.push(figure);
  }
  return found;
}

/**
 * The last sentence of the closing paragraph (from `from` to the end) that is a figure and
 * linking words and states it ("So 30%.", "Maybe 30%"), if its figure starts after `after`; of
 * two sentences that give one figure, the earlier. Sentences are read from the last back, only
 * as far as a sentence's figure could start late enough: a paragraph of thousands of lines of
 * figures costs the few lines at its end.
 */
function lastClosingStatement(text: string, from: number, after: number): StatedFigure | undefined {
  const paragraph = text.slice(from);
  let last: StatedFigure | undefined;
  for (
    let start = sentenceStartBefore(paragraph, paragraph.length - 1);
    start !== null;
    start = sentenceStartBefore(paragraph, start.end - 1)
  ) {
    const reach = from + start.end + MARKED_GAP;
    if (last === undefined ? reach <= after : reach < last.start) break;
    const figure = markedFigureAt(paragraph, start.index, start.end);
    if (figure === null) continue;
    // Object.assign, not a spread: see figureWith in stated-figure.ts.
    const placed = Object.assign({}, figure, {
      start: figure.start + from,
      end: figure.end + from,
    });
    const later = last === undefined ? placed.start > after : placed.start >= last.start;
    if (later && stated(text, placed)) last = placed;
  }
  return last;
}

/**
 * The reply's last conclusion in its own voice: after a concluding word ("overall", "so", "I'd
 * say"), before one ("… is where I land"), or alone in a sentence of the closing paragraph. A
 * closing sentence that another own figure after it contradicts ("Maybe 30%, maybe 45%") leaves
 * nothing to choose, and reads as no valid answer.
 */
export function lastConclusion(text: string): RawNumber[] {
  // Concluding words are words: a text of figures alone is not searched for them.
  const marked = holdsLetter(text) ? markedFigures(text, CONCLUSION_MARKER) : [];
  const cued = [...marked, ...concludedAfter(text)].filter((figure) => stated(text, figure));
  // The last cued figure; of two at one place, the first found.
  const latestCued = cued.reduce<StatedFigure | undefined>(
    (latest, figure) => (latest === undefined || figure.start > latest.start ? figure : latest),
    undefined,
  );
  const from = paragraphStart(text, lastDigitAt(text));
  const last = lastClosingStatement(text, from, latestCued?.start ?? -1);
  if (last === undefined) return latestCued === undefined ? [] : [latestCued.raw];
  const paragraph = text.slice(from);
  const lastCued = cued.reduce((latest, figure) => Math.max(latest, figure.end), from) - from;
  const rival = firstOf(
    proseFiguresFromEnd(paragraph).backwards(),
    (figure) =>
      figure.start >= lastCued &&
      toProbability(figure.raw) !== null &&
      differ(figure.raw, last.raw) &&
      !figure.evidence,
  );
  if (rival === undefined) return [last.raw];
  // "There's a 70% chance of rain, but I estimate 15% for flooding": the later figure is the
  // model's own view, which the readings of prose figures find.
  const between = paragraph.slice(last.end - from, rival.start);
  return lastTurnToOwnView(between) === -1 ? [NO_VALID_ANSWER] : [];
}
