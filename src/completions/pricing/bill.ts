import { allocateCharge, type ChargeItem, type SettleDetails } from "../../billing/ledger.js";
import type { UsageDetails } from "../../billing/usage-records.js";
import { nanosToUsd } from "../../util/money.js";
import type { PreparedCompletion } from "../plan.js";
import { REPAIR_INSTRUCTION_TOKENS, REPAIR_MAX_TOKENS } from "../repair-limits.js";
import type { CompletionCaller, Usage } from "../types.js";
import type { UsageTally } from "../usage.js";
import { inferenceCostNanos, scaleCost } from "./token-cost.js";

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

/** The ledger memo of the fee for classifying a question (`answer_type: auto`). */
export const CLASSIFICATION_MEMO = "classification";

/**
 * The ledger entries of a bill: one per research source that answered, the classification fee,
 * then the model's inference (entries of nothing are not written). A charge the balance cut
 * short pays them in this order.
 */
export function chargeItems(plan: PreparedCompletion, bill: Bill): ChargeItem[] {
  return [
    ...bill.research.map((fee) => ({ amountNanos: fee.nanos, memo: `research:${fee.source}` })),
    { amountNanos: bill.classificationNanos, memo: CLASSIFICATION_MEMO },
    { amountNanos: bill.inferenceNanos, memo: plan.model },
  ];
}

/** How the ledger settles a request's hold to its bill: what it charges, under which reference. */
export function settleDetails(
  caller: CompletionCaller,
  plan: PreparedCompletion,
  bill: Bill,
): SettleDetails {
  return {
    reference: plan.billingReference,
    once: plan.chargeOnce,
    items: chargeItems(plan, bill),
    usage: usageDetails(caller, plan, bill),
  };
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
