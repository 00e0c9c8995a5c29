import { findNumbers, isYearLike, type NumberToken } from "../numbers.js";
import type { OptionMap } from "../types.js";
import { UNPLACED } from "./choice-distributions.js";
import type { ChoiceText } from "./choice-text.js";
import type { LineNames } from "./line-names.js";
import { matchesOf } from "./matches.js";
import type { Mention } from "./option-names.js";
import type { LineEntry } from "./validate.js";

// Where one option's statement ends in a sentence: "Labour 45%, Reform UK 35% and the Lib Dems
// 5%", "Bardella at 45%, with Le Pen at 25%", "then C (25%)".
const CLAUSE_BREAK = /[,;]|\.(?=\s|$)|\s(?:and|then|with|while|but|plus|followed by)\s/gi;
const PERCENT_SIGN = /%|percent/i;
// Words left around an unnamed figure that say nothing of which option it belongs to.
const FILLER =
  /\b(?:i['’]d|i['’]ll|i|give|put|assign|at|on|to|for|the|a|an|about|around|roughly|chance|probability|of|is|gets|get)\b/gi;
const MAX_NAME_WORDS = 4;
const MAX_NAMED_CLAUSE = 60;
// An option letter standing alone: "55% on B", "0.15 to A".
const LONE_LETTER = /(?<![\w'’])[A-Z](?![\w'’])/g;

// "Labour and Reform UK together 80%": names joined this way share the figure that follows.
const JOINING_BREAK = /^\s(?:and|plus|or|&)\s$/i;

interface Span {
  start: number;
  end: number;
}

interface Clause extends Span {
  /** Joined to the next clause by "and", so a name here may share the next clause's figure. */
  joinsNext: boolean;
}

function clauses(line: string): Clause[] {
  const spans: Clause[] = [];
  let start = 0;
  for (const match of matchesOf(line, CLAUSE_BREAK)) {
    spans.push({ start, end: match.index, joinsNext: JOINING_BREAK.test(match[0]) });
    start = match.index + match[0].length;
  }
  spans.push({ start, end: line.length, joinsNext: false });
  return spans;
}

function figuresIn(line: string, mentions: Mention[], percentOnly: boolean): NumberToken[] {
  let next = 0;
  return findNumbers(line).filter((token) => {
    while (next < mentions.length && (mentions[next]?.end ?? Infinity) <= token.start) next++;
    const mention = mentions[next];
    // A figure inside an option's own name ("Above 5%") is not its probability.
    const insideName = mention !== undefined && mention.start < token.end;
    return !insideName && (percentOnly ? token.percent : !isYearLike(token));
  });
}

function namesLetter(line: string, options: OptionMap): boolean {
  for (const match of matchesOf(line, LONE_LETTER)) if (match[0] in options) return true;
  return false;
}

/** The items (in order) that start inside each span (in order), in one pass over both. */
function bySpan<T extends { start: number }>(items: T[], spans: Span[]): T[][] {
  let next = 0;
  return spans.map((span) => {
    const inside: T[] = [];
    while (next < items.length && (items[next]?.start ?? Infinity) < span.end) {
      const item = items[next++];
      if (item !== undefined && item.start >= span.start) inside.push(item);
    }
    return inside;
  });
}

/** The option an unnamed figure's clause names in a shortened form ("Lib Dems"), or UNPLACED. */
function shortenedName(
  clause: string,
  figure: NumberToken,
  options: OptionMap,
  reply: ChoiceText,
): string {
  // Reasoning ("turnout was 67.3% in 2019") is longer than any statement of a shortened name.
  if (clause.length > MAX_NAMED_CLAUSE) return UNPLACED;
  const rest = `${clause.slice(0, figure.start)} ${clause.slice(figure.end)}`;
  const letters = new Set(
    matchesOf(rest, LONE_LETTER)
      .map((match) => match[0])
      .filter((letter) => letter in options),
  );
  const [lone] = letters;
  if (letters.size === 1 && lone !== undefined) return lone;
  const words = rest.replace(FILLER, " ").trim();
  if (words === "" || words.split(/\s+/).length > MAX_NAME_WORDS) return UNPLACED;
  return reply.letterFor(words) ?? UNPLACED;
}

/**
 * Option probabilities stated in a sentence, clause by clause, the figure before or after the
 * name: "I give Labour a 45% chance, Reform UK 35%", "45% Labour, 35% Reform UK". A figure whose
 * clause names no option is UNPLACED, so a list that then leaves an option out is not read as if
 * that option had 0. Without a percent sign anywhere, every figure must be placed. Figures that
 * are someone else's or the past's are left out.
 */
export function proseChoices(line: string, reply: ChoiceText, names: LineNames): LineEntry[] {
  const options = reply.options;
  if (options === null) return [];
  const percentOnly = PERCENT_SIGN.test(line);
  const entries: LineEntry[] = [];
  const mentions = names.mentions();
  // A line that names no option at all is reasoning, not a statement of the answer.
  if (mentions.length === 0 && !namesLetter(line, options)) return [];
  // Someone else's figures ("Starmer 35% (market: 40%)") are set aside before the own ones
  // are matched to the names.
  const stated = figuresIn(line, mentions, percentOnly);
  const figures = stated.filter((figure) => !names.isAttributed(figure));
  // Bare figures beside someone else's are counts and results ("13 seats, … polls within 2").
  if (!percentOnly && figures.length < stated.length) return [];
  if (figures.length === 0) return [];
  let sharedName = false;
  const spans = clauses(line);
  const mentionsBySpan = bySpan(mentions, spans);
  const figuresBySpan = bySpan(figures, spans);
  for (let position = 0; position < spans.length; position++) {
    const clause = spans[position] as Clause;
    // "the rest of the field" is found as "the rest" and "the field": one option named twice.
    const named = (mentionsBySpan[position] ?? []).filter(
      (mention, index, all) => mention.letter !== all[index - 1]?.letter,
    );
    const stated = figuresBySpan[position] ?? [];
    const only = stated[0];
    const shared = sharedName;
    sharedName = clause.joinsNext && named.length > 0 && only === undefined;
    if (only === undefined) continue;
    if (shared) {
      entries.push(...stated.map((raw) => ({ letter: UNPLACED, raw })));
    } else if (named.length === stated.length) {
      stated.forEach((raw, index) => {
        entries.push({ letter: named[index]?.letter ?? UNPLACED, raw });
      });
    } else if (named.length === 0 && stated.length === 1) {
      const text = line.slice(clause.start, clause.end);
      const local = Object.assign({}, only, {
        start: only.start - clause.start,
        end: only.end - clause.start,
      });
      entries.push({ letter: shortenedName(text, local, options, reply), raw: only });
    } else {
      entries.push(...stated.map((raw) => ({ letter: UNPLACED, raw })));
    }
  }
  const placed = entries.filter((entry) => entry.letter !== UNPLACED);
  if (!percentOnly && (placed.length < 2 || placed.length < entries.length)) return [];
  return entries;
}
