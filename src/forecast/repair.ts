import { answerJsonSchema } from "./answer-schema.js";
import { answerShape } from "./shapes.js";
import type { AnswerType, OptionMap } from "./types.js";

/** A follow-up asking for the final answer alone, after a reply whose answer could not be read. */
export function repairPrompt(type: AnswerType, options: OptionMap | null): string {
  const shape = answerShape(type, options);
  return [
    "Your final answer could not be read. Restate only your final answer, with no reasoning, exactly in this form:",
    shape.example,
    shape.meaning,
  ].join("\n");
}

/** The repair follow-up when the model server holds the reply to the answer's JSON Schema. */
export function structuredRepairPrompt(type: AnswerType, options: OptionMap | null): string {
  const shape = answerShape(type, options);
  return [
    "Your final answer could not be read. Restate only your final answer as a JSON object following this schema, with nothing else:",
    JSON.stringify(answerJsonSchema(type, options)),
    shape.meaning.replace(/^where /, "In it, "),
  ].join("\n");
}
