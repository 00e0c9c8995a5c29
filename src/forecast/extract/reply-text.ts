import { keepingLast } from "../last-reading.js";
import { holdsAny, matchesOf } from "./matches.js";

const THINKING_START = /<(?:think|thinking|reasoning)>/i;
const THINKING_END = /<\/(?:think|thinking|reasoning)>/i;
const OPEN_ANSWER_TAG = /<\s*answer\s*>/gi;
const CLOSE_ANSWER_TAG = /<\s*\/\s*answer\s*>/i;
const ANSWER_TAG_MARK = /<\s*\/?\s*answer\s*>/gi;
const MARKDOWN_MARK = /\*\*|__|`/g;
const MARKDOWN_MARKS = ["**", "__", "`"];

/**
 * The reply without the model's reasoning blocks, which hold drafts rather than the answer.
 * Some servers drop the opening `<think>`, so text before a lone closing tag is reasoning too.
 * A reply that is nothing but reasoning is kept whole: a draft answer beats none.
 */
export function withoutThinking(reply: string): string {
  if (!reply.includes("</") || !THINKING_END.test(reply)) return reply;
  const pieces = reply.split(THINKING_END);
  const answered = pieces.map((piece, index) => {
    if (index === pieces.length - 1) return piece;
    const start = piece.search(THINKING_START);
    return start === -1 ? "" : piece.slice(0, start);
  });
  const text = answered.join("");
  return text.trim() === "" ? reply : text;
}

/**
 * The content of the last answer tag: from the last opening tag to the closing tag after it,
 * or to the end of the text when there is none (a `</answer>` stop sequence cuts it off).
 */
export function lastAnswerTag(text: string): string | null {
  if (!text.includes("<")) return null;
  const lastOpen = matchesOf(text, OPEN_ANSWER_TAG).at(-1);
  if (lastOpen === undefined) return null;
  const content = text.slice(lastOpen.index + lastOpen[0].length);
  const closeAt = content.search(CLOSE_ANSWER_TAG);
  return closeAt === -1 ? content : content.slice(0, closeAt);
}

/** The text after the last answer tag closes, or "" when it is not closed. */
export function afterLastAnswerTag(text: string): string {
  const lastOpen = matchesOf(text, OPEN_ANSWER_TAG).at(-1);
  if (lastOpen === undefined) return "";
  const from = lastOpen.index + lastOpen[0].length;
  const closeAt = text.slice(from).search(CLOSE_ANSWER_TAG);
  return closeAt === -1 ? "" : text.slice(from + closeAt).replace(CLOSE_ANSWER_TAG, "");
}

/** `text` with answer tags removed but their content kept. */
export function withoutAnswerTagMarks(text: string): string {
  return text.includes("<") ? text.replace(ANSWER_TAG_MARK, "") : text;
}

/**
 * Markdown emphasis and code marks removed, so "**Probability:** 62%" reads like a plain label.
 * Single asterisks stay: ForecastBench answers are written "*0.62*". Kept for the last text:
 * several readings of one reply ask for it.
 */
export const plainText = keepingLast((text: string): string =>
  holdsAny(text, MARKDOWN_MARKS) ? text.replace(MARKDOWN_MARK, "") : text,
);
