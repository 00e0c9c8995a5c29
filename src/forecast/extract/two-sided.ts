/*
 * A question with two options is often answered for one side only: "60/40 in favour of the
 * Democrats", "65-35 Republicans", "Democrats win the House with probability 0.57", "70% for
 * Labour". The other side is the rest. Read only from the reply's last paragraph, only where
 * exactly one such statement stands there, and never where the sentence says the named side
 * loses: an ambiguous reply has no answer.
 */
import { findNumbers, type NumberToken } from "../numbers.js";
import type { OptionMap } from "../types.js";
import { isAttributed, withNamesBlanked } from "./attributed-figures.js";
import { matchesOf } from "./matches.js";
import { AMBIGUOUS, type Mention, optionNames } from "./option-names.js";
import { toProbability } from "./validate.js";

// "60/40", "65-35", "70:30", "55 to 45": two shares of one hundred.
const RATIO =
  /(?<![\w.])(\d{1,2}(?:\.\d)?)\s*%?\s*(?:\/|-|–|—|:|\bto\b)\s*(\d{1,2}(?:\.\d)?)\s*%?(?!\w|\.\d)/g;
// Words that may stand between a ratio and the side it favours.
const TOWARDS =
  /^\s*(?:,\s*)?(?:(?:in\s+)?favou?r(?:ing)?\s+(?:of\s+)?|for\s+|towards?\s+|to\s+|on\s+)?(?:the\s+)?$/i;
