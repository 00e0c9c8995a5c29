/** The finish reasons OpenAI's schema allows on each kind of reply. */
const ALLOWED = {
  chat: new Set(["stop", "length", "tool_calls", "content_filter", "function_call"]),
  text: new Set(["stop", "length", "content_filter"]),
};

/**
 * A model server's finish reason as OpenAI's clients may read it. Servers also say other things
 * (vLLM's `abort`, none at all): the reply ended there, which clients read as `stop`.
 */
export function openAIFinishReason(reason: string | null, kind: "chat" | "text"): string {
  return reason !== null && ALLOWED[kind].has(reason) ? reason : "stop";
}
