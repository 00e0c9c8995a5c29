/**
 * Parsing a JSON body, then walking and validating it, costs time per value: a chat of 100,000
 * tiny messages held the event loop for a quarter of a second, four million numbers for three.
 * Bodies are counted before they are parsed, and a body over budget is refused unparsed. The
 * count visits only what JSON.parse would have to build: strings are skipped whole by a native
 * search (a long prompt costs no step per character).
 */

import { ServiceError } from "../errors.js";

/**
 * The most values a JSON body may hold. A chat message is three (the object, its role and its
 * content), so a chat may have over 16,000 of them; a body at the limit is counted, parsed and
 * checked in a few milliseconds.
 */
export const MAX_JSON_VALUES = 50_000;

/** The 413 of a body over budget. */
export function tooManyValues(): ServiceError {
  return new ServiceError(
    "too_large",
    `Request body holds more than ${MAX_JSON_VALUES.toLocaleString("en-US")} JSON values, or too many characters outside its strings.`,
    { code: "request_too_large" },
  );
}

/* A string's start, and what precedes every array item or member (read outside strings). */
const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACKET = 91;
const OPEN_BRACE = 123;
const COMMA = 44;

/**
 * Characters the count may visit one by one: those outside strings (numbers, whitespace) and the
 * backslashes before each quote inside them (an escaped quote, which pasted JSON holds many of,
 * stops the native search for a string's end). Two million take a few milliseconds; a real
 * request, even pretty-printed, has a small fraction of that.
 */
export const MAX_SCAN_STEPS = 2_000_000;

/** What a search resumed after an escaped quote costs, in steps: a call, not a character. */
const SEARCH_STEPS = 4;

/**
 * Whether `text` holds more than `limit` values (each container once and each separator between
 * its items), or more than `maxSteps` characters to visit one by one.
 */
export function exceedsValueBudget(
  text: string,
  limit: number,
  maxSteps = MAX_SCAN_STEPS,
): boolean {
  // Each value counted is a character of the text: a shorter text fits.
  if (text.length <= limit) return false;
  let values = 0;
  let steps = 0;
  for (let index = 0; index < text.length; index++) {
    if (++steps > maxSteps) return true;
    const code = text.charCodeAt(index);
    if (code === OPEN_BRACKET || code === OPEN_BRACE || code === COMMA) {
      if (++values > limit) return true;
      continue;
    }
    if (code !== QUOTE) continue;
    // Skips the string whole: to its closing quote, one not escaped by an odd backslash run.
    let end = text.indexOf('"', index + 1);
    for (;;) {
      if (end === -1) return false;
      let backslashes = 0;
      while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) {
        backslashes++;
        if (++steps > maxSteps) return true;
      }
      if (backslashes % 2 === 0) break;
      steps += SEARCH_STEPS;
      if (steps > maxSteps) return true;
      end = text.indexOf('"', end + 1);
    }
    index = end;
  }
  return false;
}
