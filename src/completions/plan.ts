import { usdToNanos } from "../billing/money.js";
import { invalidRequest } from "../errors.js";
import { guidanceFor, questionText } from "../forecast/index.js";
import type {
  ChatMessage,
  InferenceInput,
  InferenceProvider,
  InferenceRequest,
  SamplingParams,
} from "../inference/provider.js";
import { countChatTokens, countPromptListTokens, countPromptTokens } from "../inference/tokens.js";
import type { CatalogueEntry } from "../models/catalogue.js";
import { unixSeconds } from "../util/clock.js";
import { newId } from "../util/ids.js";
import { asOfInstruction, resolveAsOf } from "./as-of-date.js";
import { inferenceCostNanos, scaleCost } from "./cost.js";
import {
  type ForecastPlan,
  type ForecastRequest,
  guidanceMessage,
  possibleAnswerTypes,
  requestForecast,
  resolveForecast,
} from "./forecast-step.js";
import type { PipelineDeps } from "./pipeline-deps.js";
import { REPAIR_INSTRUCTION_TOKENS, REPAIR_MAX_TOKENS } from "./repair-limits.js";
import { assertResearchAvailable, requestedSources } from "./research-request.js";
import { type ChatCompletionBody, type CompletionBody, MAX_CHOICES } from "./schema.js";
import type { CompletionCaller } from "./types.js";

/** Used when neither the request nor the model sets a completion limit. */
const FALLBACK_MAX_COMPLETION_TOKENS = 4096;

/**
 * Everything decided before the credits are held, from the request alone: what to hold, and
 * how to build the model's input once the paid steps before inference (classifying an `auto`
 * question) have run.
 */
export interface CompletionPlan {
  id: string;
  /** Reference of the hold and of the charge in the ledger. */
  billingReference: string;
  /** The reference names work that may be charged once at most (a batch line). */
  chargeOnce: boolean;
  created: number;
  model: string;
  entry: CatalogueEntry;
  provider: InferenceProvider;
  params: SamplingParams;
  forecastRequest: ForecastRequest | null;
  /** The model's input for the forecast the request ends up with. */
  compose(forecast: ForecastPlan | null): InferenceInput;
  /** An upper estimate of the prompt tokens, guidance included. */
  promptTokensEstimate: number;
  promptCount: number;
  choiceCount: number;
  /** Completion tokens each choice may generate. */
  maxTokens: number;
  multiplier: number;
  /** The classification fee, when the request asks for `auto`. */
  classificationNanos: number;
  maxCostNanos: number;
  includeUsageInStream: boolean;
}

/** A plan whose paid preparation has run: the answer type is settled and the input built. */
export interface PreparedCompletion extends CompletionPlan {
  forecast: ForecastPlan | null;
  input: InferenceInput;
}

type CommonBody = ChatCompletionBody | CompletionBody;

/** Classifies an `auto` question and builds the input. Call only with the credits held. */
export async function prepareCompletion(
  deps: PipelineDeps,
  plan: CompletionPlan,
  signal: AbortSignal | undefined,
): Promise<PreparedCompletion> {
  const forecast = plan.forecastRequest
    ? await resolveForecast(plan.forecastRequest, deps.classifier, signal)
    : null;
  return { ...plan, forecast, input: plan.compose(forecast) };
}

export function inferenceRequest(
  prepared: PreparedCompletion,
  signal: AbortSignal | undefined,
): InferenceRequest {
  return {
    input: prepared.input,
    params: prepared.params,
    ...(prepared.forecast
      ? {
          forecastHint: {
            answerType: prepared.forecast.type,
            question: prepared.forecast.question,
            ...(prepared.forecast.options ? { options: prepared.forecast.options } : {}),
          },
        }
      : {}),
    ...(signal ? { signal } : {}),
  };
}

export function planChat(
  deps: PipelineDeps,
  caller: CompletionCaller,
  body: ChatCompletionBody,
): CompletionPlan {
  const entry = deps.catalogue.get(body.model);
  assertResearchAvailable(requestedSources(body.research, body.prediction_date));
  const asOf = resolveAsOf(body.prediction_date, deps.clock.now());
  const forecastRequest = requestForecast(body.answer_type, questionText(body.messages), false);
  const dateLine: ChatMessage = { role: "system", content: asOfInstruction(asOf) };
  const compose = (forecast: ForecastPlan | null): InferenceInput => ({
    kind: "chat",
    messages: forecast
      ? [dateLine, { role: "system", content: guidanceMessage(forecast) }, ...body.messages]
      : [dateLine, ...body.messages],
  });
  const guidance = longestGuidance(forecastRequest);
  const promptTokens =
    countChatTokens([dateLine, ...body.messages]) +
    (guidance === null ? 0 : countChatTokens([{ role: "system", content: guidance }]));
  return finishPlan(deps, caller, body, entry, {
    compose,
    forecastRequest,
    promptTokens,
    promptCount: 1,
    kind: "chat",
  });
}

