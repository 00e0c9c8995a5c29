/** How the body of an accepted reply is written, as its `content-type` says. */
export type ReplyFormat = "event-stream" | "json";

/** The media type of a `content-type` header, lower-cased, without parameters; "" when absent. */
export function mediaType(contentType: string | string[] | undefined): string {
  const header = Array.isArray(contentType) ? contentType[0] : contentType;
  return header?.split(";")[0]?.trim().toLowerCase() ?? "";
}

/** The format of a reply; null for any other media type, or none. */
export function replyFormat(contentType: string | string[] | undefined): ReplyFormat | null {
  const type = mediaType(contentType);
  if (type === "text/event-stream") return "event-stream";
  if (type === "application/json") return "json";
  return null;
}

/**
 * Whether a reply in this format can answer the request. A stream request also takes JSON:
 * some servers and gateways ignore `stream` and send the whole completion at once.
 */
export function answersRequest(format: ReplyFormat | null, stream: boolean): boolean {
  return format === "json" || (stream && format === "event-stream");
}
