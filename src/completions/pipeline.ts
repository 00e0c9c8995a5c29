import { setImmediate as nextTurn } from "node:timers/promises";
import type { Reservation } from "../billing/ledger.js";
import { ServiceError } from "../errors.js";
import type { InferenceResult, ProviderChoice } from "../inference/provider.js";
import { explainRefusedHold } from "./affordable.js";
import { annotationsOf } from "./annotations.js";
import { ensembleStreamUnsupported } from "./ensemble/request.js";
import { ensembleResponse } from "./ensemble/response.js";
import { sampleEnsemble } from "./ensemble/samples.js";
import { openAIFinishReason } from "./finish-reason.js";
import { type FirstChoice, forecastEntry, recordChargedForecast } from "./forecast-entry.js";
import { type AnswerOutcome, countAnswer, forecastReading } from "./forecast-step.js";
import type { PipelineDeps } from "./pipeline-deps.js";
import {
  type CompletionPlan,
  inferenceRequest,
  type PreparedCompletion,
  planChat,
  planText,
  prepareCompletion,
} from "./plan.js";
import { billFor, settleDetails, usageObject } from "./pricing/bill.js";
import { answerReply } from "./repair.js";
import { researchReport } from "./research-report.js";
import type { ChatCompletionBody, CompletionBody } from "./schema.js";
import { streamCompletion } from "./stream.js";
import type {
  ChatCompletionChunk,
  ChatCompletionResponse,
  CompletionCaller,
  CompletionService,
  ForecastReading,
  TextCompletionChunk,
  TextCompletionResponse,
  Usage,
} from "./types.js";
import { countedUsage, UsageTally } from "./usage.js";

interface FinishedChoice extends ProviderChoice {
  /** The reply with its answer tags. */
  text: string;
  /** The reply as the model wrote it, and the tags appended to it (empty when none). */
  reply: string;
  tags: string;
  outcome: AnswerOutcome | null;
  forecast: ForecastReading | null;
}

type Respond<R> = (plan: PreparedCompletion, choices: FinishedChoice[], usage: Usage) => R;

/**
 * The one completion pipeline: plan → hold → paid work (classification and research, inference,
 * repair) → answer → settlement. Nothing that costs money runs before the hold, and whatever fails after
 * it returns the hold.
 */
export class CompletionPipeline implements CompletionService {
  constructor(private readonly deps: PipelineDeps) {}

  async chat(caller: CompletionCaller, body: ChatCompletionBody): Promise<ChatCompletionResponse> {
    return this.run(caller, planChat(this.deps, caller, body), chatResponse);
  }

  async text(caller: CompletionCaller, body: CompletionBody): Promise<TextCompletionResponse> {
    return this.run(caller, planText(this.deps, caller, body), textResponse);
  }

  /**
   * What a chat request would hold (its worst case), without holding it; 0 for a request refused
   * before its hold.
   */
  chatHoldNanos(caller: CompletionCaller, body: ChatCompletionBody): number {
    try {
      return planChat(this.deps, caller, body).maxCostNanos;
    } catch (error) {
      if (error instanceof ServiceError) return 0;
      throw error;
    }
  }

  async streamChat(
    caller: CompletionCaller,
    body: ChatCompletionBody,
  ): Promise<AsyncIterable<ChatCompletionChunk>> {
    const plan = planChat(this.deps, caller, body);
    if (plan.ensemble) throw ensembleStreamUnsupported();
    return streamCompletion(this.deps, caller, plan, await this.reserve(caller, plan), "chat");
  }

  async streamText(
    caller: CompletionCaller,
    body: CompletionBody,
  ): Promise<AsyncIterable<TextCompletionChunk>> {
    const plan = planText(this.deps, caller, body);
    return streamCompletion(this.deps, caller, plan, await this.reserve(caller, plan), "text");
  }

  /** Holds the plan's worst case; a refusal says what would fit. */
  private async reserve(caller: CompletionCaller, plan: CompletionPlan): Promise<Reservation> {
    const { forecasts } = this.deps;
    if (plan.question && plan.forecastRequest && forecasts) {
      await forecasts.admit(
        caller.organizationId,
        plan.question.id,
        plan.forecastRequest.requested,
      );
    }
    const spendKeyId = caller.apiKey?.spendLimited ? caller.apiKey.id : null;
    try {
      return await this.hold(caller, plan, spendKeyId);
    } catch (error) {
      const { ledger, database } = this.deps;
      throw await explainRefusedHold(
        database,
        plan,
        () => ledger.balance(caller.organizationId),
        spendKeyId,
        error,
      );
    }
  }

  private hold(
    caller: CompletionCaller,
    plan: CompletionPlan,
    spendKeyId: string | null,
  ): Promise<Reservation> {
    // A batch line's charge is recorded with its result, and a key's limit is kept in the
    // database: both hold from the balance. Everything else holds from the process's lease.
    if (caller.billingReference === undefined && spendKeyId === null) {
      return this.deps.ledger.holdForRequest(
        caller.organizationId,
        plan.maxCostNanos,
        plan.billingReference,
      );
    }
    return this.deps.ledger.reserve(
      caller.organizationId,
      plan.maxCostNanos,
      plan.billingReference,
      undefined,
      spendKeyId,
    );
  }

