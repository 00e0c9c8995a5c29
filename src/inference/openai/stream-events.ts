import type { Readable } from "node:stream";
import { whenAborted } from "../../util/abort-listeners.js";
import { UpstreamError } from "../errors.js";
import type { InferenceInput, StreamEvent } from "../provider.js";
import { abortedError, transferError } from "./failures.js";
import { readSseMessages } from "./sse.js";
import { chunkEvents, parseStreamChunk } from "./stream-chunk.js";
import { StreamUsage } from "./usage.js";

/**
 * Turns an upstream SSE body into StreamEvents. Usage is emitted once, at the end (see
 * StreamUsage). A body without a single completion chunk is a failure, not an empty reply: it is
 * what a proxy's error page or a server that ignored the request looks like.
 * Cancelling (signal) or leaving the loop early destroys the body, which closes the connection
 * and so stops generation upstream.
 */
export async function* streamEvents(
  body: Readable,
  kind: InferenceInput["kind"],
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent> {
  const stopListening = signal ? whenAborted(signal, () => body.destroy()) : null;
  const usage = new StreamUsage();
  let chunks = 0;
  try {
    for await (const message of readSseMessages(body)) {
      if (signal?.aborted) throw abortedError();
      if (message.data === "[DONE]") break;
      const chunk = parseStreamChunk(message.data);
      chunks += 1;
      usage.observe(chunk.usage);
      yield* chunkEvents(chunk, kind);
    }
    if (signal?.aborted) throw abortedError();
    if (chunks === 0) {
      throw new UpstreamError(
        "unavailable",
        "model server sent a stream without completion chunks",
      );
    }
    if (usage.final) yield { type: "usage", usage: usage.final };
  } catch (error) {
    throw transferError(error, signal);
  } finally {
    stopListening?.();
    body.destroy();
  }
}