// Words that make the named side the loser, or the statement a condition or a quotation.
const AGAINST =
  /\b(?:lose|loses|losing|lost|fail|fails|failing|not|never|n['’]t|against|behind|trail|trails|trailing|miss|misses|if|unless|market|markets|polls?|bookmakers?|implied|last|approval|ballot)\b/i;
// A sentence that states the side's chance: "win with probability 0.57", "a 70% chance of
// holding", "70% for Labour".
const WINNING =
  /\b(?:wins?|winning|takes?|holds?|keeps?|retains?|controls?|carr(?:y|ies)|prevails?|chance|probability|likelihood|likely|favou?red|victory)\b/i;
const FOR_SIDE = /^\s*(?:for|on)\s+(?:the\s+)?$/i;
// The model's own word for one side: "I give Democrats 60%", "Democrats: 60%".
const GIVEN_BY_ME =
  /\b(?:I|we)(?:['’]d|\s+would)?\s+(?:give|put|make|rate|have|say|estimate|forecast)\b/i;
const LABEL_GAP = /^\s*(?:[:=]|\s[-–—]\s|[–—])\s*$/;
// Between the side's name and the model's figure, only words of a chance: "I give Democrats
// 60%", "I put the Democrats at 60%", "a 58% chance"; not "the Democrats' vote share at 52%".
const CHANCE_GAP =
  /^(?:['’]s?)?\s*(?:(?:a|an|at|on|to|about|around|roughly|some|approximately|chance|probability|likelihood|of)\s+)*[~≈]?\s*$/i;
const SENTENCE_END = /[.!?\n](?=\s|$)/g;

interface Statement {
  letter: string;
  share: number;
}

function lastParagraph(text: string): { text: string; from: number } {
  const trimmed = text.trimEnd();
  const from = trimmed.lastIndexOf("\n\n") + 1;
  return { text: trimmed.slice(from), from };
}

/** The sentence of `paragraph` around `index`. */
function sentenceAround(paragraph: string, index: number): { start: number; end: number } {
  let start = 0;
  let end = paragraph.length;
  for (const match of paragraph.matchAll(SENTENCE_END)) {
    if (match.index < index) start = match.index + 1;
    else {
      end = match.index;
      break;
    }
  }
  return { start, end };
}

function lettersIn(mentions: Mention[], start: number, end: number): Set<string | undefined> {
  const letters = new Set<string | undefined>();
  for (const mention of mentions) {
    if (mention.start >= start && mention.end <= end) letters.add(mention.letter);
  }
  return letters;
}

/**
 * "60/40 in favour of the Democrats": the first share for the side named right after; not a
 * ratio someone else gives ("bookmakers have it 60/40"). `blanked`: the paragraph, names blanked.
 * Null when the paragraph also writes a split of its own that names no side ("Update: 50/50"):
 * which of the two is the answer is then not settled.
 */
function ratioStatements(
  paragraph: string,
  blanked: string,
  mentions: Mention[],
): Statement[] | null {
  const found: Statement[] = [];
  for (const match of matchesOf(paragraph, RATIO)) {
    const first = Number(match[1]);
    const second = Number(match[2]);
    if (Math.abs(first + second - 100) > 1) continue;
    const end = match.index + match[0].length;
    if (isAttributed(blanked, { start: match.index, end })) continue;
    const named = mentions.find((mention) => mention.start >= end);
    const towards = named?.letter !== undefined && TOWARDS.test(paragraph.slice(end, named.start));
    if (!towards || first <= second) return null;
    found.push({ letter: named.letter as string, share: first / 100 });
  }
  return found;
}

/** Whether the side's figure is the model's own word: "I give Democrats 60%", "Democrats: 60%". */
function givenByModel(paragraph: string, mentions: Mention[], token: NumberToken, start: number) {
  const named = mentions.findLast((mention) => mention.end <= token.start);
  if (named === undefined || named.start < start) return false;
  const gap = paragraph.slice(named.end, token.start);
  return (
    (GIVEN_BY_ME.test(paragraph.slice(start, named.start)) && CHANCE_GAP.test(gap)) ||
    LABEL_GAP.test(gap)
  );
}

/**
 * "Democrats win with probability 0.57": one side named, one figure, in one sentence. A figure
 * someone else gives, or the past ("the market gives Democrats 70%"), is passed over.
 */
function oneSideStatements(paragraph: string, blanked: string, mentions: Mention[]): Statement[] {
  const found: Statement[] = [];
  for (const token of findNumbers(paragraph)) {
    const share = shareOf(token);
    if (share === null || isAttributed(blanked, token)) continue;
    const { start, end } = sentenceAround(paragraph, token.start);
    const sentence = paragraph.slice(start, end);
    const letters = lettersIn(mentions, start, end);
    const [letter] = letters;
    if (letters.size !== 1 || letter === undefined || AGAINST.test(sentence)) return [];
    const next = mentions.find((mention) => mention.start >= token.end);
    const forSide = next !== undefined && FOR_SIDE.test(paragraph.slice(token.end, next.start));
    if (!forSide && !WINNING.test(sentence) && !givenByModel(paragraph, mentions, token, start)) {
      return [];
    }
    found.push({ letter, share });
  }
  return found;
}

function shareOf(token: NumberToken): number | null {
  if (!token.percent && (token.bareInteger || token.value >= 1)) return null;
  return toProbability(token);
}

/**
 * The two options' probabilities from a statement about one side, or null when the reply's last
 * paragraph holds none, or more than one, or anything else it could mean.
 */
export function twoSidedChoice(
  text: string,
  options: OptionMap | null,
): Record<string, number> | null {
  const letters = options === null ? [] : Object.keys(options);
  if (options === null || letters.length !== 2) return null;
  const paragraph = lastParagraph(text).text;
  const names = optionNames(options);
  const mentions = names.mentions(paragraph);
  if (mentions.some((mention) => mention.letter === AMBIGUOUS)) return null;
  const blanked = withNamesBlanked(paragraph, names);
  const ratios = ratioStatements(paragraph, blanked, mentions);
  if (ratios === null) return null;
  const statements = ratios.length > 0 ? ratios : oneSideStatements(paragraph, blanked, mentions);
  const [statement] = statements;
  if (statements.length !== 1 || statement === undefined) return null;
  if (statement.share <= 0 || statement.share >= 1) return null;
  const other = letters.find((letter) => letter !== statement.letter) as string;
  // Rounded, so 0.58 leaves 0.42 rather than 0.42000000000000004.
  const rest = Math.round((1 - statement.share) * 1e12) / 1e12;
  return { [statement.letter]: statement.share, [other]: rest };
}
