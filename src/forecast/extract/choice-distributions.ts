import type { OptionMap } from "../types.js";
import { AMBIGUOUS } from "./option-names.js";
import type { ChoiceEntry } from "./validate.js";

/**
 * The letter of a "Label: 20%" line whose label names no option. In a list that leaves an
 * option out it may be that option under another name, so the list is not read at all.
 */
export const UNPLACED = "*";

/** Answer lines of one kind: labelled lines, or names with figures in sentences. */
export interface Block {
  entries: ChoiceEntry[];
  prose: boolean;
}

/**
 * Blocks joined into distributions: a block of labelled lines joins the one before it while it
 * names other options (reasoning between lines); an option named again, a sentence, or a list
 * after a sentence starts a new distribution.
 */
export function distributions(blocks: Block[]): Map<string, ChoiceEntry>[] {
  const found: Map<string, ChoiceEntry>[] = [];
  let current = new Map<string, ChoiceEntry>();
  let prose: boolean | null = null;
  const split = (): void => {
    if (current.size > 0) found.push(current);
    current = new Map();
  };
  const repeats = (entry: ChoiceEntry): boolean =>
    entry.letter !== UNPLACED && current.has(entry.letter);
  for (const block of blocks) {
    if (block.prose || block.prose !== prose || block.entries.some(repeats)) split();
    prose = block.prose;
    for (const entry of block.entries) {
      if (repeats(entry)) split();
      current.set(entry.letter, entry);
    }
  }
  split();
  return found;
}

function fraction(entry: ChoiceEntry, percent: boolean): number {
  return entry.raw.percent || percent ? entry.raw.value / 100 : entry.raw.value;
}

/** Covers every option, or adds up to a whole (an option left out is then 0). */
export function isComplete(
  distribution: Map<string, ChoiceEntry>,
  options: OptionMap | null,
): boolean {
  if (options !== null && Object.keys(options).every((letter) => distribution.has(letter))) {
    return true;
  }
  const entries = [...distribution.values()].filter((entry) => entry.letter !== UNPLACED);
  const percent = entries.some((entry) => !entry.raw.percent && entry.raw.value > 1);
  const total = entries.reduce((sum, entry) => sum + fraction(entry, percent), 0);
  return entries.length >= 2 && Math.abs(total - 1) <= 0.02;
}

/**
 * After a line announcing the final answer, its first complete distribution (else its first);
 * otherwise the last complete one, so a later passing mention ("the market has Red at 60%")
 * does not replace it. A name that fits several options, or an unplaced label beside a list
 * that leaves an option out, becomes an AMBIGUOUS entry so the answer fails to validate.
 */
export function chooseDistribution(
  afterMarker: Map<string, ChoiceEntry>[],
  all: Map<string, ChoiceEntry>[],
  options: OptionMap | null,
): ChoiceEntry[] {
  const chosen =
    afterMarker.find((distribution) => isComplete(distribution, options)) ??
    afterMarker[0] ??
    all.findLast((distribution) => isComplete(distribution, options)) ??
    all.at(-1) ??
    new Map<string, ChoiceEntry>();
  const unplaced = chosen.get(UNPLACED);
  const placed = [...chosen.values()].filter((entry) => entry.letter !== UNPLACED);
  const leftOut = options !== null && Object.keys(options).some((letter) => !chosen.has(letter));
  return unplaced !== undefined && leftOut
    ? [...placed, { letter: AMBIGUOUS, raw: unplaced.raw }]
    : placed;
}
