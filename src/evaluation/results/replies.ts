/** A batch line's reply, read from the output or error file. */
export interface ModelReply {
  customId: string;
  /** The reply's HTTP status; null for a line that never ran (expired, cancelled). */
  statusCode: number | null;
  /** One content per choice (`n` samples). */
  contents: string[];
  thinking: string | null;
  citations: Citation[];
  costUsd: number;
  error: string | null;
}

export interface Citation {
  url: string;
  title: string | null;
  /** Dates the endpoint attached to the source (publish, first seen), as given. */
  dates: string[];
  /** The endpoint's word on the text (Sibyl's research extension): `trusted` or `untrusted`. */
  trust?: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const DATE_FIELDS = ["published_at", "first_seen_at", "published_date", "date"];

function citationsOf(message: Json): Citation[] {
  if (!Array.isArray(message.annotations)) return [];
  return message.annotations.flatMap((annotation): Citation[] => {
    if (!isObject(annotation)) return [];
    const inner = isObject(annotation.url_citation) ? annotation.url_citation : annotation;
    if (typeof inner.url !== "string") return [];
    const dates = DATE_FIELDS.flatMap((field) => {
      const value = inner[field] ?? annotation[field];
      return typeof value === "string" ? [value] : [];
    });
    return [{ url: inner.url, title: typeof inner.title === "string" ? inner.title : null, dates }];
  });
}

/** The sources a `research` extension says the model was given, with their dates and trust. */
function researchSourcesOf(body: Json): Citation[] | null {
  const research = isObject(body.research) ? body.research : null;
  if (!research || !Array.isArray(research.sources)) return null;
  return research.sources.flatMap((source): Citation[] => {
    if (!isObject(source) || typeof source.url !== "string") return [];
    const dates = DATE_FIELDS.flatMap((field) =>
      typeof source[field] === "string" ? [source[field] as string] : [],
    );
    const title = typeof source.title === "string" ? source.title : null;
    const trust = typeof source.trust === "string" ? { trust: source.trust } : {};
    return [{ url: source.url, title, dates, ...trust }];
  });
}

function errorText(body: unknown): string | null {
  if (!isObject(body)) return null;
  const error = isObject(body.error) ? body.error : body;
  return typeof error.message === "string" ? error.message : null;
}

/** One line of an output or error file; null for a line that is not a batch result. */
export function parseResultLine(line: string): ModelReply | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(parsed) || typeof parsed.custom_id !== "string") return null;
  const response = isObject(parsed.response) ? parsed.response : null;
  const statusCode = typeof response?.status_code === "number" ? response.status_code : null;
  const body = isObject(response?.body) ? response.body : null;
  const reply: ModelReply = {
    customId: parsed.custom_id,
    statusCode,
    contents: [],
    thinking: null,
    citations: [],
    costUsd: 0,
    error: null,
  };
  if (statusCode === null || statusCode >= 400 || body === null) {
    reply.error =
      errorText(body) ?? errorText(parsed.error) ?? `request failed (${statusCode ?? "not run"})`;
    return reply;
  }
  const choices = Array.isArray(body.choices) ? body.choices : [];
  for (const choice of choices) {
    const message = isObject(choice) && isObject(choice.message) ? choice.message : null;
    if (message === null) continue;
    reply.contents.push(typeof message.content === "string" ? message.content : "");
    if (reply.thinking === null && typeof message.thinking === "string") {
      reply.thinking = message.thinking;
    }
    reply.citations.push(...citationsOf(message));
  }
  // What the model was given, when the endpoint reports it, rather than what the reply cites.
  const given = researchSourcesOf(body);
  if (given) reply.citations = given;
  const usage = isObject(body.usage) ? body.usage : null;
  if (typeof usage?.cost_usd === "number") reply.costUsd = usage.cost_usd;
  return reply;
}

/** Every reply of a model's output and error files, by custom_id. */
export function parseResults(...files: string[]): Map<string, ModelReply> {
  const replies = new Map<string, ModelReply>();
  for (const content of files) {
    for (const line of content.split("\n")) {
      if (line.trim() === "") continue;
      const reply = parseResultLine(line);
      if (reply) replies.set(reply.customId, reply);
    }
  }
  return replies;
}
