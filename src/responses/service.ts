import type { CompletionCaller, CompletionService } from "../completions/types.js";
import { ServiceError } from "../errors.js";
import { ResponseEventStream } from "./events.js";
import { chatRequestFor, responseParam } from "./request.js";
import { newResponseId, responseFromChat } from "./response.js";
import type { ResponseCreateBody } from "./schema.js";
import type { ResponseObject } from "./types.js";

/**
 * OpenAI's Responses API as a translation at the edge of the one completion pipeline: each
 * request runs as a chat completion, and its answer is reshaped. Nothing is stored.
 */
export async function createResponse(
  completions: CompletionService,
  caller: CompletionCaller,
  body: ResponseCreateBody,
): Promise<ResponseObject> {
  const chat = await inResponseTerms(() => completions.chat(caller, chatRequestFor(body, false)));
  return responseFromChat(body, chat);
}

/** Starts the work; errors until the model's first byte are ordinary request errors. */
export async function streamResponse(
  completions: CompletionService,
  caller: CompletionCaller,
  body: ResponseCreateBody,
  createdAt: number,
): Promise<ResponseEventStream> {
  const chunks = await inResponseTerms(() =>
    completions.streamChat(caller, chatRequestFor(body, true)),
  );
  return new ResponseEventStream(body, chunks, newResponseId(), createdAt);
}

async function inResponseTerms<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    const param = responseParam(error.param);
    if (param === error.param) throw error;
    const message =
      error.code === "max_tokens_too_large"
        ? error.message.replace(/^max_tokens\b/, "max_output_tokens")
        : error.message;
    throw new ServiceError(error.kind, message, {
      code: error.code,
      param,
      ...(error.status !== undefined ? { status: error.status } : {}),
      headers: error.headers,
    });
  }
}
