import type { InferenceInput, ProviderUsage } from "../inference/provider.js";
import { countChatTokens, countTextTokens } from "../inference/tokens.js";
import { type AnswerOutcome, answerSuffix, repairMessage } from "./forecast-step.js";
import { inferenceRequest, type PreparedCompletion } from "./plan.js";
import { REPAIR_MAX_TOKENS } from "./repair-limits.js";

export interface AnsweredReply {
  suffix: string;
  outcome: AnswerOutcome;
  /** Tokens of the repair call, when one ran. */
  repairUsage: ProviderUsage | null;
}

/**
 * The answer tags for one reply: read from the reply, else asked for once more with a short
 * repair prompt. A failed repair leaves the reply without tags; it never fails the request.
 */
export async function answerReply(
  plan: PreparedCompletion,
  promptIndex: number,
  reply: string,
  signal: AbortSignal | undefined,
): Promise<AnsweredReply | null> {
  const forecast = plan.forecast;
  if (!forecast) return null;
  const direct = answerSuffix(forecast, reply);
  if (direct) return { suffix: direct, outcome: "extracted", repairUsage: null };
  try {
    const input = repairInput(plan, promptIndex, reply, repairMessage(forecast));
    // Object.assign rather than spreads: see prepareCompletion (plan.ts).
    const result = await plan.provider.complete(
      Object.assign(inferenceRequest(plan, signal), {
        input,
        params: Object.assign({}, plan.params, { n: 1, max_tokens: REPAIR_MAX_TOKENS }),
      }),
    );
    const text = result.choices[0]?.text ?? "";
    const usage = result.usage ?? {
      promptTokens:
        input.kind === "chat"
          ? countChatTokens(input.messages)
          : countTextTokens(String(input.prompt)),
      completionTokens: countTextTokens(text),
      reasoningTokens: 0,
    };
    const repaired = answerSuffix(forecast, text);
    return {
      suffix: repaired ?? "",
      outcome: repaired ? "repaired" : "failed",
      repairUsage: usage,
    };
  } catch {
    return { suffix: "", outcome: "failed", repairUsage: null };
  }
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
