import { keepingLast } from "../last-reading.js";
import { type NumberToken, readNumberAt, scaleOfWord } from "../numbers.js";
import { matchesOf } from "./matches.js";
import type { QuantityLabel } from "./quantity-labels.js";

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
  for (const match of matchesOf(text, label)) {
    const figure = read(text, match.index + match[0].length);
    if (figure !== null) {
      found.push({ figure, index: match.index, strong: /[:=]\s*$/.test(match[0]) });
    }
  }
  return found;
}

// "Final estimate: 150k–170k": a label followed by a range states the range, not its low end.
const SCALE_WORD = /(?:k|m|mn|bn|tn|b|t|thousand|million|billion|trillion)$/i;
const RANGE_DASH = /[ \t]*(?:–|—|-|to)[ \t]*/y;

/** The figure at `index`, or the midpoint of the range written there (a bare range's point). */
function figureOrRangeAt(text: string, index: number): NumberToken | null {
  const low = readNumberAt(text, index);
  if (low === null) return null;
  RANGE_DASH.lastIndex = low.end;
  const dash = RANGE_DASH.exec(text);
  // Read on its own: after "10k-" the upper bound would pass for part of a name ("COVID-19").
  const from = low.end + (dash?.[0].length ?? 0);
  const upper = dash === null ? null : readNumberAt(text.slice(from, from + 40), 0);
  const high =
    upper === null ? null : { ...upper, start: upper.start + from, end: upper.end + from };
  if (high === null || high.percent !== low.percent) return low;
  // "150–170k": the scale written once at the end applies to both bounds.
  const unit = /\d$/.test(text.slice(low.start, low.end))
    ? (scaleOfWord(SCALE_WORD.exec(text.slice(high.start, high.end))?.[0] ?? "") ?? 1)
    : 1;
  const bottom = low.value * unit < high.value ? low.value * unit : low.value;
  if (!(bottom < high.value)) return low;
  return { ...low, value: (bottom + high.value) / 2, bareInteger: false, end: high.end };
}

const keptByLabel = new Map<QuantityLabel, (text: string) => Labelled<NumberToken>[]>();

/**
 * Figures after each `label` in `text`, or the midpoints of ranges written there. Kept for the
 * last text: the readings of one reply ask for the figures of one label several times.
 */
export function labelledNumbers(text: string, label: QuantityLabel): Labelled<NumberToken>[] {
  let read = keptByLabel.get(label);
  if (read === undefined) {
    read = keepingLast((reply: string) =>
      label.written.length > 0 && !label.written.some((written) => written.test(reply))
        ? []
        : labelledFigures(reply, label.pattern, figureOrRangeAt),
    );
    keptByLabel.set(label, read);
  }
  return read(text);
}

// Words just before a label that make its figure a reference point rather than the answer:
// "Initial estimate: 150", "Last year's value: 61".
const REFERENCE_BEFORE =
  /\b(?:initial|preliminary|prior|previous|first[- ]pass|starting|naive|historical|base[- ]rate|last year['’]s)\b[^\n]{0,20}$/i;

/** Labelled figures other than reference points. */
export function ownLabelledNumbers(text: string, label: QuantityLabel): Labelled<NumberToken>[] {
  return labelledNumbers(text, label).filter(
    (entry) => !REFERENCE_BEFORE.test(text.slice(Math.max(0, entry.index - 40), entry.index)),
  );
}

/**
 * The figures worth trusting, in order: those after "label:" when there are any, since prose
 * mentions ("would mean 3 more launches") are written without a colon; only those when
 * `strongOnly`.
 */
export function strongest<T>(found: Labelled<T>[], strongOnly = false): T[] {
  const strong = found.filter((entry) => entry.strong);
  return (strong.length > 0 || strongOnly ? strong : found).map((entry) => entry.figure);
}
