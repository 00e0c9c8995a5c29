import type { OptionMap } from "../types.js";

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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function nameWord(word: string): boolean {
  return word.length >= MIN_ALIAS_LENGTH && /\p{L}/u.test(word) && !STOP_WORDS.has(word);
}

/**
 * Shorter names a model may use for an option: runs of its words that start and end with a
 * real name word ("Starmer" for "Keir Starmer", "Google" for "Google DeepMind"), and plurals.
 */
function partialAliases(words: string[]): string[] {
  const aliases: string[] = [];
  for (let start = 0; start < words.length; start++) {
    for (let end = start + 1; end <= words.length; end++) {
      const first = words[start] ?? "";
      const last = words[end - 1] ?? "";
      // A surname with its particle ("Le Pen", "van der Berg") starts with a short word.
      const particle = end === words.length && first.length >= 2 && !STOP_WORDS.has(first);
      if ((nameWord(first) || particle) && nameWord(last)) {
        aliases.push(words.slice(start, end).join(" "));
      }
    }
  }
  const full = words.join(" ");
  return /\p{L}$/u.test(full) ? [...aliases, `${full}s`] : aliases;
}

export interface OptionNames {
  /** The letter an exact or partial name stands for, AMBIGUOUS, or undefined. */
  lookup: (normalized: string) => string | undefined;
  /** Every alias, longest first, at word boundaries; accents must be folded from the text. */
  pattern: RegExp | null;
  /** Each option's normalized text, by letter. */
  normalized: [string, string][];
  /** The most words any option's name has. */
  maxWords: number;
}

function buildNames(options: OptionMap): OptionNames {
  const exact = new Map<string, string>();
  const partial = new Map<string, string>();
  for (const [letter, text] of Object.entries(options)) {
    const full = normalizeName(text);
    if (full === "") continue;
    exact.set(full, exact.has(full) ? AMBIGUOUS : letter);
    for (const alias of partialAliases(full.split(" "))) {
      const owner = partial.get(alias);
      partial.set(alias, owner === undefined || owner === letter ? letter : AMBIGUOUS);
    }
  }
  const lookup = (normalized: string): string | undefined =>
    exact.get(normalized) ?? partial.get(normalized);
  const aliases = [...new Set([...exact.keys(), ...partial.keys()])].sort(
    (a, b) => b.length - a.length,
  );
  const source = aliases
    .map((alias) => alias.split(" ").map(escapeRegExp).join(String.raw`[^\p{L}\p{N}\n]{1,3}`))
    .join("|");
  const pattern =
    source === ""
      ? null
      : new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${source})(?![\p{L}\p{N}])`, "giu");
  const normalized = Object.entries(options).map(([letter, text]): [string, string] => [
    letter,
    normalizeName(text),
  ]);
  const maxWords = Math.max(0, ...normalized.map(([, name]) => name.split(" ").length));
  return { lookup, pattern, normalized, maxWords };
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
