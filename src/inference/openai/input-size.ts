import type { InferenceInput } from "../provider.js";

/** Characters of text in a request's messages or prompts. */
export function inputCharacters(input: InferenceInput): number {
  let total = 0;
  if (input.kind === "chat") {
    for (const message of input.messages) total += message.content.length;
  } else {
    const prompts = typeof input.prompt === "string" ? [input.prompt] : input.prompt;
    for (const prompt of prompts) total += prompt.length;
  }
  return total;
}
