import { invalidRequest } from "../errors.js";
import { guidanceFor, questionText } from "../forecast/index.js";
import type {
  InferenceInput,
  InferenceProvider,
  InferenceRequest,
  SamplingParams,
} from "../inference/provider.js";
import { countChatTokens, countPromptListTokens, countPromptTokens } from "../inference/tokens.js";
import type { CatalogueEntry } from "../models/catalogue.js";
import type { SourceName } from "../research/configured-sources.js";
import { researchQuery } from "../research/query.js";
import type { ResearchOutcome } from "../research/research.js";
import { unixSeconds } from "../util/clock.js";
import { newId } from "../util/ids.js";
import { usdToNanos } from "../util/money.js";
import { asOfInstruction, resolveAsOf } from "./as-of-date.js";
import type { CalibrationChoice } from "./calibration-step.js";
import { type EnsembleSpec, ensembleAnswerType, ensembleRequest } from "./ensemble/request.js";
import {
  type ForecastPlan,
  type ForecastRequest,
  guidanceMessage,
  possibleAnswerTypes,
  requestForecast,
  resolveForecast,
} from "./forecast-step.js";
import type { PipelineDeps } from "./pipeline-deps.js";
import { researchFeesNanos, type WorstCase, worstCaseNanos } from "./pricing/worst-case.js";
import { requestedSources } from "./research-request.js";
import { type ChatCompletionBody, type CompletionBody, MAX_CHOICES } from "./schema.js";
import type { CompletionCaller } from "./types.js";

/** Used when neither the request nor the model sets a completion limit. */
const FALLBACK_MAX_COMPLETION_TOKENS = 4096;

/** Fewer prompt tokens than this left for research would not hold a single source. */
const MIN_RESEARCH_TOKENS = 100;

/** The research a request asks for, decided before the hold; it runs after it. */
export interface PlannedResearch {
  sources: SourceName[];
  query: string;
  /** The as-of moment when the request sets prediction_date; null otherwise. */
  cutoff: Date | null;
  asOf: Date;
  /** Most prompt tokens the research message may take (counted in the hold). */
  tokenBudget: number;
}

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
  research: PlannedResearch | null;
  /** The model's input for the forecast the request ends up with and the research found. */
  compose(forecast: ForecastPlan | null, research: string | null): InferenceInput;
  /** An upper estimate of the prompt tokens, guidance and research included. */
  promptTokensEstimate: number;
  promptCount: number;
  choiceCount: number;
  /** Set when the request asks for an ensemble: each sample is its own upstream call. */
  ensemble: EnsembleSpec | null;
  /** Completion tokens each choice may generate. */
  maxTokens: number;
  multiplier: number;
  /** The classification fee, when the request asks for `auto`. */
  classificationNanos: number;
  /** What the hold is made of, but for the completion tokens per choice. */
  worst: WorstCase;
  maxCostNanos: number;
  includeUsageInStream: boolean;
  /** The question a `question_id` names: the forecast is recorded for it once charged. */
  question: { id: string; predictionDate: number } | null;
  /** The request's `calibration`: `auto` or a calibration id. */
  calibrationRequested: string | null;
}

/**
 * A plan whose paid preparation has run: the answer type is settled, the research done and the
 * input built.
 */
export interface PreparedCompletion extends CompletionPlan {
  forecast: ForecastPlan | null;
  researchOutcome: ResearchOutcome | null;
  input: InferenceInput;
  /** The map the answers go through, when the request set `calibration`. */
  calibration: CalibrationChoice | null;
}

type CommonBody = ChatCompletionBody | CompletionBody;

/**
 * Classifies an `auto` question, runs the research (side by side) and builds the input. Call
 * only with the credits held.
 */
