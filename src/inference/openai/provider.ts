import type {
  InferenceProvider,
  InferenceRequest,
  InferenceResult,
  StreamEvent,
} from "../provider.js";
import { abortedError } from "./failures.js";
import { DEFAULT_RETRY, DEFAULT_TIMEOUTS, type OpenAIProviderOptions } from "./options.js";
import { replyFormat } from "./reply-format.js";
import { parseCompletionText, readCompletion } from "./response.js";
import { resultEvents } from "./result-events.js";
import { sendWithRetries } from "./retry.js";
import { streamEvents } from "./stream-events.js";
import { Transport } from "./transport.js";

export type OpenAIProvider = InferenceProvider & { close(): Promise<void> };

/** A provider for any OpenAI-compatible model server (vLLM, SGLang, llama.cpp, Ollama, APIs). */
export function createOpenAIProvider(options: OpenAIProviderOptions): OpenAIProvider {
  if (options.deployments.length === 0) throw new Error("at least one deployment is required");
  const transport = new Transport({ ...DEFAULT_TIMEOUTS, ...options.timeouts });
  const policy = { ...DEFAULT_RETRY, ...options.retry };
  const targets = options.deployments.map((deployment) => transport.target(deployment));

  return {
    async complete(request: InferenceRequest): Promise<InferenceResult> {
      const text = await sendWithRetries(targets, policy, request.signal, (target) =>
        transport.attemptWhole(target, request),
      );
      return parseCompletionText(text, request.input.kind);
    },

    async stream(request: InferenceRequest): Promise<AsyncIterable<StreamEvent>> {
      const response = await sendWithRetries(targets, policy, request.signal, (target) =>
        transport.attempt(target, request, true),
      );
      if (request.signal?.aborted) {
        response.body.destroy();
        throw abortedError();
      }
      // Some servers and gateways ignore `stream` (or report errors) with a plain JSON body.
      if (replyFormat(response.headers["content-type"]) === "json") {
        return resultEvents(await readCompletion(response, request));
      }
      return streamEvents(response.body, request.input.kind, request.signal);
    },

    close: () => transport.close(),
  };
}
