import { UpstreamError } from "../errors.js";
import type { InferenceInput, StreamEvent } from "../provider.js";
import { arrayField, isJsonObject, type JsonObject, numberField, stringField } from "./json.js";
import { readReasoning } from "./reasoning.js";
import { upstreamMessage } from "./upstream-message.js";

/** Parses one `data:` payload; an upstream error event becomes an UpstreamError. */
export function parseStreamChunk(data: string): JsonObject {
  let chunk: unknown;
  try {
    chunk = JSON.parse(data);
  } catch {
    throw new UpstreamError("unavailable", "model server sent a malformed stream chunk");
  }
  if (!isJsonObject(chunk)) {
    throw new UpstreamError("unavailable", "model server sent a malformed stream chunk");
  }
  if (chunk.error !== undefined || chunk.object === "error") {
    throw new UpstreamError(
      "unavailable",
      upstreamMessage(chunk) ?? "model server failed during generation",
    );
  }
  return chunk;
}

/** Delta and finish events of one chunk, per choice, in the order the chunk lists them. */
export function chunkEvents(chunk: JsonObject, kind: InferenceInput["kind"]): StreamEvent[] {
  const events: StreamEvent[] = [];
  arrayField(chunk, "choices")
    .filter(isJsonObject)
    .forEach((choice, position) => {
      const index = numberField(choice, "index") ?? position;
      const carrier = kind === "chat" && isJsonObject(choice.delta) ? choice.delta : choice;
      const text = stringField(carrier, kind === "chat" ? "content" : "text");
      const thinking = readReasoning(carrier);
      if (text || thinking) {
        events.push({
          type: "delta",
          index,
          ...(text ? { text } : {}),
          ...(thinking ? { thinking } : {}),
        });
      }
      const finishReason = stringField(choice, "finish_reason");
      if (finishReason !== null) events.push({ type: "finish", index, finishReason });
    });
  return events;
}
