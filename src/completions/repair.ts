import {
  answerFromStructured,
  answerResponseFormat,
  type ForecastAnswer,
  structuredRepairPrompt,
} from "../forecast/index.js";
import type { InferenceInput, InferenceRequest, ProviderUsage } from "../inference/provider.js";
import { countChatTokens, countTextTokens } from "../inference/tokens.js";
import { type CalibrationReport, calibrateAnswer, unreadReport } from "./calibration-step.js";
import {
  type AnswerReading,
  answerTags,
  type ForecastPlan,
  readReply,
  repairMessage,
} from "./forecast-step.js";
import { inferenceRequest, type PreparedCompletion } from "./plan.js";
import { REPAIR_MAX_TOKENS } from "./repair-limits.js";

export interface AnsweredReply extends AnswerReading {
  suffix: string;
  /** Tokens of the repair call, when one ran. */
  repairUsage: ProviderUsage | null;
}

/** The repair's answer tags: under the answer's JSON Schema when the server enforces one. */
function repairedAnswer(
  forecast: ForecastPlan,
  text: string,
  structured: boolean,
): { answer: ForecastAnswer; rule: string } | null {
  const constrained = structured
    ? answerFromStructured(forecast.type, text, forecast.options)
    : null;
  if (constrained) return { answer: constrained, rule: "structured" };
  const { answer, rule } = readReply(forecast, text);
  return answer ? { answer, rule } : null;
}

/** The tags of an answer read, calibrated when the request asked for it. */
function tagged(
  plan: PreparedCompletion,
  forecast: ForecastPlan,
  answer: ForecastAnswer,
): { suffix: string; calibration: CalibrationReport | null } {
  if (!plan.calibration) return { suffix: answerTags(forecast, answer), calibration: null };
  const calibrated = calibrateAnswer(plan.calibration, answer);
  return { suffix: answerTags(forecast, calibrated.answer), calibration: calibrated.report };
}

/**
 * The answer tags for one reply: read from the reply, else asked for once more with a short
 * repair prompt; where the model's server supports structured output, the repair asks for the
 * answer under the JSON Schema of its type, so the answer cannot be malformed. A failed repair
 * leaves the reply without tags; it never fails the request.
 */
export async function answerReply(
  plan: PreparedCompletion,
  promptIndex: number,
  reply: string,
  signal: AbortSignal | undefined,
): Promise<AnsweredReply | null> {
  const forecast = plan.forecast;
  if (!forecast) return null;
  const direct = readReply(forecast, reply);
  if (direct.answer) {
    return {
      ...tagged(plan, forecast, direct.answer),
      outcome: "extracted",
      rule: direct.rule,
      repairRule: null,
      repairUsage: null,
    };
  }
  const structured = plan.entry.config.structured_output === true;
  const failed = {
    suffix: "",
    outcome: "failed" as const,
    rule: direct.rule,
    repairRule: null,
    calibration: plan.calibration ? unreadReport(plan.calibration) : null,
  };
  // The baseline's refusal ("no options to spread the probability over") would come back alike.
  if (plan.provider.repliesAlike) return { ...failed, repairUsage: null };
  try {
    const { text, usage } = await askForAnswer(plan, forecast, promptIndex, reply, signal);
    const repaired = repairedAnswer(forecast, text, structured);
    return repaired
      ? {
          ...tagged(plan, forecast, repaired.answer),
          outcome: "repaired",
          rule: direct.rule,
          repairRule: repaired.rule,
          repairUsage: usage,
        }
      : Object.assign({}, failed, { repairUsage: usage });
  } catch {
    return Object.assign({}, failed, { repairUsage: null });
  }
}

/** The repair call: the reply sent back with a short prompt asking for the answer alone. */
async function askForAnswer(
  plan: PreparedCompletion,
  forecast: ForecastPlan,
  promptIndex: number,
  reply: string,
  signal: AbortSignal | undefined,
): Promise<{ text: string; usage: ProviderUsage }> {
  const structured = plan.entry.config.structured_output === true;
  const instruction = structured
    ? structuredRepairPrompt(forecast.type, forecast.options)
    : repairMessage(forecast);
  const input = repairInput(plan, promptIndex, reply, instruction);
  // Object.assign rather than spreads: see prepareCompletion (plan.ts).
  const request: InferenceRequest = Object.assign(inferenceRequest(plan, signal), {
    input,
    params: Object.assign({}, plan.params, { n: 1, max_tokens: REPAIR_MAX_TOKENS }),
  });
  if (structured) request.responseFormat = answerResponseFormat(forecast.type, forecast.options);
  const result = await plan.provider.complete(request);
  const text = result.choices[0]?.text ?? "";
  const usage = result.usage ?? {
    promptTokens:
      input.kind === "chat"
        ? countChatTokens(input.messages)
        : countTextTokens(String(input.prompt)),
    completionTokens: countTextTokens(text),
    reasoningTokens: 0,
  };
  return { text, usage };
}

function repairInput(
  plan: PreparedCompletion,
  promptIndex: number,
  reply: string,
  instruction: string,
): InferenceInput {
  if (plan.input.kind === "chat") {
    return {
      kind: "chat",
      messages: [
        ...plan.input.messages,
        { role: "assistant", content: reply },
        { role: "user", content: instruction },
      ],
    };
  }
  const prompts = typeof plan.input.prompt === "string" ? [plan.input.prompt] : plan.input.prompt;
  return { kind: "text", prompt: `${prompts[promptIndex] ?? ""}${reply}\n\n${instruction}\n` };
}
