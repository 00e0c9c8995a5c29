import type { ForecastHint, InferenceInput } from "../provider.js";

/** What each prompt asks: one entry for a chat, one per prompt for text input. */
export function questionsOf(input: InferenceInput, hint: ForecastHint | undefined): string[] {
  const prompts =
    input.kind === "chat"
      ? [lastUserMessage(input.messages)]
      : typeof input.prompt === "string"
        ? [input.prompt]
        : input.prompt;
  // The hint carries the bare question; the prompt may also hold answer-format guidance.
  return prompts.map((prompt) => hint?.question ?? prompt);
}

function lastUserMessage(messages: { role: string; content: string }[]): string {
  return messages.findLast((message) => message.role === "user")?.content ?? "";
}