  private async run<R extends ChatCompletionResponse | TextCompletionResponse>(
    caller: CompletionCaller,
    plan: CompletionPlan,
    respond: Respond<R>,
  ): Promise<R> {
    const hold = await this.reserve(caller, plan);
    try {
      const prepared = await prepareCompletion(this.deps, caller, plan, caller.signal);
      const { choices, tally } = prepared.ensemble
        ? await sampleEnsemble(prepared, prepared.ensemble, caller.signal, (result) =>
            this.answer(caller, prepared, result),
          )
        : await this.answer(
            caller,
            prepared,
            await prepared.provider.complete(inferenceRequest(prepared, caller.signal)),
          );
      return await this.settle(caller, prepared, hold, tally, choices, respond);
    } catch (error) {
      await this.deps.holds.release(hold);
      throw error;
    }
  }

  private async answer(
    caller: CompletionCaller,
    prepared: PreparedCompletion,
    result: InferenceResult,
  ): Promise<{ choices: FinishedChoice[]; tally: UsageTally }> {
    const tally = new UsageTally();
    tally.add(result.usage ?? countedUsage(prepared, result.choices));
    const choices: FinishedChoice[] = [];
    for (const choice of result.choices) {
      // Reading answers out of many long replies adds up: let other requests in between.
      if (choices.length > 0) await nextTurn();
      const promptIndex = Math.floor(choice.index / (prepared.params.n || 1));
      // Without a forecast there is no answer to read: no need to wait a turn for one.
      const answered = prepared.forecast
        ? await answerReply(prepared, promptIndex, choice.text, caller.signal)
        : null;
      if (answered && prepared.forecast) {
        countAnswer(this.deps.metrics, prepared.model, prepared.forecast, answered);
        if (answered.repairUsage) tally.add(answered.repairUsage);
      }
      const tags = answered?.suffix ?? "";
      // Own fields before the spread: see prepareCompletion.
      choices.push({
        reply: choice.text,
        tags,
        outcome: answered?.outcome ?? null,
        forecast:
          answered && prepared.forecast ? forecastReading(prepared.forecast, answered) : null,
        ...choice,
        text: choice.text + tags,
      });
    }
    return { choices, tally };
  }

  /** Charges the request and builds the reply from what was charged, in one transaction. */
  private async settle<R extends ChatCompletionResponse | TextCompletionResponse>(
    caller: CompletionCaller,
    prepared: PreparedCompletion,
    hold: Reservation,
    tally: UsageTally,
    choices: FinishedChoice[],
    respond: Respond<R>,
  ): Promise<R> {
    const bill = billFor(prepared, tally);
    const details = settleDetails(caller, prepared, bill);
    const record = caller.recordWithCharge;
    const { forecasts } = this.deps;
    if (!record) {
      const settlement = await this.deps.ledger.settle(hold, bill.totalNanos, details);
      const response = respond(
        prepared,
        choices,
        usageObject(prepared, bill, settlement.chargedNanos),
      );
      const first = firstChoice(response);
      await recordChargedForecast(forecasts, caller, prepared, first, settlement.chargedNanos);
      return response;
    }
    return this.deps.database.transaction(async (tx) => {
      const settlement = await this.deps.ledger.settle(
        hold,
        bill.totalNanos,
        { whileHeld: true, ...details },
        tx,
      );
      const response = respond(
        prepared,
        choices,
        usageObject(prepared, bill, settlement.chargedNanos),
      );
      await record(tx, response);
      const entry =
        forecasts &&
        forecastEntry(caller, prepared, firstChoice(response), settlement.chargedNanos);
      if (entry) await forecasts.record(tx, entry);
      return response;
    });
  }
}

/** The choice a recorded forecast reads: the first. */
function firstChoice(
  response: ChatCompletionResponse | TextCompletionResponse,
): FirstChoice | undefined {
  const choice = response.choices[0];
  if (!choice) return undefined;
  return {
    content: "message" in choice ? choice.message.content : choice.text,
    calibration: choice.forecast?.calibration,
  };
}

function chatResponse(
  plan: PreparedCompletion,
  choices: FinishedChoice[],
  usage: Usage,
): ChatCompletionResponse {
  if (plan.ensemble && plan.forecast) {
    const samples = choices.map((choice) =>
      Object.assign({}, choice, { outcome: choice.outcome ?? "failed" }),
    );
    return ensembleResponse(plan, plan.ensemble, plan.forecast.type, samples, usage);
  }
  const research = researchReport(plan);
  return {
    id: plan.id,
    object: "chat.completion",
    created: plan.created,
    model: plan.model,
    choices: choices.map((choice) => {
      const annotations = annotationsOf(plan, choice.text);
      return {
        index: choice.index,
        message: {
          role: "assistant",
          content: choice.text,
          refusal: null,
          thinking: choice.thinking,
          ...(annotations ? { annotations } : {}),
        },
        logprobs: null,
        finish_reason: openAIFinishReason(choice.finishReason, "chat"),
        ...(choice.forecast ? { forecast: choice.forecast } : {}),
      };
    }),
    usage,
    ...(research ? { research } : {}),
  };
}

function textResponse(
  plan: PreparedCompletion,
  choices: FinishedChoice[],
  usage: Usage,
): TextCompletionResponse {
  return {
    id: plan.id,
    object: "text_completion",
    created: plan.created,
    model: plan.model,
    choices: choices.map((choice) => ({
      index: choice.index,
      text: choice.text,
      logprobs: null,
      finish_reason: openAIFinishReason(choice.finishReason, "text"),
      ...(choice.forecast ? { forecast: choice.forecast } : {}),
    })),
    usage,
  };
}
