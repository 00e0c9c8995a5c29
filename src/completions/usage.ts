import { nanosToUsd } from "../billing/money.js";
import type { ProviderUsage } from "../inference/provider.js";
import { countTextTokens } from "../inference/tokens.js";
import { inferenceCostNanos, scaleCost } from "./cost.js";
import type { CompletionPlan } from "./plan.js";
import type { Usage } from "./types.js";

/** Token counts of every model call a request made (the reply, and a repair if one ran). */
export class UsageTally {
  promptTokens = 0;
  completionTokens = 0;
  reasoningTokens = 0;

  add(usage: ProviderUsage): void {
    this.promptTokens += usage.promptTokens;
    this.completionTokens += usage.completionTokens;
    this.reasoningTokens += usage.reasoningTokens;
  }
}

export interface Bill {
  inferenceNanos: number;
  classificationNanos: number;
  totalNanos: number;
}

/** The cost of a request: each part scaled by the caller's multiplier, the total their sum. */
export function billFor(plan: CompletionPlan, tally: UsageTally): Bill {
  const inferenceNanos = scaleCost(inferenceCostNanos(plan.entry.price, tally), plan.multiplier);
  const classificationNanos = scaleCost(plan.classificationNanos, plan.multiplier);
  return { inferenceNanos, classificationNanos, totalNanos: inferenceNanos + classificationNanos };
}

export function usageObject(plan: CompletionPlan, tally: UsageTally, bill: Bill): Usage {
  return {
    prompt_tokens: tally.promptTokens,
    completion_tokens: tally.completionTokens,
    total_tokens: tally.promptTokens + tally.completionTokens,
    cost_usd: nanosToUsd(bill.totalNanos),
    inference_cost_usd: nanosToUsd(bill.inferenceNanos),
    ...(plan.forecast?.classified
      ? { classification_cost_usd: nanosToUsd(bill.classificationNanos) }
      : {}),
    completion_tokens_details: { reasoning_tokens: tally.reasoningTokens },
  };
}

/** What to bill when a model server reports no usage: our own token count. */
export function countedUsage(
  plan: CompletionPlan,
  choices: { text: string; thinking: string | null }[],
) {
  return {
    promptTokens: plan.promptTokensEstimate,
    completionTokens: choices.reduce(
      (sum, choice) => sum + countTextTokens(choice.text) + countTextTokens(choice.thinking ?? ""),
      0,
    ),
    reasoningTokens: 0,
  };
}
