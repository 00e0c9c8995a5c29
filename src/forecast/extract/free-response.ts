import type { ForecastAnswer } from "../types.js";
import type { Outcome } from "./outcome.js";
import { withoutAnswerTagMarks } from "./reply-text.js";

const MAX_FREE_RESPONSE_LENGTH = 2000;

const ANSWER_LEAD = /^(?:\*\*|__)?\s*(?:final\s+answer|answer)\s*:\s*(?:\*\*|__)?\s*/i;

function asAnswer(text: string): Outcome<ForecastAnswer> {
  const trimmed = text.trim().slice(0, MAX_FREE_RESPONSE_LENGTH).trim();
  return trimmed === ""
    ? { kind: "none" }
    : { kind: "found", answer: { type: "free_response", text: trimmed } };
}

/** The text of an answer tag, as written. */
export function freeResponseFromTag(content: string): Outcome<ForecastAnswer> {
  return asAnswer(content);
}

/** The reply's last paragraph, where a written answer ends up, without an "Answer:" lead. */
export function freeResponseFromReply(text: string): Outcome<ForecastAnswer> {
  const paragraphs = withoutAnswerTagMarks(text)
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== "");
  const last = paragraphs.at(-1);
  return last === undefined ? { kind: "none" } : asAnswer(last.replace(ANSWER_LEAD, ""));
}