export async function prepareCompletion(
  deps: PipelineDeps,
  caller: CompletionCaller,
  plan: CompletionPlan,
  signal: AbortSignal | undefined,
): Promise<PreparedCompletion> {
  // Looked up before the paid work: an unknown calibration fails the request with nothing spent.
  const calibration =
    plan.calibrationRequested === null ? null : await lookUpCalibration(deps, caller, plan);
  const research = plan.research;
  // A request with neither (most of them) does not wait a turn for nothing.
  const [forecast, researchOutcome] =
    plan.forecastRequest || research
      ? await Promise.all([
          plan.forecastRequest
            ? resolveForecast(plan.forecastRequest, deps.classifier, signal)
            : null,
          research
            ? deps.research.run(signal ? Object.assign({}, research, { signal }) : research)
            : null,
        ])
      : [null, null];
  // An `auto` ensemble question classified as free text has nothing to combine: refused here.
  if (plan.ensemble && forecast) ensembleAnswerType(forecast.type);
  // Own fields before the spread: on Node 20, an object literal that opens with a spread and
  // adds to it gets a new V8 shape each time once optimized (~5 µs, and slow reads after).
  return {
    forecast,
    researchOutcome,
    calibration,
    ...plan,
    // The hold counted the whole research budget; the estimate now counts what was used.
    promptTokensEstimate:
      plan.promptTokensEstimate - (research?.tokenBudget ?? 0) + (researchOutcome?.tokens ?? 0),
    input: plan.compose(forecast, researchOutcome?.message ?? null),
  };
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
  const sources = requestedSources(body.research, body.prediction_date, deps.research);
  const asOf = resolveAsOf(body.prediction_date, deps.clock.now());
  const question = questionText(body.messages);
  const forecastRequest = requestForecast(body.answer_type, question, false);
  const ensemble = ensembleRequest(body);
  const dateLine = asOfInstruction(asOf);
  // The research follows the date line and comes before the guidance.
  const compose = (forecast: ForecastPlan | null, research: string | null): InferenceInput => ({
    kind: "chat",
    messages: [
      dateLine.message,
      ...(research === null ? [] : [{ role: "system" as const, content: research }]),
      ...(forecast ? [{ role: "system" as const, content: guidanceMessage(forecast) }] : []),
      ...body.messages,
    ],
  });
  const guidance = longestGuidance(forecastRequest);
  const promptTokens =
    dateLine.tokens +
    countChatTokens(body.messages) +
    (guidance === null ? 0 : countChatTokens([{ role: "system", content: guidance }]));
  return finishPlan(deps, caller, body, entry, {
    compose,
    forecastRequest,
    promptTokens,
    promptCount: 1,
    kind: "chat",
    asOf,
    ensemble,
    research:
      sources.length === 0
        ? null
        : {
            sources,
            query: researchQuery(question || (body.messages.at(-1)?.content ?? "")),
            // A date alone is the first instant of that day: the as-of day's own news is left
            // out, as it was not all knowable yet. A time given with it moves the cutoff there.
            cutoff: body.prediction_date ? asOf : null,
            asOf,
          },
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
  if ("ensemble" in body) {
    throw invalidRequest(
      "ensemble is a chat completion field: send the prompt as a user message to /v1/chat/completions.",
      "unsupported_parameter",
      "ensemble",
    );
  }
  const entry = deps.catalogue.get(body.model);
  if (requestedSources(body.research, null, deps.research).length > 0) {
    // A text completion has no message to carry the citations, so the caller could not see
    // what the model was shown.
    throw invalidRequest(
      "research is available on chat completions, whose replies cite the sources the model was given; send the prompt as a user message to /v1/chat/completions.",
      "research_unsupported",
      "research",
    );
  }
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
    asOf: new Date(deps.clock.now()),
    ensemble: null,
    research: null,
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
  compose(forecast: ForecastPlan | null, research: string | null): InferenceInput;
  forecastRequest: ForecastRequest | null;
  promptTokens: number;
  promptCount: number;
  kind: "chat" | "text";
  /** The request's as-of moment: `prediction_date`, or now. */
  asOf: Date;
  ensemble: EnsembleSpec | null;
  research: Omit<PlannedResearch, "tokenBudget"> | null;
}

function finishPlan(
  deps: PipelineDeps,
  caller: CompletionCaller,
  body: CommonBody,
  entry: CatalogueEntry,
  input: PlanInput,
): CompletionPlan {
  const contextLength = entry.object.context_length;
  checkContextLength(input, contextLength);
  const research = input.research
    ? planResearch(deps, input.research, input.promptTokens, contextLength)
    : null;
  // Every token of the research budget may be sent, and sent again by a repair call.
  const promptTokens = input.promptTokens + (research?.tokenBudget ?? 0);
  const requestedMax = checkedMaxTokens(body, entry);
  const maxTokens =
    requestedMax ?? (entry.object.max_completion_tokens || FALLBACK_MAX_COMPLETION_TOKENS);
  const choiceCount = checkedChoiceCount(body, input);
  const worst = worstCaseOf(deps, caller, entry, input, { research, promptTokens, choiceCount });
  const questionId = checkedQuestionId(body, input);
  const calibrationRequested = checkedCalibration(body, input);
  const id = newId(input.kind === "chat" ? "chatcmpl-" : "cmpl-");
  return {
    id,
    billingReference: caller.billingReference ?? id,
    chargeOnce: caller.billingReference !== undefined,
    created: unixSeconds(deps.clock),
    model: entry.object.id,
    entry,
    provider: deps.providers.get(entry.object.id),
    params: samplingParams(body, requestedMax),
    forecastRequest: input.forecastRequest,
    research,
    compose: input.compose,
    promptTokensEstimate: promptTokens,
    promptCount: input.promptCount,
    choiceCount,
    ensemble: input.ensemble,
    maxTokens,
    multiplier: worst.multiplier,
    classificationNanos: worst.classificationNanos,
    worst,
    maxCostNanos: worstCaseNanos(worst, maxTokens),
    includeUsageInStream: body.stream_options?.include_usage === true,
    question:
      questionId === null
        ? null
        : { id: questionId, predictionDate: Math.floor(input.asOf.getTime() / 1000) },
    calibrationRequested,
  };
}

/** What the request may cost at most, before its output tokens: every price and fee it may incur. */
function worstCaseOf(
  deps: PipelineDeps,
  caller: CompletionCaller,
  entry: CatalogueEntry,
  input: PlanInput,
  planned: { research: PlannedResearch | null; promptTokens: number; choiceCount: number },
): WorstCase {
  const multiplier = caller.priceMultiplier ?? 1;
  return {
    price: entry.price,
    samples: input.ensemble?.samples ?? 1,
    promptTokens: planned.promptTokens,
    choiceCount: planned.choiceCount,
    repairs: input.forecastRequest !== null,
    classificationNanos:
      input.forecastRequest?.requested === "auto"
        ? usdToNanos(deps.config.classification.cost_usd)
        : 0,
    multiplier,
    researchFeesNanos: researchFeesNanos(
      (planned.research?.sources ?? []).map((name) => deps.research.source(name)?.costNanos ?? 0),
      multiplier,
    ),
  };
}

function checkContextLength(input: PlanInput, contextLength: number): void {
  if (contextLength > 0 && input.promptTokens >= contextLength) {
    throw invalidRequest(
      `The prompt is about ${input.promptTokens} tokens, beyond the model's context length of ${contextLength}.`,
      "context_length_exceeded",
      input.kind === "chat" ? "messages" : "prompt",
    );
  }
}

/** The `max_tokens` asked for (null when none), refused beyond a model's declared limit. */
function checkedMaxTokens(body: CommonBody, entry: CatalogueEntry): number | null {
  const modelLimit = entry.object.max_completion_tokens || FALLBACK_MAX_COMPLETION_TOKENS;
  const requestedMax = body.max_tokens ?? body.max_completion_tokens ?? null;
  if (requestedMax && entry.object.max_completion_tokens && requestedMax > modelLimit) {
    throw invalidRequest(
      `max_tokens ${requestedMax} exceeds this model's limit of ${modelLimit}.`,
      "max_tokens_too_large",
      body.max_tokens ? "max_tokens" : "max_completion_tokens",
    );
  }
  return requestedMax;
}

/** How many choices the request makes the model write, refused beyond MAX_CHOICES. */
function checkedChoiceCount(body: CommonBody, input: PlanInput): number {
  const n = body.n ?? 1;
  const choiceCount = (input.ensemble?.samples ?? n) * input.promptCount;
  if (choiceCount > MAX_CHOICES) {
    throw invalidRequest(
      `n (${n}) times ${input.promptCount} prompts asks for ${choiceCount} choices; a request may ask for at most ${MAX_CHOICES}.`,
      "too_many_choices",
      "n",
    );
  }
  return choiceCount;
}

/** The request's `question_id`, refused without a forecast to record or with a NUL to store. */
function checkedQuestionId(body: CommonBody, input: PlanInput): string | null {
  const questionId = body.question_id ?? null;
  if (questionId !== null && !input.forecastRequest) {
    throw invalidRequest(
      "question_id records the request's forecast: send answer_type with it.",
      "answer_type_required",
      "answer_type",
    );
  }
  if (questionId !== null && input.forecastRequest && holdsNul(input.forecastRequest)) {
    throw invalidRequest(
      "question_id records the question's text and options, which cannot hold a NUL character (\\u0000): remove it from the request's text.",
      "nul_in_question",
      input.kind === "chat" ? "messages" : "prompt",
    );
  }
  return questionId;
}

function samplingParams(body: CommonBody, requestedMax: number | null): CompletionPlan["params"] {
  return {
    n: body.n ?? 1,
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
  };
}

/** The request's `calibration`, refused where there is no probability to calibrate. */
function checkedCalibration(body: CommonBody, input: PlanInput): string | null {
  const requested = body.calibration ?? null;
  if (requested === null) return null;
  const type = input.forecastRequest?.requested;
  if (type === undefined) {
    throw invalidRequest(
      "calibration maps the probabilities of a forecast: send answer_type (binary or multiple_choice) with it.",
      "answer_type_required",
      "answer_type",
    );
  }
  if (type !== "auto" && type !== "binary" && type !== "multiple_choice") {
    throw invalidRequest(
      `calibration maps probabilities: answer_type ${type} has none to map (use binary or multiple_choice).`,
      "calibration_not_applicable",
      "calibration",
    );
  }
  if (input.ensemble) {
    throw invalidRequest(
      "calibration cannot be combined with ensemble: the samples' combined forecast is not what the map was fitted on.",
      "calibration_not_applicable",
      "calibration",
    );
  }
  return requested;
}

async function lookUpCalibration(
  deps: PipelineDeps,
  caller: CompletionCaller,
  plan: CompletionPlan,
): Promise<CalibrationChoice> {
  const requested = plan.calibrationRequested ?? "auto";
  if (!deps.calibrations) {
    throw invalidRequest(
      "Calibration is not available on this server.",
      "calibration_unavailable",
      "calibration",
    );
  }
  const stored = await deps.calibrations.forRequest(caller.organizationId, plan.model, requested);
  return { stored: stored ?? null };
}

/** The research budget: what the configuration allows, as far as the context has room. */
function planResearch(
  deps: PipelineDeps,
  research: Omit<PlannedResearch, "tokenBudget">,
  promptTokens: number,
  contextLength: number,
): PlannedResearch {
  const room = contextLength > 0 ? contextLength - promptTokens - 1 : Number.POSITIVE_INFINITY;
  const tokenBudget = Math.min(deps.research.contextTokens, room);
  if (tokenBudget < MIN_RESEARCH_TOKENS) {
    throw invalidRequest(
      `The prompt is about ${promptTokens} tokens, leaving no room for research in the model's context length of ${contextLength}.`,
      "context_length_exceeded",
      "messages",
    );
  }
  return { tokenBudget, ...research };
}

/** Whether the question a forecast is recorded for holds a NUL, which PostgreSQL text refuses. */
function holdsNul(request: ForecastRequest): boolean {
  if (request.question.includes("\u0000")) return true;
  return Object.values(request.options ?? {}).some((text) => text.includes("\u0000"));
}
