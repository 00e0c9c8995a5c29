import { type NumberToken, readNumberAt } from "../numbers.js";

/** A figure written after a label ("Probability: 62%", "mean 42.5"). */
export interface Labelled<T> {
  figure: T;
  /** Where the label starts, to order figures found by different patterns. */
  index: number;
  /** The label ended with ":" or "=", the way final answers are written. */
  strong: boolean;
}

/** Figures right after each match of `label` (a global pattern ending at its separator). */
function labelledFigures<T>(
  text: string,
  label: RegExp,
  read: (text: string, index: number) => T | null,
): Labelled<T>[] {
  const found: Labelled<T>[] = [];
  for (const match of text.matchAll(label)) {
    const figure = read(text, match.index + match[0].length);
    if (figure !== null) {
      found.push({ figure, index: match.index, strong: /[:=]\s*$/.test(match[0]) });
    }
  }
  return found;
}

export function labelledNumbers(text: string, label: RegExp): Labelled<NumberToken>[] {
  return labelledFigures(text, label, readNumberAt);
}

// Words just before a label that make its figure a reference point rather than the answer:
// "Initial estimate: 150", "Last year's value: 61".
const REFERENCE_BEFORE =
  /\b(?:initial|preliminary|prior|previous|first[- ]pass|starting|naive|historical|base[- ]rate|last year['’]s)\b[^\n]{0,20}$/i;

/** Labelled figures other than reference points. */
export function ownLabelledNumbers(text: string, label: RegExp): Labelled<NumberToken>[] {
  return labelledNumbers(text, label).filter(
    (entry) => !REFERENCE_BEFORE.test(text.slice(Math.max(0, entry.index - 40), entry.index)),
  );
}

/**
 * The figures worth trusting, in order: those after "label:" when there are any, since prose
 * mentions ("would mean 3 more launches") are written without a colon.
 */
export function strongest<T>(found: Labelled<T>[]): T[] {
  const strong = found.filter((entry) => entry.strong);
  return (strong.length > 0 ? strong : found).map((entry) => entry.figure);
}
