import { withoutThinking } from "./extract/reply-text.js";
import type { AnswerType } from "./types.js";

// Long prompts carry background the type does not depend on; the cap bounds the cost.
const MAX_QUESTION_LENGTH = 4000;

const CLASSIFY_INSTRUCTIONS = [
  "You sort forecasting questions by the kind of answer they need.",
  "- binary: a yes/no question, answered with a probability",
  "- multiple_choice: the answer is one of several listed options",
  "- continuous: the answer is a number or quantity (a count, price, rate, date offset…)",
  "- free_response: anything else, answered in words",
  "Reply with exactly one word: binary, multiple_choice, continuous or free_response. You may write it as <type>binary</type>.",
].join("\n");

/** A short prompt asking a model for the answer type of `question`. */
export function classificationMessages(
  question: string,
): { role: "system" | "user"; content: string }[] {
  return [
    { role: "system", content: CLASSIFY_INSTRUCTIONS },
    { role: "user", content: `Question:\n${question.trim().slice(0, MAX_QUESTION_LENGTH)}` },
  ];
}

const TYPE_TAG = /<\s*(?:type|answer)\s*>([\s\S]*?)<\s*\/\s*(?:type|answer)\s*>/gi;
const TYPE_WORD =
  /\b(binary|yes\s*\/\s*no|multiple[\s_-]*choice|continuous[\s_-]+value[\s_-]+only|continuous|numeric|free[\s_-]*response)\b/gi;

const WORD_TYPES: Record<string, AnswerType> = {
  binary: "binary",
  yesno: "binary",
  multiplechoice: "multiple_choice",
  continuous: "continuous",
  numeric: "continuous",
  continuousvalueonly: "continuous_value_only",
  freeresponse: "free_response",
};

function lastTypeWord(text: string): AnswerType | null {
  const word = [...text.matchAll(TYPE_WORD)].at(-1)?.[1];
  return word === undefined
    ? null
    : (WORD_TYPES[word.toLowerCase().replace(/[^a-z]/g, "")] ?? null);
}

/** The answer type a classifying model named: a tag when present, else the last type word. */
export function parseClassification(reply: string): AnswerType | null {
  const text = withoutThinking(reply);
  const tagged = [...text.matchAll(TYPE_TAG)].at(-1)?.[1];
  return (tagged === undefined ? null : lastTypeWord(tagged)) ?? lastTypeWord(text);
}
