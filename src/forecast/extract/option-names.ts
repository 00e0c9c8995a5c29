import type { OptionMap } from "../types.js";
import { runKey, scanNames, WordIds } from "./name-scan.js";

/** An alias shared by several options: naming it does not say which one is meant. */
export const AMBIGUOUS = "?";

// Words too common to name an option on their own ("4 or more" must not answer to "more").
const STOP_WORDS = new Set(
  "the and or more less than other others none yes no before after above below under over between not any all of in on at by for to".split(
    " ",
  ),
);
const MIN_ALIAS_LENGTH = 3;

/** One UTF-16 unit per input unit, so indices into the folded text still point at the original. */
export function foldAccents(text: string): string {
  return text.replace(/[\u0080-\uffff]/g, (char) => {
    const base = char.normalize("NFD").replace(/\p{M}/gu, "");
    return base.length === 1 ? base : char;
  });
}

/** Lowercase words without accents, so "Xóchitl Gálvez" and "xochitl galvez" compare equal. */
export function normalizeName(text: string): string {
  return foldAccents(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

function nameWord(word: string): boolean {
  return word.length >= MIN_ALIAS_LENGTH && /\p{L}/u.test(word) && !STOP_WORDS.has(word);
}

// Shorter names are runs of at most this many words: enough for "Reform UK" in "Reform UK
// Party of Britain", and it keeps the aliases of a long option text linear in its length.
const MAX_ALIAS_WORDS = 4;

/**
 * Shorter names a model may use for an option: runs of its words that start and end with a
 * real name word ("Starmer" for "Keir Starmer", "Google" for "Google DeepMind"), and plurals.
 */
function partialAliases(words: string[]): string[] {
  const aliases: string[] = [];
  for (let start = 0; start < words.length; start++) {
    const longest = Math.min(words.length, start + MAX_ALIAS_WORDS);
    for (let end = start + 1; end <= longest; end++) {
      const first = words[start] ?? "";
      const last = words[end - 1] ?? "";
      // A surname with its particle ("Le Pen", "van der Berg") starts with a short word.
      const particle = end === words.length && first.length >= 2 && !STOP_WORDS.has(first);
      if ((nameWord(first) || particle) && nameWord(last)) {
        aliases.push(words.slice(start, end).join(" "));
      }
    }
  }
  return aliases;
}

// Names every reader knows that share no word with the option's own: "GOP", "Dems".
const NICKNAMES: [RegExp, string[]][] = [
  [/\brepublicans?\b/, ["gop", "republicans", "republican", "the gop"]],
  [/\bdemocrat(?:ic|s)?\b/, ["dems", "democrats", "democrat", "democratic"]],
  [/\bconservatives?\b/, ["tories", "tory", "conservatives"]],
  [/\bliberal democrats?\b/, ["lib dems", "lib dem", "libdems"]],
];

// An option for "everything not listed" and the phrases that name it.
const CATCH_ALL =
  /^(?:other|others|someone else|somebody else|anyone else|another \p{L}+|none of (?:the )?above|the field|field|other \p{L}+|all others|any other \p{L}+)$/u;
const CATCH_ALL_NAMES = [
  "other",
  "others",
  "someone else",
  "somebody else",
  "anyone else",
  "everyone else",
  "everybody else",
  "the field",
  "field",
  "rest of the field",
  "the rest",
  "all others",
  "any other",
  "another",
  "none of the above",
];

/** "PSG" for "Paris Saint-Germain", "LD" for "Liberal Democrats": the initials of a name. */
function initials(words: string[]): string[] {
  const named = words.filter((word) => /\p{L}/u.test(word) && !STOP_WORDS.has(word));
  return named.length >= 2 ? [named.map((word) => word[0]).join("")] : [];
}

// An option text that starts with a range or an open-ended count: "0–1 landfalls", "2 to 3
// hikes", "4 or more landfalls", "10+ seats". A reply labels such options by the figures alone.
const RANGE_HEAD = /^\s*(\d+(?:\.\d+)?)\s*(?:[-–—]|to)\s*(\d+(?:\.\d+)?)(?!\s*%|[\d.])/;
const OPEN_HEAD =
  /^\s*(\d+(?:\.\d+)?)\s*(?:\+|plus\b|or (?:more|higher|above|over|fewer|less|lower|below)\b)/;

/** "0 1" and "0 to 1" for "0–1 landfalls" (written "0-1", "0 to 1"), "4 or more" for "4+ seats". */
function rangeLabels(text: string): string[] {
  const range = RANGE_HEAD.exec(text);
  if (range !== null) {
    return [normalizeName(`${range[1]} ${range[2]}`), normalizeName(`${range[1]} to ${range[2]}`)];
  }
  const open = OPEN_HEAD.exec(text);
  if (open === null) return [];
  const plus = /\+|plus/.test(open[0]);
  return [normalizeName(open[0]), ...(plus ? [normalizeName(`${open[1]} or more`)] : [])];
}

// A count alone names an option as a label ("0: 35%" for "0 hikes", "4+: 22%" for "4 or more
// landfalls"), never in prose, where a bare figure is far more often something else.
const COUNT_HEAD = /^\s*(\d+)(?:\s*\+|\s+\p{L})/u;

// A bound written in words or symbols, in one form for both: "Fewer than 10" and "<10" are
// "under 10"; "20 or more", "20+" and "≥20" are "at least 20"; "Above 2.00%" and ">2%" "over 2".
const BOUNDS: [RegExp, string][] = [
  [/^\s*(?:<=|≤|at most|up to|no more than)\s*(\d+(?:\.\d+)?)/i, "at most"],
  [/^\s*(?:<|fewer than|less than|under|below)\s*(\d+(?:\.\d+)?)/i, "under"],
  [/^\s*(?:>=|≥|at least)\s*(\d+(?:\.\d+)?)/i, "at least"],
  [/^\s*(?:>|more than|greater than|over|above)\s*(\d+(?:\.\d+)?)/i, "over"],
  [/^\s*(\d+(?:\.\d+)?)\s*(?:\+|plus\b|or (?:more|higher|above|over)\b)/i, "at least"],
  [/^\s*(\d+(?:\.\d+)?)\s*or (?:fewer|less|lower|below)\b/i, "at most"],
];

/**
 * The bound a label or option text starts with, as "under 10", "at least 20", or null; with
 * `whole`, only when nothing but a percent sign follows it ("Under 1%", not "4+: 20%, 0-1").
 */
export function boundOf(text: string, whole = false): string | null {
  for (const [pattern, bound] of BOUNDS) {
    const match = pattern.exec(text);
    const figure = match?.[1];
    if (match === null || figure === undefined) continue;
    if (whole && !/^\s*%?\s*$/.test(text.slice(match[0].length))) return null;
    return `${bound} ${String(Number(figure)).replace(".", " ")}`;
  }
  return null;
}

function aliasesOf(text: string, full: string): string[] {
  const words = full.split(" ");
  const aliases = [...partialAliases(words), ...initials(words), ...rangeLabels(text)];
  if (/\p{L}$/u.test(full)) aliases.push(`${full}s`);
  for (const [pattern, names] of NICKNAMES) if (pattern.test(full)) aliases.push(...names);
  if (CATCH_ALL.test(full)) aliases.push(...CATCH_ALL_NAMES);
  return aliases;
}

/** A name found in a text: the option it names (or AMBIGUOUS) and where it stands. */
export interface Mention {
  letter: string | undefined;
  start: number;
  end: number;
}

export interface OptionNames {
  /** The letter an exact or partial name stands for, AMBIGUOUS, or undefined. */
  lookup: (normalized: string) => string | undefined;
  /** As `lookup`, also taking a label that is an option's count alone ("0" for "0 hikes"). */
  lookupLabel: (normalized: string) => string | undefined;
  /** Every name in `text`, left to right, the longest at each place; in linear time. */
  mentions: (text: string) => Mention[];
  /** Each option's normalized text, by letter. */
  normalized: [string, string][];
  /** The most words any option's name has. */
  maxWords: number;
  /** Whether an option's text holds a figure, so a line of figures alone may name it. */
  namedByFigures: boolean;
}

function buildNames(options: OptionMap): OptionNames {
  const exact = new Map<string, string>();
  const partial = new Map<string, string>();
  const labelOnly = new Map<string, string>();
  const add = (names: Map<string, string>, alias: string, letter: string) => {
    const owner = names.get(alias);
    names.set(alias, owner === undefined || owner === letter ? letter : AMBIGUOUS);
  };
  for (const [letter, text] of Object.entries(options)) {
    const full = normalizeName(text);
    if (full === "") continue;
    exact.set(full, exact.has(full) ? AMBIGUOUS : letter);
    for (const alias of aliasesOf(text, full)) add(partial, alias, letter);
    const count = COUNT_HEAD.exec(text)?.[1];
    if (count !== undefined) add(labelOnly, count, letter);
    const bound = boundOf(text);
    if (bound !== null) add(labelOnly, bound, letter);
  }
  const lookup = (normalized: string): string | undefined =>
    exact.get(normalized) ?? partial.get(normalized);
  const lookupLabel = (normalized: string): string | undefined =>
    lookup(normalized) ?? labelOnly.get(normalized);
  const ids = new WordIds();
  const byKey = new Map<number, string | undefined>();
  const lengths = new Set<number>();
  for (const alias of new Set([...exact.keys(), ...partial.keys()])) {
    const words = alias.split(" ");
    byKey.set(runKey(words.map((word) => ids.idOf(word))), lookup(alias));
    lengths.add(words.length);
  }
  const keys = new Set(byKey.keys());
  const longestFirst = [...lengths].sort((a, b) => b - a);
  const mentions = (text: string): Mention[] =>
    scanNames(foldAccents(text), ids, keys, longestFirst).map((match) => ({
      letter: byKey.get(match.key),
      start: match.start,
      end: match.end,
    }));
  const normalized = Object.entries(options).map(([letter, text]): [string, string] => [
    letter,
    normalizeName(text),
  ]);
  const maxWords = Math.max(0, ...normalized.map(([, name]) => name.split(" ").length));
  const namedByFigures = Object.values(options).some((text) => /\p{N}/u.test(text));
  return { lookup, lookupLabel, mentions, normalized, maxWords, namedByFigures };
}

const cache = new WeakMap<OptionMap, OptionNames>();

/** The names of `options`, built once per option map. */
export function optionNames(options: OptionMap): OptionNames {
  const cached = cache.get(options);
  if (cached !== undefined) return cached;
  const built = buildNames(options);
  cache.set(options, built);
  return built;
}
