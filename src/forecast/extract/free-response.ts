import type { ForecastAnswer } from "../types.js";
import {
  markedAnswer,
  unwrapAnswer,
  withoutClosingStop,
  withoutReason,
} from "./free-response-marks.js";
import type { Outcome } from "./outcome.js";
import { withoutAnswerTagMarks } from "./reply-text.js";

const MAX_FREE_RESPONSE_LENGTH = 2000;

// "either Spain or France": the model names two answers and commits to neither.
const UNDECIDED = /^either\b[^\n]*\bor\b/i;

function asAnswer(text: string, marked: boolean): Outcome<ForecastAnswer> {
  const unwrapped = unwrapAnswer(text.trim().slice(0, MAX_FREE_RESPONSE_LENGTH));
  const answer = marked ? withoutClosingStop(unwrapAnswer(withoutReason(unwrapped))) : unwrapped;
  if (answer === "" || UNDECIDED.test(answer)) return { kind: "none" };
  return { kind: "found", answer: { type: "free_response", text: answer } };
}

/** The text of an answer tag, or the answer marked inside it. */
export function freeResponseFromTag(content: string): Outcome<ForecastAnswer> {
  const marked = markedAnswer(content);
  return marked === null ? asAnswer(content, false) : asAnswer(marked, true);
}

/**
 * The last explicitly marked answer; failing that the reply's last paragraph, where an
 * unmarked answer ends up. A marked answer beats the last paragraph, which often lists
 * runners-up.
 */
export function freeResponseFromReply(text: string): Outcome<ForecastAnswer> {
  const unmarked = withoutAnswerTagMarks(text);
  const marked = markedAnswer(unmarked);
  if (marked !== null) return asAnswer(marked, true);
  const paragraphs = unmarked
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== "");
  const last = paragraphs.at(-1);
  return last === undefined ? { kind: "none" } : asAnswer(last, false);
}
