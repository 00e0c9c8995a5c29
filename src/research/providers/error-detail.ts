import { isJsonObject, type JsonObject } from "./fields.js";
import { plainText } from "./plain-text.js";

const MAX_DETAIL_CHARS = 300;

/**
 * A short human-readable message from an error reply, JSON or plain text. Providers nest it
 * differently: `{error: "…"}` (Exa), `{error: {detail | message}}` (Brave and others),
 * `{detail: "…" | {error} | [{msg}]}` (FastAPI: AskNews, Tavily), `{message}`.
 */
export function errorDetail(body: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return shorten(plainText(body, MAX_DETAIL_CHARS * 2));
  }
  return isJsonObject(parsed) ? shorten(jsonMessage(parsed) ?? "") : null;
}

function jsonMessage(body: JsonObject): string | null {
  const { error, detail, message } = body;
  if (typeof error === "string") return error;
  if (isJsonObject(error)) return stringOf(error.detail) ?? stringOf(error.message);
  if (typeof detail === "string") return detail;
  if (isJsonObject(detail)) return stringOf(detail.error) ?? stringOf(detail.message);
  if (Array.isArray(detail)) {
    const messages = detail.filter(isJsonObject).map((item) => stringOf(item.msg));
    const present = messages.filter((msg): msg is string => msg !== null);
    if (present.length > 0) return present.join("; ");
  }
  return stringOf(message);
}

function stringOf(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function shorten(text: string): string | null {
  const oneLine = text.replace(/\s+/g, " ").trim();
  if (oneLine === "") return null;
  return oneLine.length > MAX_DETAIL_CHARS ? `${oneLine.slice(0, MAX_DETAIL_CHARS)}…` : oneLine;
}
