import { answerShape } from "./shapes.js";
import type { AnswerType, OptionMap } from "./types.js";

/** The system message that tells a model how to end its reply so the answer can be read back. */
export function guidanceFor(type: AnswerType, options: OptionMap | null): string {
  const shape = answerShape(type, options);
  return [
    "Reason about the question first: weigh the evidence, base rates and what could change the outcome.",
    "Then end your reply with the final answer on its own last line, in exactly this form:",
    shape.example,
    shape.meaning,
    "Write the answer tag once, at the very end, and nothing after it.",
  ].join("\n");
}
