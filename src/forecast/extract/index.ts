import type { AnswerType, ForecastAnswer, OptionMap } from "../types.js";
import { extractBinary } from "./binary.js";
import { extractChoices } from "./choices.js";
import { extractContinuous } from "./continuous.js";
import { freeResponseFromReply, freeResponseFromTag } from "./free-response.js";
import type { Outcome } from "./outcome.js";
import { inQuestionUnit, questionScale } from "./question-scale.js";
import { lastAnswerTag, withoutThinking } from "./reply-text.js";
import { extractSingleValue } from "./single-value.js";

function extractFrom(
  type: AnswerType,
  text: string,
  options: OptionMap | null,
  fromTag: boolean,
): Outcome<ForecastAnswer> {
  switch (type) {
    case "binary":
      return extractBinary(text);
    case "multiple_choice":
      return extractChoices(text, options);
    case "continuous":
      return extractContinuous(text);
    case "continuous_value_only":
      return extractSingleValue(text);
    case "free_response":
      return fromTag ? freeResponseFromTag(text) : freeResponseFromReply(text);
  }
}

/**
 * The structured answer of a model's reply, or null when it states none that is valid.
 * The last answer tag is the most explicit statement and decides when it holds a figure; a tag
 * holding only words leaves the decision to the rest of the reply. Given the question, figures
 * of a quantity are read in the unit it asks for ("in billions of dollars").
 */
export function extractAnswer(
  type: AnswerType,
  reply: string,
  options: OptionMap | null,
  question = "",
): ForecastAnswer | null {
  const scale =
    type === "continuous" || type === "continuous_value_only" ? questionScale(question) : null;
  const thought = withoutThinking(reply);
  const text = scale === null ? thought : inQuestionUnit(thought, scale);
  const tag = lastAnswerTag(text);
  if (tag !== null) {
    const fromTag = extractFrom(type, tag, options, true);
    if (fromTag.kind === "found") return fromTag.answer;
    if (fromTag.kind === "invalid") return null;
  }
  const fromReply = extractFrom(type, text, options, false);
  return fromReply.kind === "found" ? fromReply.answer : null;
}