export function planText(
  deps: PipelineDeps,
  caller: CompletionCaller,
  body: CompletionBody,
): CompletionPlan {
  if ("prediction_date" in body) {
    throw invalidRequest(
      "prediction_date is a chat completion field; text completions have no system date line.",
      "unsupported_parameter",
      "prediction_date",
    );
  }
  const entry = deps.catalogue.get(body.model);
  assertResearchAvailable(requestedSources(body.research, null));
  const prompts = typeof body.prompt === "string" ? [body.prompt] : body.prompt;
  const forecastRequest = requestForecast(body.answer_type, prompts.join("\n\n"), true);
  // Text completions have no system role: guidance is placed ahead of the prompt text.
  const compose = (forecast: ForecastPlan | null): InferenceInput => {
    const guided = forecast ? prompts.map((p) => `${guidanceMessage(forecast)}\n\n${p}`) : prompts;
    return { kind: "text", prompt: guided.length === 1 ? (guided[0] as string) : guided };
  };
  const guidance = longestGuidance(forecastRequest);
  const guidanceTokens = guidance === null ? 0 : countPromptTokens(`${guidance}\n\n`);
  // One counting budget for all the prompts: a list of long prompts costs what one would.
  const promptTokens = countPromptListTokens(prompts) + prompts.length * guidanceTokens;
  return finishPlan(deps, caller, body, entry, {
    compose,
    forecastRequest,
    promptTokens,
    promptCount: prompts.length,
    kind: "text",
  });
}

/** The longest guidance the request may get, for a hold that covers every outcome. */
function longestGuidance(request: ForecastRequest | null): string | null {
  if (!request) return null;
  let longest = "";
  for (const type of possibleAnswerTypes(request)) {
    const guidance = guidanceFor(type, request.options);
    if (guidance.length > longest.length) longest = guidance;
  }
  return longest;
}

interface PlanInput {
  compose(forecast: ForecastPlan | null): InferenceInput;
  forecastRequest: ForecastRequest | null;
  promptTokens: number;
  promptCount: number;
  kind: "chat" | "text";
}

function finishPlan(
  deps: PipelineDeps,
  caller: CompletionCaller,
  body: CommonBody,
  entry: CatalogueEntry,
  input: PlanInput,
): CompletionPlan {
  const contextLength = entry.object.context_length;
  if (contextLength > 0 && input.promptTokens >= contextLength) {
    throw invalidRequest(
      `The prompt is about ${input.promptTokens} tokens, beyond the model's context length of ${contextLength}.`,
      "context_length_exceeded",
      input.kind === "chat" ? "messages" : "prompt",
    );
  }
  const modelLimit = entry.object.max_completion_tokens || FALLBACK_MAX_COMPLETION_TOKENS;
  const requestedMax = body.max_tokens ?? body.max_completion_tokens ?? null;
  if (requestedMax && entry.object.max_completion_tokens && requestedMax > modelLimit) {
    throw invalidRequest(
      `max_tokens ${requestedMax} exceeds this model's limit of ${modelLimit}.`,
      "max_tokens_too_large",
      body.max_tokens ? "max_tokens" : "max_completion_tokens",
    );
  }
  const maxTokens = requestedMax ?? modelLimit;
  const n = body.n ?? 1;
  const choiceCount = n * input.promptCount;
  if (choiceCount > MAX_CHOICES) {
    throw invalidRequest(
      `n (${n}) times ${input.promptCount} prompts asks for ${choiceCount} choices; a request may ask for at most ${MAX_CHOICES}.`,
      "too_many_choices",
      "n",
    );
  }
  const multiplier = caller.priceMultiplier ?? 1;
  const classificationNanos =
    input.forecastRequest?.requested === "auto"
      ? usdToNanos(deps.config.classification.cost_usd)
      : 0;
  const worstInference = inferenceCostNanos(entry.price, {
    promptTokens: input.promptTokens,
    completionTokens: choiceCount * maxTokens,
  });
  // A repair call per choice re-sends the prompt and the reply and asks for a short answer.
  const worstRepairs = input.forecastRequest
    ? inferenceCostNanos(entry.price, {
        promptTokens: choiceCount * (input.promptTokens + maxTokens + REPAIR_INSTRUCTION_TOKENS),
        completionTokens: choiceCount * REPAIR_MAX_TOKENS,
      })
    : 0;
  const worstCase = worstInference + worstRepairs + classificationNanos;
  const id = newId(input.kind === "chat" ? "chatcmpl-" : "cmpl-");
  return {
    id,
    billingReference: caller.billingReference ?? id,
    chargeOnce: caller.billingReference !== undefined,
    created: unixSeconds(deps.clock),
    model: entry.object.id,
    entry,
    provider: deps.providers.get(entry.object.id),
    params: {
      n,
      temperature: body.temperature ?? 0.6,
      top_p: body.top_p ?? null,
      top_k: body.top_k ?? null,
      min_p: body.min_p ?? null,
      max_tokens: requestedMax,
      stop:
        body.stop === undefined || body.stop === null
          ? null
          : typeof body.stop === "string"
            ? [body.stop]
            : body.stop,
      seed: body.seed ?? null,
      reasoning_effort: body.reasoning_effort ?? null,
    },
    forecastRequest: input.forecastRequest,
    compose: input.compose,
    promptTokensEstimate: input.promptTokens,
    promptCount: input.promptCount,
    choiceCount,
    maxTokens,
    multiplier,
    classificationNanos,
    maxCostNanos: scaleCost(worstCase, multiplier),
    includeUsageInStream: body.stream_options?.include_usage === true,
  };
}
