import { invalidRequest } from "../errors.js";
import type { ChatMessage } from "../inference/provider.js";
import { countMessageTokens } from "../inference/tokens.js";
import { NAIVE_DATE_TIME } from "./schema.js";

/** The as-of moment of a request: `prediction_date`, or now. */
export function resolveAsOf(predictionDate: string | null | undefined, nowMs: number): Date {
  if (!predictionDate) return new Date(nowMs);
  const parsed = new Date(asUtc(predictionDate));
  if (Number.isNaN(parsed.getTime())) {
    throw invalidRequest(
      `prediction_date is not a valid ISO 8601 date-time: ${predictionDate}`,
      "invalid_prediction_date",
      "prediction_date",
    );
  }
  return parsed;
}

/** A date alone is midnight UTC; a date-time without a zone is read as UTC, not server time. */
function asUtc(text: string): string {
  if (text.length === 10) return `${text}T00:00:00Z`;
  return new RegExp(NAIVE_DATE_TIME).test(text) ? `${text}Z` : text;
}

/** Built once: `toLocaleDateString` builds a formatter per call (~0.06 ms on every request). */
const WEEKDAY = new Intl.DateTimeFormat("en-US", { weekday: "long", timeZone: "UTC" });

/** A system message of the model's input, with its tokens counted once. */
export interface CountedMessage {
  message: ChatMessage;
  tokens: number;
}

const MS_PER_DAY = 86_400_000;

/**
 * The last day's line, by its day number since the epoch (UTC): nearly every request asks for
 * today's, and formatting it and counting its tokens are not free (counting it took ~5 µs of
 * every chat request).
 */
let last: { day: number; line: CountedMessage } | null = null;

/** The system line that tells the model which day it is. */
export function asOfInstruction(asOf: Date): CountedMessage {
  const day = Math.floor(asOf.getTime() / MS_PER_DAY);
  if (last?.day !== day) {
    const weekday = WEEKDAY.format(asOf);
    const date = asOf.toISOString().slice(0, 10);
    const content = `Today's date is ${weekday}, ${date} (UTC). Treat this as the current date: you know nothing that happened after it.`;
    // Frozen: this one object goes into every request's input until the day changes.
    const message: ChatMessage = Object.freeze({ role: "system", content });
    last = { day, line: { message, tokens: countMessageTokens(message) } };
  }
  return last.line;
}
