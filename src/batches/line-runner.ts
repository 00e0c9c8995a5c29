import type { ChatCompletionBody } from "../completions/schema.js";
import type {
  ChatCompletionResponse,
  CompletionCaller,
  CompletionService,
} from "../completions/types.js";
import type { Db } from "../db/database.js";
import { describeFailure } from "../error-responses.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { newId } from "../util/ids.js";
import {
  type ClaimedLine,
  type LineFence,
  type LineOutcome,
  recordOutcome,
  requeue,
} from "./line-queue.js";

export interface LineRunnerDeps {
  db: Db;
  completions: CompletionService;
  clock: Clock;
  priceMultiplier: number;
  /** Tries per line before a transient failure becomes the line's result. */
  maxAttempts: number;
  /** Delay before the first retry; doubles with each attempt. */
  retryBaseMs: number;
}

const MAX_RETRY_DELAY_MS = 60_000;

/** The ledger reference a line is charged under: one charge per line, however often it runs. */
export function lineBillingReference(batchId: string, customId: string): string {
  return `${batchId}:${customId}`;
}

/**
 * Whose money a line spends: the batch's organization and the key that created the batch (if it
 * was recorded), held to that key's spend limit like the key's own requests.
 */
export type LineSpender = Pick<CompletionCaller, "organizationId" | "apiKey">;

/** This attempt no longer owns its line (its lease expired and the line was handed on). */
class LineLost extends Error {}

const INTERNAL_ERROR_BODY = JSON.stringify({
  error: {
    message: "Internal server error.",
    type: "api_error",
    param: null,
    code: "internal_error",
  },
});

/**
 * Runs one claimed line through the completion service (billed like a single request times the
 * batch multiplier) and records its result. A success is recorded in the transaction that
 * charges it, so a line is never charged without its result or recorded without its charge, and
 * an attempt that lost its line is charged nothing. Transient failures (429, 5xx) go back to the
 * queue with backoff until attempts run out; anything else is the line's result.
 */
export async function runLine(
  deps: LineRunnerDeps,
  line: ClaimedLine,
  spender: LineSpender,
  owner: string,
): Promise<void> {
  const fence: LineFence = {
    batchId: line.batchId,
    lineNumber: line.lineNumber,
    owner,
    attempts: line.attempts,
  };
  let outcome: LineOutcome;
  try {
    await deps.completions.chat(
      {
        ...spender,
        priceMultiplier: deps.priceMultiplier,
        billingReference: lineBillingReference(line.batchId, line.customId),
        recordWithCharge: async (tx, response) => {
          const recorded = await recordOutcome(
            tx,
            fence,
            success(deps.clock, response as ChatCompletionResponse),
          );
          if (!recorded) throw new LineLost();
        },
      },
      JSON.parse(line.body) as ChatCompletionBody,
    );
    return;
  } catch (error) {
    if (error instanceof LineLost) return;
    const resolved = describeFailure(error);
    if (!resolved) {
      // A bug, not a property of the request: the line fails and the worker reports the error.
      await recordOutcome(deps.db, fence, failure(deps.clock, 500, INTERNAL_ERROR_BODY));
      throw error;
    }
    const transient = resolved.status === 429 || resolved.status >= 500;
    if (transient && line.attempts < deps.maxAttempts) {
      const delay = Math.min(deps.retryBaseMs * 2 ** (line.attempts - 1), MAX_RETRY_DELAY_MS);
      await requeue(deps.db, fence, deps.clock.now() + delay);
      return;
    }
    outcome = failure(deps.clock, resolved.status, JSON.stringify(resolved.body));
  }
  await recordOutcome(deps.db, fence, outcome);
}

function success(clock: Clock, response: ChatCompletionResponse): LineOutcome {
  const usage = response.usage;
  return {
    status: "succeeded",
    statusCode: 200,
    responseRequestId: newId("req_", 20),
    responseBody: JSON.stringify(response),
    errorCode: null,
    errorMessage: null,
    inputTokens: usage?.prompt_tokens ?? 0,
    outputTokens: usage?.completion_tokens ?? 0,
    cachedTokens: 0,
    reasoningTokens: usage?.completion_tokens_details?.reasoning_tokens ?? 0,
    finishedAt: unixSeconds(clock),
  };
}

/** A line whose request was answered with an error status. */
export function failure(clock: Clock, statusCode: number, body: string): LineOutcome {
  return {
    status: "failed",
    statusCode,
    responseRequestId: newId("req_", 20),
    responseBody: body,
    errorCode: null,
    errorMessage: null,
    inputTokens: 0,
    outputTokens: 0,
    cachedTokens: 0,
    reasoningTokens: 0,
    finishedAt: unixSeconds(clock),
  };
}
