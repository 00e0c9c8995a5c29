import type { ChatCompletionBody, CompletionBody } from "../../../src/completions/schema.js";
import type {
  ChatCompletionChunk,
  ChatCompletionResponse,
  CompletionCaller,
  CompletionService,
  TextCompletionChunk,
  TextCompletionResponse,
} from "../../../src/completions/types.js";

/** Runs before the call, or before its result is written; may wait, or throw to fail it. */
type Hook = () => Promise<void> | void;

/**
 * The real completion pipeline with two places a test can pause or fail a batch line:
 * `beforeChat`, before the line holds its credits, and `beforeRecord`, inside the transaction
 * that charges the line, just before its result is written.
 */
export class HookedCompletions implements CompletionService {
  beforeChat: Hook = () => undefined;
  beforeRecord: Hook = () => undefined;

  constructor(private readonly real: CompletionService) {}

  async chat(caller: CompletionCaller, body: ChatCompletionBody): Promise<ChatCompletionResponse> {
    await this.beforeChat();
    const record = caller.recordWithCharge;
    if (!record) return this.real.chat(caller, body);
    return this.real.chat(
      {
        ...caller,
        recordWithCharge: async (tx, response) => {
          await this.beforeRecord();
          await record(tx, response);
        },
      },
      body,
    );
  }

  streamChat(
    caller: CompletionCaller,
    body: ChatCompletionBody,
  ): Promise<AsyncIterable<ChatCompletionChunk>> {
    return this.real.streamChat(caller, body);
  }

  text(caller: CompletionCaller, body: CompletionBody): Promise<TextCompletionResponse> {
    return this.real.text(caller, body);
  }

  streamText(
    caller: CompletionCaller,
    body: CompletionBody,
  ): Promise<AsyncIterable<TextCompletionChunk>> {
    return this.real.streamText(caller, body);
  }
}
