import { HoldNotOpen } from "../billing/ledger.js";
import { isTransientDatabaseFailure } from "../cluster/database-outage.js";
import type { ChatCompletionBody } from "../completions/schema.js";
import type {
  ChatCompletionResponse,
  CompletionCaller,
  CompletionService,
} from "../completions/types.js";
import { describeFailure } from "../error-responses.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { newId } from "../util/ids.js";
import {
  attemptsExhausted,
  type ClaimedLine,
  type LineFence,
  type LineOutcome,
  recordOutcome,
} from "./line-queue.js";
import { finishUncharged, type LineHold, type LineRetryDeps, retryLater } from "./line-retry.js";

/** Where a line's runner reports what it recovered from. */
export interface LineLog {
  warn(details: object, message: string): void;
}

export interface LineRunnerDeps extends LineRetryDeps {
  completions: CompletionService;
  log: LineLog;
  priceMultiplier: number;
  /** Tries per line before a transient failure becomes the line's result. */
  maxAttempts: number;
}

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
 * an attempt that lost its line is charged nothing. Transient failures (429, 5xx, and Sibyl's own
 * database away or busy) go back to the queue with backoff until attempts run out; anything else
 * is the line's result. Once `stopped` aborts, the line has been handed back to the queue (its
 * hold with it): the model call is cut, and nothing more is written.
 */
export async function runLine(
  deps: LineRunnerDeps,
  line: ClaimedLine,
  spender: LineSpender,
  owner: string,
  stopped: AbortSignal,
): Promise<void> {
  const attempt: Attempt = {
    line,
    fence: { batchId: line.batchId, lineNumber: line.lineNumber, owner, attempts: line.attempts },
    hold: {
      organizationId: spender.organizationId,
      reference: lineBillingReference(line.batchId, line.customId),
    },
  };
  try {
    await completeLine(deps, attempt, spender, stopped);
  } catch (error) {
    if (error instanceof LineLost || stopped.aborted) return;
    await afterFailure(deps, attempt, error);
  }
}

/** One attempt at a line: the line, the fence its writes check, and its hold's reference. */
interface Attempt {
  line: ClaimedLine;
  fence: LineFence;
  hold: LineHold;
}

/** Runs the line's completion; its success is recorded in the transaction that charges it. */
async function completeLine(
  deps: LineRunnerDeps,
  { line, fence, hold }: Attempt,
  spender: LineSpender,
  stopped: AbortSignal,
): Promise<void> {
  await deps.completions.chat(
    // Own fields before the spread: see prepareCompletion (completions/plan.ts).
    {
      priceMultiplier: deps.priceMultiplier,
      billingReference: hold.reference,
      signal: stopped,
      requestId: line.requestId,
      recordWithCharge: async (tx, response) => {
        const outcome = success(deps.clock, response as ChatCompletionResponse);
        if (!(await recordOutcome(tx, fence, outcome))) throw new LineLost();
      },
      ...spender,
    },
    JSON.parse(line.body) as ChatCompletionBody,
  );
}

/**
 * What a failed attempt leaves: the line runs again (a returned hold, Sibyl's database away, a
 * transient upstream failure while attempts remain) or the failure is its result.
 */
async function afterFailure(deps: LineRunnerDeps, attempt: Attempt, error: unknown) {
  const { line, fence, hold } = attempt;
  if (error instanceof HoldNotOpen) {
    // The sweep took this process for dead and returned the line's hold while the line was
    // still this attempt's: nothing was charged or recorded, so the line runs again.
    deps.log.warn(
      { batch: line.batchId, line: line.lineNumber, attempt: line.attempts },
      "a batch line's hold was returned before its charge; the line runs again",
    );
    return runAgainOrGiveUp(deps, attempt);
  }
  const resolved = describeFailure(error);
  if (!resolved && isTransientDatabaseFailure(error)) {
    // Sibyl's own database failed, not the request, and nothing of this attempt was recorded:
    // it runs again. Should the database still fail these writes, the line stays running
    // under this attempt's lease, and the lease sweep returns it (with its hold) later.
    deps.log.warn(
      { err: error, batch: line.batchId, line: line.lineNumber, attempt: line.attempts },
      line.attempts < deps.maxAttempts
        ? "recording a batch line's result failed; the line runs again"
        : "recording a batch line's result failed on its last attempt; the line fails",
    );
    return runAgainOrGiveUp(deps, attempt);
  }
  if (!resolved) {
    // A bug, not a property of the request: the line fails and the worker reports the error.
    await recordOutcome(deps.db, fence, failure(deps.clock, 500, INTERNAL_ERROR_BODY));
    throw error;
  }
  const transient = resolved.status === 429 || resolved.status >= 500;
  if (transient && line.attempts < deps.maxAttempts) return retryLater(deps, fence, hold);
  await recordOutcome(
    deps.db,
    fence,
    failure(deps.clock, resolved.status, JSON.stringify(resolved.body)),
  );
}

/** Back to the queue while attempts remain; else the line fails uncharged. */
function runAgainOrGiveUp(deps: LineRunnerDeps, { line, fence, hold }: Attempt) {
  if (line.attempts < deps.maxAttempts) return retryLater(deps, fence, hold);
  const gaveUp = unanswered(deps.clock, attemptsExhausted(deps.maxAttempts));
  return finishUncharged(deps, fence, hold, gaveUp);
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

/** A line that ends without an answer to its request (`error` in the error file). */
function unanswered(clock: Clock, error: { code: string; message: string }): LineOutcome {
  return {
    status: "failed",
    statusCode: null,
    responseRequestId: null,
    responseBody: null,
    errorCode: error.code,
    errorMessage: error.message,
    inputTokens: 0,
    outputTokens: 0,
    cachedTokens: 0,
    reasoningTokens: 0,
    finishedAt: unixSeconds(clock),
  };
}
