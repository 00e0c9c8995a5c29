import { keepingLast } from "../last-reading.js";
import { formatNumber } from "../numbers.js";
import { holdsAny, holdsLetter, holdsWords } from "./matches.js";
import { withRangeMidpoints } from "./range-midpoints.js";

const UNITS = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

const WORD_NUMBER = String.raw`\b(?:(?:a|one)\s+hundred|(?:${TENS.join("|")})(?:[-\s](?:${UNITS.slice(1, 10).join("|")}))?|${UNITS.join("|")})\b`;
const DIGITS = String.raw`\d+(?:\.\d+)?`;
const IN_JOINER = String.raw`\s+(?:times\s+)?(?:in|out of)\s+`;
const TO_JOINER = String.raw`\s*(?:-to-|to|:|\/)\s*`;
// "2 to 1 on" is odds on, the same as "in favour"; "on" only where the statement ends.
const ODDS_SIDE_WORD = String.raw`against|in favou?r|on(?=\s*(?:[.!;,)\n]|$))`;
const ODDS_SIDE = String.raw`\s+(?:${ODDS_SIDE_WORD})\b`;

// Word numbers are read only where they state a chance, so "one of the two bills" stays prose.
// They are rewritten as digits first, so the odds patterns below need only match digits.
const WORDS_AS_FIGURE = new RegExp(
  String.raw`${WORD_NUMBER}(?=\s*(?:%|per\s?cent\b)|${IN_JOINER}(?:\d|${WORD_NUMBER})|${TO_JOINER}(?:\d+|${WORD_NUMBER})${ODDS_SIDE})`,
  "gi",
);
const WORDS_AFTER_IN = new RegExp(String.raw`(\d${IN_JOINER})(${WORD_NUMBER})`, "gi");
const WORDS_AFTER_TO = new RegExp(
  String.raw`(\d${TO_JOINER})(${WORD_NUMBER})(?=${ODDS_SIDE})`,
  "gi",
);
const ODDS_IN = new RegExp(
  String.raw`(?<![\w.])(${DIGITS})\s+(?:times\s+)?(in|out of)\s+(${DIGITS})(?!\w|\.\d)`,
  "gi",
);
const ODDS_AGAINST = new RegExp(
  String.raw`(?<![\w.:/])(${DIGITS})${TO_JOINER}(${DIGITS})\s+(${ODDS_SIDE_WORD})\b`,
  "gi",
);
// "±5%", "(+/- 5 pp)": the width of a margin, never the forecast itself.
const MARGIN =
  /(?:\([ \t]{0,3})?(?:±|\+\/-|\+-)\s*\d+(?:\.\d+)?\s*(?:%|pp\b|percentage points?\b)?\s*\)?/g;
const DECIMAL_COMMA_PERCENT =
  /(?<![\d.,])(\d{1,3}),(\d{1,2})(?=\s*(?:%|per\s?cent\b|pro[zc]ent))/gi;
const DECIMAL_COMMA_FRACTION = /(?<![\d.,])0,(\d+)(?![\d,])/g;
// "1-in-5 chance" and "one-in-three" are "1 in 5" and "one in three".
const HYPHENATED_ODDS = new RegExp(
  String.raw`(?<![\w.])(\d+|${WORD_NUMBER})-in-(\d+|${WORD_NUMBER})(?![\w-]|\.\d)`,
  "gi",
);
// An even chance in words. "Better than 50/50" is a bound, not a forecast: it becomes "better
// than even", a conclusion in words.
const EVEN_CHANCE =
  /\b(?:a\s+)?(?:coin[- ]?(?:flip|toss)|toss[- ]?up|even odds|evens|fifty[- ]fifty|50\s*[-/]\s*50)(?![\w/-])/gi;
// Fractions in words are a chance only where one is stated: "I put it at two-thirds.", "a
// one-third chance"; "a two-thirds majority" and "half of the seats" are not.
const BOUND_BEFORE = /\b(?:than|above|below|under|over)\s{1,3}["“]?$/i;
const FRACTION_WORD =
  /\b(?:two[- ]thirds|(?:a|one)[- ]third|three[- ](?:quarters|fourths)|(?:a|one)[- ](?:quarter|fourth)|half)\b/gi;
const FRACTION_VALUES: [RegExp, number][] = [
  [/^two/i, 2 / 3],
  [/third$/i, 1 / 3],
  [/^three/i, 3 / 4],
  [/(?:quarter|fourth)$/i, 1 / 4],
  [/^half$/i, 1 / 2],
];
const FRACTION_AFTER = /^\s*(?:(?:chance|probability|likelihood|likely|odds)\b|[.!;)]|$)/i;
const FRACTION_BEFORE =
  /(?:[:=]|\b(?:at|is|be|about|around|roughly|approximately|maybe|say|call it|estimate))\s*(?:an?\s+)?$/i;

function wordValue(word: string): number {
  const parts = word.toLowerCase().split(/[-\s]+/);
  if (parts.at(-1) === "hundred") return 100;
  return parts.reduce((sum, part) => {
    const tens = TENS.indexOf(part);
    return sum + (tens >= 0 ? (tens + 2) * 10 : Math.max(0, UNITS.indexOf(part)));
  }, 0);
}

function asPercent(probability: number): string {
  return `${formatNumber(probability * 100)}%`;
}

function fromOdds(match: string, first: string, second: string, side: string): string {
  const a = Number(first);
  const b = Number(second);
  if (a + b <= 0) return match;
  const favoured = side.toLowerCase() === "against" ? b : a;
  return asPercent(favoured / (a + b));
}

