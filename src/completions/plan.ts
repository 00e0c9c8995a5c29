import { usdToNanos } from "../billing/money.js";
import { invalidRequest } from "../errors.js";
import { questionText } from "../forecast/index.js";
import type {
  ChatMessage,
  InferenceInput,
  InferenceProvider,
  InferenceRequest,
  SamplingParams,
} from "../inference/provider.js";
import { countChatTokens, countPromptTokens } from "../inference/tokens.js";
import type { CatalogueEntry } from "../models/catalogue.js";
import { unixSeconds } from "../util/clock.js";
import { newId } from "../util/ids.js";
import { asOfInstruction, resolveAsOf } from "./as-of-date.js";
import { inferenceCostNanos, scaleCost } from "./cost.js";
import { type ForecastPlan, guidanceMessage, planForecast } from "./forecast-step.js";
import type { PipelineDeps } from "./pipeline-deps.js";
import { assertResearchAvailable, requestedSources } from "./research-request.js";
import type { ChatCompletionBody, CompletionBody } from "./schema.js";
import type { CompletionCaller } from "./types.js";

/** Used when neither the request nor the model sets a completion limit. */
const FALLBACK_MAX_COMPLETION_TOKENS = 4096;

/** Everything decided before the model runs: what to send, what to extract, what to hold. */
export interface CompletionPlan {
  id: string;
  /** Reference of the hold and of the charge in the ledger. */
  billingReference: string;
  created: number;
  model: string;
  entry: CatalogueEntry;
  provider: InferenceProvider;
  input: InferenceInput;
  params: SamplingParams;
  forecast: ForecastPlan | null;
  promptTokensEstimate: number;
  choiceCount: number;
  multiplier: number;
  classificationNanos: number;
  maxCostNanos: number;
  includeUsageInStream: boolean;
}

type CommonBody = ChatCompletionBody | CompletionBody;

export function inferenceRequest(
  plan: CompletionPlan,
  signal: AbortSignal | undefined,
): InferenceRequest {
  return {
    input: plan.input,
    params: plan.params,
    ...(plan.forecast
      ? {
          forecastHint: {
            answerType: plan.forecast.type,
            question: plan.forecast.question,
            ...(plan.forecast.options ? { options: plan.forecast.options } : {}),
          },
        }
      : {}),
    ...(signal ? { signal } : {}),
  };
}

export async function planChat(
  deps: PipelineDeps,
  caller: CompletionCaller,
  body: ChatCompletionBody,
): Promise<CompletionPlan> {
  caller = await unlessAlreadyCharged(deps, caller);
  const entry = deps.catalogue.get(body.model);
  assertResearchAvailable(requestedSources(body.research, body.prediction_date));
  const asOf = resolveAsOf(body.prediction_date, deps.clock.now());
  const forecast = await planForecast(
    body.answer_type,
    questionText(body.messages),
    false,
    deps.classifier,
    caller.signal,
  );
  const system: ChatMessage[] = [{ role: "system", content: asOfInstruction(asOf) }];
  if (forecast) system.push({ role: "system", content: guidanceMessage(forecast) });
  const messages = [...system, ...body.messages];
  return finishPlan(
    deps,
    caller,
    body,
    entry,
    { kind: "chat", messages },
    countChatTokens(messages),
    1,
    forecast,
  );
}

export async function planText(
  deps: PipelineDeps,
  caller: CompletionCaller,
  body: CompletionBody,
): Promise<CompletionPlan> {
  caller = await unlessAlreadyCharged(deps, caller);
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
  const forecast = await planForecast(
    body.answer_type,
    prompts.join("\n\n"),
    true,
    deps.classifier,
    caller.signal,
  );
  // Text completions have no system role: guidance is placed ahead of the prompt text.
  const guided = forecast ? prompts.map((p) => `${guidanceMessage(forecast)}\n\n${p}`) : prompts;
  const input: InferenceInput = {
    kind: "text",
    prompt: guided.length === 1 ? (guided[0] as string) : guided,
  };
  const promptTokens = guided.reduce((sum, p) => sum + countPromptTokens(p), 0);
  return finishPlan(deps, caller, body, entry, input, promptTokens, guided.length, forecast);
}

/** A re-run of work already charged under the same reference (after a crash) runs free. */
async function unlessAlreadyCharged(
  deps: PipelineDeps,
  caller: CompletionCaller,
): Promise<CompletionCaller> {
  if (!caller.billingReference) return caller;
  const charged = await deps.ledger.hasCharge(caller.organizationId, caller.billingReference);
  return charged ? { ...caller, priceMultiplier: 0 } : caller;
}

function finishPlan(
  deps: PipelineDeps,
  caller: CompletionCaller,
  body: CommonBody,
  entry: CatalogueEntry,
  input: InferenceInput,
  promptTokensEstimate: number,
  promptCount: number,
  forecast: ForecastPlan | null,
): CompletionPlan {
  const contextLength = entry.object.context_length;
  if (contextLength > 0 && promptTokensEstimate >= contextLength) {
    throw invalidRequest(
      `The prompt is about ${promptTokensEstimate} tokens, beyond the model's context length of ${contextLength}.`,
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
  const choiceCount = n * promptCount;
  const multiplier = caller.priceMultiplier ?? 1;
  const classificationNanos = forecast?.classified
    ? usdToNanos(deps.config.classification.cost_usd)
    : 0;
  const worstInference = inferenceCostNanos(entry.price, {
    promptTokens: promptTokensEstimate,
    completionTokens: choiceCount * maxTokens,
  });
  // A repair call re-sends the prompt and the reply, so a forecast may cost up to twice as much.
  const worstCase = (forecast ? 2 : 1) * worstInference + classificationNanos;
  const id = newId(input.kind === "chat" ? "chatcmpl-" : "cmpl-");
  return {
    id,
    billingReference: caller.billingReference ?? id,
    created: unixSeconds(deps.clock),
    model: entry.object.id,
    entry,
    provider: deps.providers.get(entry.object.id),
    input,
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
    forecast,
    promptTokensEstimate,
    choiceCount,
    multiplier,
    classificationNanos,
    maxCostNanos: scaleCost(worstCase, multiplier),
    includeUsageInStream: body.stream_options?.include_usage === true,
  };
}
