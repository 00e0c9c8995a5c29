import type { Config } from "../config/index.js";
import { BASELINE_MODEL_ID } from "../config/index.js";
import {
  baselineStatement,
  classificationMessages,
  classifyByRules,
  type ForecastAnswer,
  formatAnswerTag,
  formatOptionsTag,
  guidanceFor,
  parseAnswerType,
  parseClassification,
  parseOptions,
  type Reading,
  readAnswer,
  repairPrompt,
} from "../forecast/index.js";
import { ANSWER_TYPES, type AnswerType, type OptionMap } from "../forecast/types.js";
import type { ForecastHint } from "../inference/provider.js";
import type { ProviderRegistry } from "../inference/registry.js";
import type { ServiceMetrics } from "../observability/metrics.js";
import type { CalibrationReport } from "./calibration-step.js";
import { answerWindow, questionWindow } from "./text-windows.js";
import type { ForecastReading } from "./types.js";

/** What the caller asked to get back in answer tags, settled before the model runs. */
export interface ForecastPlan {
  type: AnswerType;
  options: OptionMap | null;
  question: string;
  /** Classified on the server (`answer_type: auto`): the classification fee applies. */
  classified: boolean;
  /** Text completions carry the options tag before a multiple-choice answer. */
  withOptionsTag: boolean;
}

/** Classifies questions for `answer_type: auto`: the configured model, else deterministic rules. */
export class QuestionClassifier {
  constructor(
    private readonly config: Config,
    private readonly providers: ProviderRegistry,
  ) {}

  async classify(question: string, signal: AbortSignal | undefined): Promise<AnswerType> {
    const model = this.config.models.find((m) => m.id === this.config.classification.model);
    if (this.config.classification.model === BASELINE_MODEL_ID || model?.provider !== "openai") {
      return classifyByRules(question);
    }
    try {
      const result = await this.providers.get(model.id).complete({
        input: { kind: "chat", messages: classificationMessages(question) },
        params: { n: 1, temperature: 0, max_tokens: 16 },
        ...(signal ? { signal } : {}),
      });
      return parseClassification(result.choices[0]?.text ?? "") ?? classifyByRules(question);
    } catch {
      // The rules are the documented fallback whenever the classification model cannot answer.
      return classifyByRules(question);
    }
  }
}

/** The forecast a request asks for, read from the request alone: no model is called here. */
export interface ForecastRequest {
  /** An answer type, or "auto" to classify the question once the credits are held. */
  requested: AnswerType | "auto";
  options: OptionMap | null;
  question: string;
  textCompletion: boolean;
}

export function requestForecast(
  answerType: string | null | undefined,
  question: string,
  textCompletion: boolean,
): ForecastRequest | null {
  if (!answerType) return null;
  const requested = parseAnswerType(answerType);
  if (!requested) return null;
  const window = questionWindow(question);
  return { requested, options: parseOptions(window), question: window, textCompletion };
}

/** The answer types a request may end up with: one, or every type when it is classified. */
export function possibleAnswerTypes(request: ForecastRequest): readonly AnswerType[] {
  return request.requested === "auto" ? ANSWER_TYPES : [request.requested];
}

/** Settles the answer type; classifying (`auto`) is paid work, so it runs after the hold. */
export async function resolveForecast(
  request: ForecastRequest,
  classifier: QuestionClassifier,
  signal: AbortSignal | undefined,
): Promise<ForecastPlan> {
  const { requested } = request;
  const classified = requested === "auto";
  const type =
    requested === "auto" ? await classifier.classify(request.question, signal) : requested;
  return {
    type,
    options: request.options,
    question: request.question,
    classified,
    withOptionsTag: request.textCompletion && type === "multiple_choice",
  };
}

export function guidanceMessage(plan: ForecastPlan): string {
  return guidanceFor(plan.type, plan.options);
}

export function repairMessage(plan: ForecastPlan): string {
  return repairPrompt(plan.type, plan.options);
}

export type AnswerOutcome = "extracted" | "repaired" | "failed";

/** Reads the forecast out of a reply, with the rule that read it (or found none). */
export function readReply(plan: ForecastPlan, reply: string): Reading {
  return readAnswer(plan.type, answerWindow(reply), plan.options, plan.question);
}

/** The text appended to a reply for its answer: the tags. */
export function answerTags(plan: ForecastPlan, answer: ForecastAnswer): string {
  const options = plan.withOptionsTag && plan.options ? formatOptionsTag(plan.options) : "";
  return `\n\n${options}${formatAnswerTag(answer)}`;
}

/** Reads the forecast out of a reply; the text to append (tags) or null when none was found. */
export function answerSuffix(plan: ForecastPlan, reply: string): string | null {
  const { answer } = readReply(plan, reply);
  return answer ? answerTags(plan, answer) : null;
}

/** How one reply's answer was read: directly, after a repair, or not at all. */
export interface AnswerReading {
  outcome: AnswerOutcome;
  /** The rule that read the reply's answer, or found it states none. */
  rule: string;
  /** The rule that read the repair's answer, when a repair ran. */
  repairRule: string | null;
  /** What the request's calibration did to the answer, when it set one. */
  calibration?: CalibrationReport | null;
}

/** The choice's `forecast` extension: the rule that produced its answer, or found none. */
export function forecastReading(plan: ForecastPlan, reading: AnswerReading): ForecastReading {
  return {
    answer_type: plan.type,
    answer_status: reading.outcome,
    read_by: reading.repairRule ?? reading.rule,
    ...(reading.calibration ? { calibration: reading.calibration } : {}),
  };
}

export function countAnswer(
  metrics: ServiceMetrics,
  model: string,
  plan: ForecastPlan,
  reading: AnswerReading,
): void {
  metrics.recordAnswer({
    model,
    answer_type: plan.type,
    outcome: reading.outcome,
    rule: reading.rule,
    repair_rule: reading.repairRule,
  });
}

/** The built-in baseline's forecast sentence: the null-model answer, stated so it parses back. */
export function describeBaselineForecast(hint: ForecastHint): string {
  return baselineStatement(hint.answerType, hint.question, hint.options ?? null);
}
