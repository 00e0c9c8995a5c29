import type { Reservation } from "../billing/ledger.js";
import type { InferenceResult, ProviderChoice } from "../inference/provider.js";
import { countAnswer } from "./forecast-step.js";
import type { PipelineDeps } from "./pipeline-deps.js";
import { type CompletionPlan, inferenceRequest, planChat, planText } from "./plan.js";
import { answerReply } from "./repair.js";
import type { ChatCompletionBody, CompletionBody } from "./schema.js";
import { streamCompletion } from "./stream.js";
import type {
  ChatCompletionChunk,
  ChatCompletionResponse,
  CompletionCaller,
  CompletionService,
  TextCompletionChunk,
  TextCompletionResponse,
  Usage,
} from "./types.js";
import { billFor, countedUsage, UsageTally, usageObject } from "./usage.js";

interface FinishedChoice extends ProviderChoice {
  text: string;
}

/** The one completion pipeline: guidance → inference → answer → billing. */
export class CompletionPipeline implements CompletionService {
  constructor(private readonly deps: PipelineDeps) {}

  async chat(caller: CompletionCaller, body: ChatCompletionBody): Promise<ChatCompletionResponse> {
    const plan = await planChat(this.deps, caller, body);
    const { choices, usage } = await this.run(caller, plan);
    return {
      id: plan.id,
      object: "chat.completion",
      created: plan.created,
      model: plan.model,
      choices: choices.map((choice) => ({
        index: choice.index,
        message: { role: "assistant", content: choice.text, thinking: choice.thinking },
        finish_reason: choice.finishReason,
      })),
      usage,
    };
  }

  async text(caller: CompletionCaller, body: CompletionBody): Promise<TextCompletionResponse> {
    const plan = await planText(this.deps, caller, body);
    const { choices, usage } = await this.run(caller, plan);
    return {
      id: plan.id,
      object: "text_completion",
      created: plan.created,
      model: plan.model,
      choices: choices.map((choice) => ({
        index: choice.index,
        text: choice.text,
        finish_reason: choice.finishReason,
      })),
      usage,
    };
  }

  async streamChat(
    caller: CompletionCaller,
    body: ChatCompletionBody,
  ): Promise<AsyncIterable<ChatCompletionChunk>> {
    const plan = await planChat(this.deps, caller, body);
    return streamCompletion(this.deps, caller, plan, await this.reserve(caller, plan), "chat");
  }

  async streamText(
    caller: CompletionCaller,
    body: CompletionBody,
  ): Promise<AsyncIterable<TextCompletionChunk>> {
    const plan = await planText(this.deps, caller, body);
    return streamCompletion(this.deps, caller, plan, await this.reserve(caller, plan), "text");
  }

  private reserve(caller: CompletionCaller, plan: CompletionPlan): Promise<Reservation> {
    return this.deps.ledger.reserve(
      caller.organizationId,
      plan.maxCostNanos,
      plan.billingReference,
    );
  }

  private async run(
    caller: CompletionCaller,
    plan: CompletionPlan,
  ): Promise<{ choices: FinishedChoice[]; usage: Usage }> {
    const hold = await this.reserve(caller, plan);
    let result: InferenceResult;
    try {
      result = await plan.provider.complete(inferenceRequest(plan, caller.signal));
    } catch (error) {
      await this.deps.ledger.release(hold);
      throw error;
    }
    const tally = new UsageTally();
    tally.add(result.usage ?? countedUsage(plan, result.choices));
    const choices: FinishedChoice[] = [];
    for (const choice of result.choices) {
      const promptIndex = Math.floor(choice.index / (plan.params.n || 1));
      const answered = await answerReply(plan, promptIndex, choice.text, caller.signal);
      if (answered && plan.forecast) {
        countAnswer(this.deps.metrics, plan.forecast, answered.outcome);
        if (answered.repairUsage) tally.add(answered.repairUsage);
      }
      choices.push({ ...choice, text: choice.text + (answered?.suffix ?? "") });
    }
    const bill = billFor(plan, tally);
    await this.deps.ledger.settle(hold, bill.totalNanos, {
      reference: plan.billingReference,
      memo: plan.model,
    });
    return { choices, usage: usageObject(plan, tally, bill) };
  }
}
