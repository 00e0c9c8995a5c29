import type { Readable } from "node:stream";
import type { InferenceInput, ProviderUsage, StreamEvent } from "../provider.js";
import { abortedError, transferError } from "./failures.js";
import { readSseMessages } from "./sse.js";
import { chunkEvents, parseStreamChunk } from "./stream-chunk.js";
import { readUsage } from "./usage.js";

/**
 * Turns an upstream SSE body into StreamEvents. Usage is emitted once, at the end, with the last
 * figures seen: servers that report usage on several chunks send running totals.
 * Cancelling (signal) or leaving the loop early destroys the body, which closes the connection
 * and so stops generation upstream.
 */
export async function* streamEvents(
  body: Readable,
  kind: InferenceInput["kind"],
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent> {
  const stopUpstream = () => body.destroy();
  signal?.addEventListener("abort", stopUpstream, { once: true });
  let usage: ProviderUsage | null = null;
  try {
    for await (const message of readSseMessages(body)) {
      if (signal?.aborted) throw abortedError();
      if (message.data === "[DONE]") break;
      const chunk = parseStreamChunk(message.data);
      usage = readUsage(chunk.usage) ?? usage;
      yield* chunkEvents(chunk, kind);
    }
    if (signal?.aborted) throw abortedError();
    if (usage) yield { type: "usage", usage };
  } catch (error) {
    throw transferError(error, signal);
  } finally {
    signal?.removeEventListener("abort", stopUpstream);
    body.destroy();
  }
}
