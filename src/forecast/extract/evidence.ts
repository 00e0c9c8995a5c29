import { isSpaceCode } from "../number-tokens.js";
import { holdsLetter, matchesOf } from "./matches.js";

// Figures a reply quotes as evidence rather than states as its own answer: someone else's
// forecast ("analysts give a 70% chance", "the 62% market price", "58% on Kalshi"), a reference
// class or the past ("historically 35%", "the base rate of 25%", "61% last year"), or a share of
// something ("45% of similar bills", "54% support").

const SOURCE_AFTER = `analysts?|analysts['’]|experts?|economists?|strategists?|forecasters?|superforecasters?|pundits?|officials?|observers?|commentators?|insiders?|sources?|bookmakers?|bookies|sportsbooks?|betfair|smarkets|oddschecker|exchanges?|bettors?|betting|oddsmakers?|markets?|market['’]s|futures|traders?|investors?|polymarket|kalshi|predictit|metaculus|manifold|good judgment|community|crowd|consensus|polls?|polling|pollsters?|surveys?|respondents|studies|study|researchers?|reports?|reported(?:ly)?|models?|fivethirtyeight|according to|citing|cited|implied|implies|(?<!\\b(?:I|we)(?:['’]d|\\s{1,3}would)?\\s{1,3})priced?|prices|pricing|trades|trading|analysten|märkte|markt|umfragen|laut|analistas|mercados?|encuestas|según|analystes|marchés?|sondages|selon|analisti|mercato|sondaggi|secondo`;
const SOURCE = `${SOURCE_AFTER}|they|others`;
const REFERENCE = String.raw`base[- ]?rates?|reference class|outside view|historical(?:ly)?|history|in the past|last (?:year|time|cycle|month|week|election|season|quarter|decade)|previous(?:ly)?|since (?:19|20)\d\d|in (?:19|20)\d\d|a (?:year|month|week) ago|on average|typically|basisrate|historisch|im jahr|históricamente|tasa base|historiquement|taux de base|storicamente`;
// The model's own earlier view: a reference point even when written in the first person.
const OWN_REFERENCE = `initial(?:ly)?|prior|at first|first[- ]pass|draft|starting|anchor(?:ed|ing)?|naive`;

