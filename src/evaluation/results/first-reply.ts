import { answerSuffix, requestForecast } from "../../completions/forecast-step.js";
import type { EvalItem } from "../types.js";

/** How a reply's answer was had: read from the model's own words, after a re-ask, or not at all. */
export type ReplyReading = "first_reply" | "re_asked" | "unread";

/** The answer tags Sibyl appends to a chat reply: the reply's last `<answer>…</answer>`. */
const APPENDED_TAG = /\s*<answer>(?:(?!<answer>)[\s\S])*<\/answer>\s*$/;

/**
 * Tells a forecast read from the model's first reply from one the endpoint had to ask for again:
 * the reply without the tags the endpoint appended is read by the same reader the endpoint uses.
 * A reply that gives no answer of its own (a refusal, "I cannot say.") is never a first-reply read.
 */
export function replyReading(item: EvalItem, content: string, parsed: boolean): ReplyReading {
  if (!parsed) return "unread";
  const request = requestForecast(item.answerType, item.prompt, false);
  if (request === null || request.requested === "auto") return "first_reply";
  const ownWords = content.replace(APPENDED_TAG, "");
  const plan = {
    type: request.requested,
    options: request.options,
    question: request.question,
    classified: false,
    withOptionsTag: false,
  };
  return answerSuffix(plan, ownWords) === null ? "re_asked" : "first_reply";
}
