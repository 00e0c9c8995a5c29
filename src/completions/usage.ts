import { allocateCharge, type ChargeItem } from "../billing/ledger.js";
import { nanosToUsd } from "../billing/money.js";
import type { UsageDetails } from "../billing/usage-records.js";
import type { ProviderUsage } from "../inference/provider.js";
import { countTextListTokens } from "../inference/tokens.js";
import { inferenceCostNanos, scaleCost } from "./cost.js";
import type { CompletionPlan, PreparedCompletion } from "./plan.js";
import { REPAIR_INSTRUCTION_TOKENS, REPAIR_MAX_TOKENS } from "./repair-limits.js";
import type { CompletionCaller, Usage } from "./types.js";

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
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  inferenceNanos: number;
  classificationNanos: number;
  /** One fee per research source that answered, in the order they were asked. */
  research: { source: string; nanos: number }[];
  totalNanos: number;
}

/**
 * The cost of a request, each part scaled by the caller's multiplier. Token counts are capped at
 * what the request allowed (its choices times their token limit, a repair per choice, the
 * model's context per call): a model server that reports more is not believed past that.
 */
export function billFor(plan: PreparedCompletion, tally: UsageTally): Bill {
  const repairs = plan.forecast ? plan.choiceCount : 0;
  const completionTokens = Math.min(
    tally.completionTokens,
    plan.choiceCount * plan.maxTokens + repairs * REPAIR_MAX_TOKENS,
  );
  const contextLength = plan.entry.object.context_length;
  // An ensemble sends the prompt once per sample.
  const promptsSent = plan.promptCount * (plan.ensemble?.samples ?? 1);
  const promptTokens =
    contextLength > 0
      ? Math.min(
          tally.promptTokens,
          (promptsSent + repairs) * (contextLength + REPAIR_INSTRUCTION_TOKENS),
        )
      : tally.promptTokens;
  const reasoningTokens = Math.min(tally.reasoningTokens, completionTokens);
  const inferenceNanos = scaleCost(
    inferenceCostNanos(plan.entry.price, { promptTokens, completionTokens }),
    plan.multiplier,
  );
  const classificationNanos = plan.forecast?.classified
    ? scaleCost(plan.classificationNanos, plan.multiplier)
    : 0;
  const research = (plan.researchOutcome?.events ?? []).map((event) => ({
    source: event.source,
    nanos: scaleCost(event.costNanos, plan.multiplier),
  }));
  const researchNanos = research.reduce((sum, fee) => sum + fee.nanos, 0);
  return {
    promptTokens,
    completionTokens,
    reasoningTokens,
    inferenceNanos,
    classificationNanos,
    research,
    totalNanos: inferenceNanos + classificationNanos + researchNanos,
  };
}

/**
 * The ledger entries of a bill: one per research source that answered, then the model's (its
 * inference and any classification). A charge the balance cut short pays them in this order.
 */
export function chargeItems(plan: PreparedCompletion, bill: Bill): ChargeItem[] {
  return [
    ...bill.research.map((fee) => ({ amountNanos: fee.nanos, memo: `research:${fee.source}` })),
    { amountNanos: bill.classificationNanos + bill.inferenceNanos, memo: plan.model },
  ];
}

/** What the usage reports record of a settled request: its key, model and billed tokens. */
export function usageDetails(
  caller: CompletionCaller,
  plan: PreparedCompletion,
  bill: Bill,
): UsageDetails {
  return {
    apiKeyId: caller.apiKey?.id ?? null,
    model: plan.model,
    inputTokens: bill.promptTokens,
    outputTokens: bill.completionTokens,
  };
}

/**
 * The usage object of a reply. Its costs are what the ledger charged: less than the bill when
 * the balance ran out (shared out as the ledger does: research, classification, inference).
 */
export function usageObject(plan: PreparedCompletion, bill: Bill, chargedNanos: number): Usage {
  const paid = allocateCharge(
    [...bill.research.map((fee) => fee.nanos), bill.classificationNanos, bill.inferenceNanos],
    chargedNanos,
  );
  const inferenceNanos = paid.pop() ?? 0;
  const classificationNanos = paid.pop() ?? 0;
  const researchNanos = paid.reduce((sum, nanos) => sum + nanos, 0);
  return {
    prompt_tokens: bill.promptTokens,
    completion_tokens: bill.completionTokens,
    total_tokens: bill.promptTokens + bill.completionTokens,
    cost_usd: nanosToUsd(chargedNanos),
    inference_cost_usd: nanosToUsd(inferenceNanos),
    ...(plan.research ? { research_cost_usd: nanosToUsd(researchNanos) } : {}),
    ...(plan.forecast?.classified
      ? { classification_cost_usd: nanosToUsd(classificationNanos) }
      : {}),
    completion_tokens_details: { reasoning_tokens: bill.reasoningTokens },
  };
}

/** What to bill when a model server reports no usage: our own token count. */
export function countedUsage(
  plan: CompletionPlan,
  choices: { text: string; thinking: string | null }[],
) {
  return {
    promptTokens: plan.promptTokensEstimate,
    // One counting budget for every reply, however many choices there are.
    completionTokens: countTextListTokens(
      choices.flatMap((choice) => [choice.text, choice.thinking ?? ""]),
    ),
    reasoningTokens: 0,
  };
}
