import { setImmediate as nextTurn } from "node:timers/promises";
import { UpstreamError } from "../errors.js";
import type {
  ForecastHint,
  InferenceProvider,
  InferenceRequest,
  InferenceResult,
  ProviderChoice,
  StreamEvent,
} from "../provider.js";
import { countChatTokens, countTextTokens } from "../tokens.js";
import { applyLimits } from "./limits.js";
import { questionsOf } from "./questions.js";
import { composeReply } from "./reply.js";

export interface BaselineOptions {
  /** The sentence that states the forecast for a hint, e.g. "Probability: 50%". */
  describeForecast?: (hint: ForecastHint) => string;
}

/**
 * The built-in offline model: a deterministic null forecaster that any real model must beat.
 * It restates the question, says it uses an uninformative prior and, for forecast requests,
 * ends with the forecast sentence.
 */
export function createBaselineProvider(options: BaselineOptions = {}): InferenceProvider {
  const generate = (request: InferenceRequest): InferenceResult => {
    throwIfAborted(request.signal);
    const { params, forecastHint } = request;
    const forecastSentence =
      forecastHint && options.describeForecast ? options.describeForecast(forecastHint) : null;
    const count = Math.max(1, params.n);
    // Choices for prompt p are p*n … p*n+n-1, as OpenAI numbers them.
    const choices: ProviderChoice[] = questionsOf(request.input, forecastHint).flatMap(
      (question, promptIndex) =>
        Array.from({ length: count }, (_, choiceIndex) => {
          const reply = composeReply(
            question,
            { choiceIndex, choiceCount: count, seed: params.seed ?? null },
            forecastSentence,
          );
          const limited = applyLimits(reply, params.stop, params.max_tokens);
          return {
            index: promptIndex * count + choiceIndex,
            text: limited.text,
            thinking: null,
            finishReason: limited.finishReason,
          };
        }),
    );
    return {
      choices,
      usage: {
        promptTokens: promptTokens(request),
        completionTokens: choices.reduce((sum, choice) => sum + countTextTokens(choice.text), 0),
        reasoningTokens: 0,
      },
    };
  };

  return {
    repliesAlike: true,
    async complete(request) {
      return generate(request);
    },
    async stream(request) {
      return streamResult(generate(request), request.signal);
    },
  };
}

async function* streamResult(
  result: InferenceResult,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent> {
  for (const choice of result.choices) {
    for (const word of words(choice.text)) {
      // Yield to the event loop so a cancellation from elsewhere is seen between words.
      await nextTurn();
      throwIfAborted(signal);
      yield { type: "delta", index: choice.index, text: word };
    }
  }
  throwIfAborted(signal);
  for (const choice of result.choices) {
    yield { type: "finish", index: choice.index, finishReason: choice.finishReason };
  }
  if (result.usage) yield { type: "usage", usage: result.usage };
}

/** Word-sized pieces whose concatenation is the text. */
function words(text: string): string[] {
  return text.match(/\s*\S+\s*|\s+/g) ?? [];
}

function promptTokens(request: InferenceRequest): number {
  const { input } = request;
  if (input.kind === "chat") return countChatTokens(input.messages);
  const prompts = typeof input.prompt === "string" ? [input.prompt] : input.prompt;
  return prompts.reduce((sum, prompt) => sum + countTextTokens(prompt), 0);
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new UpstreamError("aborted", "request cancelled by the caller");
}
