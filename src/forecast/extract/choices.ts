import { withDecimalPoints } from "../numbers.js";
import type { ForecastAnswer, OptionMap } from "../types.js";
import { choiceLines } from "./choice-lines.js";
import { findJsonObjects, type JsonObject, withNested } from "./json-objects.js";
import { letterForLabel } from "./option-labels.js";
import { AMBIGUOUS } from "./option-names.js";
import { mapOutcome, type Outcome, resolveTiers } from "./outcome.js";
import { plainText } from "./reply-text.js";
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

/** Option probabilities from the most explicit statement in `text`. */
export function extractChoices(text: string, options: OptionMap | null): Outcome<ForecastAnswer> {
  const plain = withDecimalPoints(plainText(text));
  const outcome = resolveTiers<ChoiceEntry[], Record<string, number>>(
    [
      { decisive: true, find: () => jsonChoices(plain, options) },
      {
        decisive: true,
        find: () => {
          const entries = choiceLines(plain, options);
          return entries.length > 0 ? [entries] : [];
        },
      },
    ],
    (entries) => validated(entries, options),
  );
  return mapOutcome(outcome, (probabilities) => ({ type: "multiple_choice", probabilities }));
}
