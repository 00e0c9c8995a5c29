import type { Dispatcher } from "undici";
import { UpstreamError } from "../errors.js";
import type {
  InferenceInput,
  InferenceRequest,
  InferenceResult,
  ProviderChoice,
} from "../provider.js";
import { transferError } from "./failures.js";
import { isJsonObject, type JsonObject, numberField, stringField } from "./json.js";
import { readReasoning } from "./reasoning.js";
import { upstreamMessage } from "./upstream-message.js";
import { readUsage } from "./usage.js";

/** Reads and maps the body of an accepted non-streamed reply. */
export async function readCompletion(
  response: Dispatcher.ResponseData,
  request: InferenceRequest,
): Promise<InferenceResult> {
  let text: string;
  try {
    text = await response.body.text();
  } catch (error) {
    throw transferError(error, request.signal);
  }
  return parseCompletionText(text, request.input.kind);
}

/** Maps the body text of a non-streamed chat or text completion. */
export function parseCompletionText(text: string, kind: InferenceInput["kind"]): InferenceResult {
  return parseCompletion(parseJson(text), kind);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw malformed();
  }
}

/** Maps a non-streamed chat or text completion body. */
function parseCompletion(body: unknown, kind: InferenceInput["kind"]): InferenceResult {
  if (!isJsonObject(body)) throw malformed();
  if (body.error !== undefined && body.choices === undefined) {
    throw new UpstreamError(
      "unavailable",
      upstreamMessage(body) ?? "model server reported an error",
    );
  }
  if (!Array.isArray(body.choices)) throw malformed();
  const choices = body.choices
    .filter(isJsonObject)
    .map((choice, position) => readChoice(choice, position, kind))
    .sort((a, b) => a.index - b.index);
  return { choices, usage: readUsage(body.usage) };
}

function readChoice(
  choice: JsonObject,
  position: number,
  kind: InferenceInput["kind"],
): ProviderChoice {
  const carrier = kind === "chat" && isJsonObject(choice.message) ? choice.message : choice;
  return {
    index: numberField(choice, "index") ?? position,
    text: stringField(carrier, kind === "chat" ? "content" : "text") ?? "",
    thinking: readReasoning(carrier),
    finishReason: stringField(choice, "finish_reason"),
  };
}

function malformed(): UpstreamError {
  return new UpstreamError("unavailable", "model server sent a malformed completion");
}