function fractionWord(word: string, offset: number, text: string): string {
  const value = FRACTION_VALUES.find(([pattern]) => pattern.test(word))?.[1];
  const stated =
    FRACTION_AFTER.test(text.slice(offset + word.length, offset + word.length + 20)) &&
    (FRACTION_BEFORE.test(text.slice(Math.max(0, offset - 20), offset)) ||
      /^\s*(?:chance|probability|likelihood|likely|odds)\b/i.test(
        text.slice(offset + word.length),
      ));
  return value === undefined || !stated ? word : asPercent(value);
}

// What every match of a pattern that starts at a figure holds beyond the figure: tested first,
// since a pass of such a pattern tries every digit of the text, and a test for a word or a
// sign skips over them; most replies hold none of these, and a long list of figures none.
// A sign every match holds is looked for before a pattern: see holdsAny.
type Mark = (text: string) => boolean;
// Patterns for words are looked for only in a text with letters, an even chance where its
// words are written (see holdsWords) or "50" and a slash or dash.
const EVEN_CHANCE_WORDS = /coin|toss|even|fifty/i;
const EVEN_CHANCE_MARK: Mark = (text) =>
  holdsWords(text, EVEN_CHANCE_WORDS) || (text.includes("50") && holdsAny(text, ["-", "/"]));
const HYPHENATED_ODDS_WRITTEN = /-in-/i;
const DECIMAL_COMMA_WRITTEN = /,\d/;
const WORD_AFTER_IN_WRITTEN = new RegExp(String.raw`(?:in|out of)\s+${WORD_NUMBER}`, "i");
const ODDS_SIDE_WRITTEN = /against|favou?r|\bon\b/i;
const ODDS_IN_WRITTEN = /(?:in|out of)\s+\d/i;
// What every match of ODDS_IN holds from the last digit of its first figure on: "3 in 10".
// Looked for after the words, which a text of figures is searched for faster.
const ODDS_IN_CORE = /\d\s+(?:times\s+)?(?:in|out of)\s+\d/i;
const HYPHENATED_ODDS_MARK: Mark = (text) =>
  text.includes("-") && HYPHENATED_ODDS_WRITTEN.test(text);
const DECIMAL_COMMA_MARK: Mark = (text) => text.includes(",") && DECIMAL_COMMA_WRITTEN.test(text);
const MARGIN_MARK: Mark = (text) => holdsAny(text, ["±", "+/-", "+-"]);
const WORDS_AFTER_IN_MARK: Mark = (text) => holdsWords(text, WORD_AFTER_IN_WRITTEN);
const ODDS_SIDE_MARK: Mark = (text) => holdsWords(text, ODDS_SIDE_WRITTEN);
const ODDS_IN_MARK: Mark = (text) => holdsWords(text, ODDS_IN_WRITTEN) && ODDS_IN_CORE.test(text);

/** `text` rewritten by `rewrite` when `mark` finds what each of its matches holds. */
function where(text: string, mark: Mark, rewrite: (text: string) => string): string {
  return mark(text) ? rewrite(text) : text;
}

/** "in four" → "in 4": a number in words after the digits of odds. */
function wordAfter(_match: string, lead: string, word: string): string {
  return lead + wordValue(word);
}

function rewrittenProbabilities(text: string): string {
  let out = where(text, EVEN_CHANCE_MARK, (current) =>
    current.replace(EVEN_CHANCE, (_phrase: string, offset: number, whole: string) =>
      BOUND_BEFORE.test(whole.slice(Math.max(0, offset - 12), offset)) ? "even" : "50% chance",
    ),
  );
  out = holdsLetter(out) ? out.replace(FRACTION_WORD, fractionWord) : out;
  out = where(out, HYPHENATED_ODDS_MARK, (current) => current.replace(HYPHENATED_ODDS, "$1 in $2"));
  out = where(out, DECIMAL_COMMA_MARK, (current) =>
    current.replace(DECIMAL_COMMA_PERCENT, "$1.$2").replace(DECIMAL_COMMA_FRACTION, "0.$1"),
  );
  out = where(out, MARGIN_MARK, (current) =>
    current.replace(MARGIN, (margin) => " ".repeat(margin.length)),
  );
  // The rewritings below only turn words into digits: a text without letters now gets none
  // later, and so no number in words.
  const worded = holdsLetter(out);
  if (worded) {
    out = out.replace(WORDS_AS_FIGURE, (word) => String(wordValue(word)));
    out = where(out, WORDS_AFTER_IN_MARK, (current) => current.replace(WORDS_AFTER_IN, wordAfter));
  }
  out = where(out, ODDS_SIDE_MARK, (current) =>
    (worded ? current.replace(WORDS_AFTER_TO, wordAfter) : current).replace(
      ODDS_AGAINST,
      (match, a: string, b: string, side: string) => fromOdds(match, a, b, side),
    ),
  );
  out = where(out, ODDS_IN_MARK, (current) =>
    current.replace(ODDS_IN, (match, a: string, joiner: string, b: string) => {
      const odds = `${a} ${joiner.toLowerCase()} ${b}`;
      // "nine times out of ten" states how often the event happens: a chance.
      return /\btimes\b/i.test(match) ? `${odds} chance` : odds;
    }),
  );
  return withRangeMidpoints(out);
}

/**
 * `text` with the ways models write a probability in words rewritten as plain figures:
 * "thirty-five percent" → "35%", "one in four" → "1 in 4", "3:1 against" → "25%",
 * "20-30%" → "25%", "35,5 %" → "35.5 %", "a coin flip" → "50% chance", "two-thirds" → "66.67%"
 * where a chance is stated; margins such as "(±5%)" are blanked.
 * The last text's rewriting is kept: two readings of a reply ask for it.
 */
export const plainProbabilities = keepingLast(rewrittenProbabilities);
