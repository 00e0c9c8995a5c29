import { nearest } from "../util/nearest.js";

/** Inputs longer than this get no suggestion: no allowed value is near them. */
const LONGEST_COMPARED_INPUT = 64;

/**
 * The 422 message for a value outside a list: the allowed values (a list that takes each word in
 * either letter case names it once), and the one a typo most likely meant.
 */
export function enumMessage(allowedValues: readonly unknown[], input: unknown): string {
  const words = allowedValues.filter((value): value is string => typeof value === "string");
  const lower = new Set(words.map((word) => word.toLowerCase()));
  const eitherCase = [...lower].every(
    (word) => words.includes(word) && words.includes(word.toUpperCase()),
  );
  const listed = eitherCase && words.length === allowedValues.length ? [...lower] : allowedValues;
  const message = `Input should be ${listed.map((value) => JSON.stringify(value)).join(" or ")}${eitherCase ? " (either letter case)" : ""}`;
  if (typeof input !== "string" || input.length > LONGEST_COMPARED_INPUT) return message;
  const candidates = eitherCase ? [...lower] : words;
  const [best] = nearest(eitherCase ? input.toLowerCase() : input, candidates);
  return best === undefined ? message : `${message}; did you mean ${JSON.stringify(best)}?`;
}
