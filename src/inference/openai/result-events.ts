import type { InferenceResult, StreamEvent } from "../provider.js";

/** A whole reply as stream events, for servers that answer a stream request with plain JSON. */
export async function* resultEvents(result: InferenceResult): AsyncGenerator<StreamEvent> {
  for (const choice of result.choices) {
    if (choice.text || choice.thinking) {
      yield {
        type: "delta",
        index: choice.index,
        ...(choice.text ? { text: choice.text } : {}),
        ...(choice.thinking ? { thinking: choice.thinking } : {}),
      };
    }
  }
  for (const choice of result.choices) {
    yield { type: "finish", index: choice.index, finishReason: choice.finishReason };
  }
  if (result.usage) yield { type: "usage", usage: result.usage };
}
