import type { ChatCompletionBody } from "../../../src/completions/schema.js";
import type {
  ChatCompletionResponse,
  CompletionCaller,
  CompletionService,
} from "../../../src/completions/types.js";
import type { Db } from "../../../src/db/database.js";

type Step = (body: ChatCompletionBody, caller: CompletionCaller) => Promise<void> | void;

/**
 * A completion service whose answers the test controls: every call waits at the gate until it
 * is opened, and `before` may throw to make a call fail. Like the real pipeline, it hands each
 * answer to the caller's `recordWithCharge` in a transaction on `db`.
 */
export class ScriptedCompletions implements CompletionService {
  calls: { body: ChatCompletionBody; caller: CompletionCaller }[] = [];
  db: Db | null = null;
  before: Step = () => undefined;
  private gate: Promise<void> = Promise.resolve();
  private openGate: () => void = () => undefined;

  close(): void {
    this.gate = new Promise((resolve) => {
      this.openGate = resolve;
    });
  }

  open(): void {
    this.openGate();
  }

  async chat(caller: CompletionCaller, body: ChatCompletionBody): Promise<ChatCompletionResponse> {
    this.calls.push({ body, caller });
    await this.gate;
    await this.before(body, caller);
    const content = `Answer to ${body.messages.at(-1)?.content ?? ""}`;
    const response: ChatCompletionResponse = {
      id: `chatcmpl-${this.calls.length}`,
      object: "chat.completion",
      created: 0,
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content, refusal: null, thinking: null },
          logprobs: null,
          finish_reason: "stop",
        },
      ],
      usage: {
        prompt_tokens: 10,
        completion_tokens: 5,
        total_tokens: 15,
        cost_usd: 0,
        inference_cost_usd: 0,
        completion_tokens_details: { reasoning_tokens: 2 },
      },
    };
    const { db } = this;
    const record = caller.recordWithCharge;
    if (record) {
      if (!db) throw new Error("ScriptedCompletions needs a db to record results");
      await db.transaction((tx) => record(tx, response));
    }
    return response;
  }

  streamChat(): never {
    throw new Error("batches never stream");
  }

  text(): never {
    throw new Error("batches only run chat completions");
  }

  streamText(): never {
    throw new Error("batches never stream");
  }
}
