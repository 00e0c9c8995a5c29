/*
 * What the sentence of a revision or point estimate says about it. A change made only on a
 * condition ("I'd raise it to 35% if the bill passes", "a strong jobs report could move me to
 * 40%") or to the spread rather than the value ("raise the standard deviation to 15", "widen
 * my interval to 40–60") does not settle the answer; a point or a chance of "yes" someone else
 * states ("the Fed's central estimate is 2.1%", "Polymarket traders put 45% on YES") is not
 * the reply's own.
 */
import { isAttributed } from "./attributed-figures.js";
import { sentenceStartBefore } from "./sentence-starts.js";

// How far a commitment's sentence is looked for around it: a reply of one endless sentence
// would otherwise be searched to its ends for every commitment.
const REACH = 300;

// "if", "unless", "should the Fed cut", "could", "might", "were it to", "on news of": a change
// the reply would make, not one it makes. "If anything" and "even if" concede, and commit.
const CONDITION =
  /\b(?:(?<!\b(?:even|as)\s)if(?!\s+anything\b)|unless|could|might|in case|in the event|provided|assuming|suppose|should\s+(?!I\b|we\b)\w+|were\s+(?:it|they|this|that|to)|on\s+(?:news|confirmation|signs?)\s+of)\b/i;
// Words naming the spread of an estimate or a bound of it, written between the verb of change
// and its new figure.
const SPREAD =
  /\b(?:standard\s+deviation|std|sd|sigma|uncertainty|spread|interval|ci|range|bounds?|error|margin|tails?|low(?:er)?\s+end|high(?:er)?\s+end|floor|ceiling|percentile|quantile|width)\b|\bwiden|\bnarrow|\btighten/i;
// A named source's own figure: "the Fed's central estimate", "Goldman's point estimate".
const POSSESSIVE_SOURCE =
  /(?<![\w'’])(?!(?:It|That|There|What|Here|Let|He|She|Who)['’])[A-Z][\w.&-]*['’]s?(?![\w'’])/;
const FIRST_PERSON = /\b(?:I|I['’](?:m|ll|d|ve)|we|we['’](?:re|ll|d|ve)|me|my|us|our)(?![\w'’])/i;

const SENTENCE_END = /[!?\n]|\.(?!\d)/g;

/** Where the sentence holding `index` starts, looked for at most REACH characters back. */
function sentenceStart(text: string, index: number): number {
  const from = Math.max(0, index - REACH);
  return from + (sentenceStartBefore(text.slice(from, index + 1), index - from)?.end ?? 0);
}

/** Where the sentence holding `index` ends, looked for at most REACH characters on. */
function sentenceEnd(text: string, index: number): number {
  const tail = text.slice(index, index + REACH);
  SENTENCE_END.lastIndex = 0;
  const end = SENTENCE_END.exec(tail);
  return index + (end === null ? tail.length : end.index);
}

/** Whether the change matched at `index` is made only on a condition. */
export function isConditional(text: string, index: number, figureEnd: number): boolean {
  return CONDITION.test(text.slice(sentenceStart(text, index), sentenceEnd(text, figureEnd)));
}

/** Whether the words from the verb of change at `index` to its figure at `figureAt` name a spread. */
export function changesSpread(text: string, index: number, figureAt: number): boolean {
  return SPREAD.test(text.slice(index, figureAt));
}

/** Whether the point or chance of "yes" matched at `index`, its figure at `figure`, is someone else's. */
export function isOthers(
  text: string,
  index: number,
  figure: { start: number; end: number },
): boolean {
  if (isAttributed(text, figure)) return true;
  const before = text.slice(sentenceStart(text, index), index);
  return POSSESSIVE_SOURCE.test(before) && !FIRST_PERSON.test(before);
}
