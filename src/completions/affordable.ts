import { KEY_SPEND_LIMIT_CODE, keyRoomLeft } from "../billing/key-spend.js";
import type { Db } from "../db/database.js";
import { InsufficientCredits, ServiceError } from "../errors.js";
import { nanosToUsd } from "../util/money.js";
import type { CompletionPlan } from "./plan.js";
import { worstCaseNanos } from "./pricing/worst-case.js";

/**
 * The largest completion tokens per choice whose hold fits in `availableNanos` (0 when not even
 * one does); the hold grows with them, so a binary search finds it.
 */
export function largestAffordableMaxTokens(
  plan: Pick<CompletionPlan, "maxTokens" | "worst">,
  availableNanos: number,
): number {
  let low = 0;
  let high = plan.maxTokens;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (worstCaseNanos(plan.worst, middle) <= availableNanos) low = middle;
    else high = middle - 1;
  }
  return low;
}

const dollars = (nanos: number) => `$${nanosToUsd(nanos)}`;

/** A hold refused for want of credit (402) or by the key's own spend limit (403). */
function isRefusedHold(error: unknown): error is ServiceError {
  return (
    error instanceof ServiceError &&
    (error.kind === "insufficient_credits" || error.code === KEY_SPEND_LIMIT_CODE)
  );
}

/**
 * A refused hold, explained as OpenRouter does: what the request holds (its worst case, sized on
 * max_tokens, or the model's maximum when none is set), what the balance and the key's spend
 * limit allow, and the largest max_tokens that fits. Any other error is returned as it is.
 */
export async function explainRefusedHold(
  db: Db,
  plan: CompletionPlan,
  organizationBalanceNanos: () => Promise<number>,
  keyId: string | null,
  error: unknown,
): Promise<unknown> {
  if (!isRefusedHold(error)) return error;
  const balance = await organizationBalanceNanos();
  const keyRoom = keyId === null ? null : await keyRoomLeft(db, keyId);
  const available = Math.min(balance, keyRoom ?? balance);
  const affordable = largestAffordableMaxTokens(plan, available);
  const sized = plan.params.max_tokens === null ? "the model's maximum of" : "max_tokens";
  const needed = `This request holds up to ${dollars(plan.maxCostNanos)}: its worst case with ${sized} ${plan.maxTokens} completion tokens${plan.choiceCount > 1 ? ` for each of ${plan.choiceCount} choices` : ""}, charged at its real cost after.`;
  const allowed =
    keyRoom === null
      ? `The organization's balance is ${dollars(balance)}.`
      : `The organization's balance is ${dollars(balance)} and this key may spend ${dollars(keyRoom)} more.`;
  const fits =
    affordable > 0
      ? `With max_tokens ${affordable} or less it fits.`
      : "Not even max_tokens 1 fits.";
  if (error.code === KEY_SPEND_LIMIT_CODE) {
    return new ServiceError("forbidden", `${error.message} ${needed} ${allowed} ${fits}`, {
      code: error.code,
      param: affordable > 0 ? "max_tokens" : null,
      headers: error.headers,
    });
  }
  const requestNanos =
    error instanceof InsufficientCredits ? error.requestNanos : plan.maxCostNanos;
  return new InsufficientCredits(requestNanos, {
    message: `Insufficient credits. ${needed} ${allowed} ${fits} Or top up the organization's balance.`,
    headers: error.headers,
  });
}
