import { isJsonObject, stringField } from "./json.js";

/**
 * The human-readable message of an error body in the shapes servers use: OpenAI
 * `{error: {message}}`, `{error: "…"}`, older vLLM `{object: "error", message}` and FastAPI
 * `{detail: "…" | [{msg}]}`.
 */
export function upstreamMessage(body: unknown): string | null {
  if (!isJsonObject(body)) return null;
  const { error, detail } = body;
  if (isJsonObject(error)) return stringField(error, "message");
  if (typeof error === "string") return error;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    const messages = detail
      .filter(isJsonObject)
      .map((item) => stringField(item, "msg"))
      .filter((msg): msg is string => msg !== null);
    if (messages.length > 0) return messages.join("; ");
  }
  return stringField(body, "message");
}

const MAX_TEXT_MESSAGE_CHARS = 1_000;

/** The message of an error response body, which may be JSON or plain text. */
export function errorBodyMessage(text: string): string | null {
  try {
    const message = upstreamMessage(JSON.parse(text));
    if (message) return message;
  } catch {
    // Not JSON: fall through to the raw text.
  }
  const trimmed = text.trim();
  return trimmed === "" ? null : trimmed.slice(0, MAX_TEXT_MESSAGE_CHARS);
}