const CUE = new RegExp(
  String.raw`\b(?:(?<source>${SOURCE})|(?<reference>${REFERENCE})|(?<own>${OWN_REFERENCE}))\b`,
  "gi",
);
// A cue right after an earlier figure belongs to it: in "the 62% market gives roughly 48%" the
// market's figure is 62%, not 48%; so is the price in "the 62% market price".
const CUE_OF_EARLIER_FIGURE =
  /\d(?:\s*(?:%|per\s?cent))?\s*(?:[\w'’]+\s+)?(?:(?:chance|probability|odds)\s+)?(?:(?:on|at|from|per|in)\s+)?(?:the\s+)?$/i;
// A source the model measures itself against or reasons from, then its own figure after a
// break: "a little under the market, at 55%", "I agree with the crowd: 62%", "given the polls,
// the probability is 30%"; but "based on the base rate of 35%" quotes the base rate.
const COMPARED_BEFORE =
  /\b(?:than|under|below|above|over|versus|vs\.?|compared (?:to|with)|relative to|with|against|despite|unlike|discounting|ignoring|fading|trusting|given|based on|in light of|considering|weighing|factoring in|accounting for)\s+(?:the\s+|its\s+|their\s+|recent\s+|latest\s+)?$/i;
// Between a cue and the figure, a turn makes the figure the model's own: "markets say 70%, but
// 30% seems right", "my prior was 10%, and I revise to 18%".
const TURN =
  /\b(?:but|however|yet|so|therefore|thus|overall|ma|pero|mais|aber|(?:I|we)(?:['’]ll| will| would|['’]d)?\s+(?:revise|update|move|adjust|arrive|land|settle|end up|go)|(?:moves?|brings?|gets?|takes?|puts?)\s+(?:me|us))\b/i;
// After a third-party cue, the first person does too: "the new poll moves me to 18%". An earlier
// view of the model's own ("Initially I thought 60%") stays a reference point.
const FIRST_PERSON =
  /\b(?:I|I['’](?:d|m|ll|ve)|me|my|we|our|ich|mein|meine|je|j['’]|mon|ma|yo|mi|estimo|creo|io|direi|stimo)(?![\w'’])/i;
// "my model", "our own polling": the model's own source.
const OWNED_BEFORE = /\b(?:my|our)\s+(?:own\s+)?$/i;
// What ends a sentence: one of "!?;\n|", or a point before a space ("3.5" is a figure).
const SENTENCE_ENDS = new Set([..."!?;\n|"].map((char) => char.charCodeAt(0)));
const POINT = 46;
const REACH = 160;

// A source or reference written right after the figure: "62% market price", "35% base rate",
// "58% on Kalshi", "62% chance the market prices", "61% last year".
const CUE_AFTER = new RegExp(
  String.raw`^\s*(?:(?:chance|probability|odds|likelihood)\s+)?(?:(?:on|at|from|per|by|in|that|implied by)\s+)?(?:the\s+)?(?:${SOURCE_AFTER}|${REFERENCE})\b`,
  "i",
);
// "45% of similar bills", "54% support", "a 0.25 point cut": a quantity, not a chance.
const SHARE_AFTER =
  /^\s*(?:of(?!\s+(?:the\s+time|it\b|this\b|that\b|yes\b|passing|happening))|des|der|de\s+(?:los|las)|dei|degli|delle|support|approval|turnout|share|majority|margin|growth|inflation|unemployment|rates?|yields?|increase|decrease|drop|rise|gains?|lead|swing|votes?|voters|respondents|stake|tariffs?|tax|discount|returns?|interest|capacity|completion|y\/?o\/?y|year[- ]on[- ]year|annually|per (?:year|annum)|points?|pp|zustimmung|de apoyo|d['’]opinions)\b/i;

/** Where the last sentence of `window` starts: read back from its end, code by code. */
function lastSentenceStart(window: string): number {
  for (let index = window.length - 1; index >= 0; index--) {
    const code = window.charCodeAt(index);
    if (SENTENCE_ENDS.has(code)) return index + 1;
    if (code === POINT && isSpaceCode(window.charCodeAt(index + 1))) return index + 1;
  }
  return 0;
}

/** Whether a cue earlier in the sentence says whose figure the one at `start` is. */
function attributedBefore(text: string, start: number): boolean {
  const window = text.slice(Math.max(0, start - REACH), start);
  const sentence = window.slice(lastSentenceStart(window));
  for (const cue of matchesOf(sentence, CUE)) {
    const before = sentence.slice(0, cue.index);
    const between = sentence.slice(cue.index + cue[0].length);
    if (
      CUE_OF_EARLIER_FIGURE.test(before) ||
      OWNED_BEFORE.test(before) ||
      (COMPARED_BEFORE.test(before) && /[,:]/.test(between))
    ) {
      continue;
    }
    const own = TURN.test(between) || (cue.groups?.own === undefined && FIRST_PERSON.test(between));
    if (!own) return true;
  }
  return false;
}

const OWN_VIEW = new RegExp(`${TURN.source}|${FIRST_PERSON.source}`, "gi");

/**
 * Where the last words in `text` that turn to the model's own view start ("but I estimate",
 * "so", "however"), or -1.
 */
export function lastTurnToOwnView(text: string): number {
  if (!holdsLetter(text)) return -1;
  let last = -1;
  for (const match of matchesOf(text, OWN_VIEW)) last = match.index;
  return last;
}

/** Whether a source or a reference follows the figure ending at `end`: "$1.8tn last year". */
export function sourcedAfter(text: string, end: number): boolean {
  return CUE_AFTER.test(text.slice(end, end + 60));
}

/**
 * Whether the figure written from `start` to `end` is evidence the reply quotes (from others,
 * a reference class, the past, or a share of something) rather than a forecast of its own.
 */
export function isEvidence(text: string, start: number, end: number): boolean {
  const after = text.slice(end, end + 60);
  return CUE_AFTER.test(after) || SHARE_AFTER.test(after) || attributedBefore(text, start);
}
