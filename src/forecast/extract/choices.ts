import { withDecimalPoints } from "../numbers.js";
import type { ForecastAnswer, OptionMap } from "../types.js";
import { UNPLACED } from "./choice-distributions.js";
import { choiceLines } from "./choice-lines.js";
import { findJsonObjects, type JsonObject, withNested } from "./json-objects.js";
import { letterForLabel } from "./option-labels.js";
import { AMBIGUOUS } from "./option-names.js";
import { mapOutcome, type Outcome, resolveTiers } from "./outcome.js";
import { plainText } from "./reply-text.js";
import { twoSidedChoice } from "./two-sided.js";
import { type ChoiceEntry, rawNumberFrom, toChoiceProbabilities } from "./validate.js";

function entriesIn(object: JsonObject, options: OptionMap | null): ChoiceEntry[] {
  const entries: ChoiceEntry[] = [];
  for (const [key, inner] of Object.entries(object)) {
    const letter = letterForLabel(key, options);
    const raw = rawNumberFrom(inner);
    if (letter !== null && raw !== null) entries.push({ letter, raw });
  }
  return entries;
}

/** A name that fits several options makes the whole statement unreadable, not a partial one. */
function validated(
  entries: ChoiceEntry[],
  options: OptionMap | null,
): Record<string, number> | null {
  return entries.some((entry) => entry.letter === AMBIGUOUS)
    ? null
    : toChoiceProbabilities(entries, options);
}

/**
 * Objects keyed by options: {"A": 0.2}, {"Option A": "20%"}, {"Red": 20}, looking into nested
 * objects ({"probabilities": {…}}) when the outer has no option keys.
 */
function jsonChoices(text: string, options: OptionMap | null): ChoiceEntry[][] {
  return findJsonObjects(text).flatMap((object) => {
    const entries = withNested(object)
      .map((inner) => entriesIn(inner, options))
      .find((found) => found.length > 0);
    return entries === undefined ? [] : [entries];
  });
}

/** Two options' probabilities stated for one side: "60/40 in favour of the Democrats". */
function oneSideEntries(text: string, options: OptionMap | null): ChoiceEntry[][] {
  const split = twoSidedChoice(text, options);
  if (split === null) return [];
  return [
    Object.entries(split).map(([letter, value]) => ({ letter, raw: { value, percent: false } })),
  ];
}

/**
 * Option probabilities from the most explicit statement in `text`. `underUnreadHeading`: the
 * text is the end of a longer reply, and its first lines may be under a heading left unread.
 */
export function extractChoices(
  text: string,
  options: OptionMap | null,
  underUnreadHeading = false,
): Outcome<ForecastAnswer> {
  const plain = withDecimalPoints(plainText(text));
  const outcome = resolveTiers<ChoiceEntry[], Record<string, number>>(
    [
      { rule: "json", decisive: true, find: () => jsonChoices(plain, options) },
      {
        rule: "option_lines",
        decisive: true,
        find: () => {
          const entries = choiceLines(plain, options, underUnreadHeading);
          // Figures placed by no one option ("the president's party sits at 43%"), or by
          // one option only, leave the reply to the statement of one side of two, if any.
          const placed = new Set(
            entries
              .map((entry) => entry.letter)
              .filter((letter) => letter !== UNPLACED && letter !== AMBIGUOUS),
          );
          if (placed.size <= 1 && twoSidedChoice(plain, options) !== null) return [];
          return entries.length > 0 ? [entries] : [];
        },
      },
      { rule: "one_side", decisive: true, find: () => oneSideEntries(plain, options) },
    ],
    (entries) => validated(entries, options),
  );
  return mapOutcome(outcome, (probabilities) => ({ type: "multiple_choice", probabilities }));
}
