import { invalidRequest } from "../errors.js";

/** The as-of moment of a request: `prediction_date`, or now. */
export function resolveAsOf(predictionDate: string | null | undefined, nowMs: number): Date {
  if (!predictionDate) return new Date(nowMs);
  const parsed = new Date(
    predictionDate.length === 10 ? `${predictionDate}T00:00:00Z` : predictionDate,
  );
  if (Number.isNaN(parsed.getTime())) {
    throw invalidRequest(
      `prediction_date is not a valid ISO 8601 date-time: ${predictionDate}`,
      "invalid_prediction_date",
      "prediction_date",
    );
  }
  return parsed;
}

/** The system line that tells the model which day it is. */
export function asOfInstruction(asOf: Date): string {
  const day = asOf.toISOString().slice(0, 10);
  const weekday = asOf.toLocaleDateString("en-US", { weekday: "long", timeZone: "UTC" });
  return `Today's date is ${weekday}, ${day} (UTC). Treat this as the current date: you know nothing that happened after it.`;
}
