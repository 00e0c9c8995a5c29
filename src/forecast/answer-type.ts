import { ANSWER_TYPES, type RequestedAnswerType } from "./types.js";

const REQUESTABLE: readonly string[] = [...ANSWER_TYPES, "auto"];

/** The requested answer type in canonical lowercase ("BINARY" → "binary"), or null if unknown. */
export function parseAnswerType(value: string): RequestedAnswerType | null {
  const lowered = value.toLowerCase();
  return REQUESTABLE.includes(lowered) ? (lowered as RequestedAnswerType) : null;
}
