import type { OptionMap } from "../types.js";
import { AMBIGUOUS, boundOf, normalizeName, optionNames } from "./option-names.js";

const LETTERED = /^(?:(?:option|choice)\s*)?\(?([a-z])\)?(?:[.):\]]\s*.*|\s+\(.*)?$/i;

const MIN_ABBREVIATION = 3;

/** Whether each word starts a word of a run in `name`, in order: "lib dems", "liberal democrats". */
function abbreviates(words: string[], name: string[]): boolean {
  const stems = words.map((word) =>
    word.length > MIN_ABBREVIATION ? word.replace(/s$/, "") : word,
  );
  if (stems.some((stem) => stem.length < MIN_ABBREVIATION)) return false;
  for (let start = 0; start + stems.length <= name.length; start++) {
    if (stems.every((stem, offset) => name[start + offset]?.startsWith(stem) === true)) return true;
  }
  return false;
}

/** The option a label names by text, AMBIGUOUS when it fits several equally, or null. */
function letterForName(wanted: string, options: OptionMap): string | null {
  const names = optionNames(options);
  const words = wanted.split(" ");
  // "Red (Labour)" names Red: the longest leading run of words that is a name decides.
  for (let count = Math.min(words.length, names.maxWords); count > 0; count--) {
    const letter = names.lookupLabel(words.slice(0, count).join(" "));
    if (letter !== undefined) return letter;
  }
  if (wanted.length < 3) return null;
  // A truncated name ("Liberal Dem" for "Liberal Democrat") or abbreviated words ("Lib Dems").
  const owners = names.normalized
    .filter(([, name]) => name.startsWith(wanted) || abbreviates(words, name.split(" ")))
    .map(([letter]) => letter);
  if (owners.length > 1) return AMBIGUOUS;
  return owners[0] ?? null;
}

/**
 * The option letter a label names: "A", "Option_A", "option a", "A) Red", or, when the options
 * are known, the option's text ("Red", "Red (Labour)", "Lopez" for "Ana López"). AMBIGUOUS when
 * the text fits several options equally.
 */
export function letterForLabel(label: string, options: OptionMap | null): string | null {
  const cleaned = label
    .replace(/[*`"'“”‘’]/g, "")
    .replace(/_/g, " ")
    .replace(/[\s:=|–—-]+$/, "")
    .trim();
  const written = LETTERED.exec(cleaned)?.[1]?.toUpperCase();
  if (written !== undefined && (options === null || written in options)) return written;
  if (options === null) return null;
  // "<10" for "Fewer than 10", "≥20" for "20 or more".
  const bound = boundOf(cleaned);
  const bounded = bound === null ? undefined : optionNames(options).lookupLabel(bound);
  if (bounded !== undefined) return bounded;
  const wanted = normalizeName(cleaned);
  if (wanted === "") return null;
  // "The Democratic Party: 50%" names "Democratic Party".
  const letter = letterForName(wanted, options);
  return letter === null && wanted.startsWith("the ")
    ? letterForName(wanted.slice("the ".length), options)
    : letter;
}
