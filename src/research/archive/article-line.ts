import type { NewArticle } from "./archive-store.js";
import { type InstantSpan, parseInstantSpan } from "./instant.js";

export type ParsedLine = { article: NewArticle } | { rejected: string };

/** How an import dates what its lines leave open. */
export interface ImportDating {
  /** When the import runs (Unix milliseconds). */
  importedAt: number;
  /**
   * When a line has no `first_seen_at`: `imported` counts it first seen now, when Sibyl first
   * saw it; `published` takes its published date, vouching for the file's dates.
   */
  firstSeen: "imported" | "published";
}

/** Fields naming when an article's text last changed; the latest of them counts. */
const EDIT_FIELDS = ["updated_at", "modified", "modified_at", "date_modified", "updated"] as const;

/** Longest url accepted; longer ones are not links anyone publishes. */
const MAX_URL_LENGTH = 4096;

/**
 * One line of a `sibyl news import` file: a JSON object with `url`, `title`, `published_at` and
 * `text`, and optionally `source`, `summary`, `first_seen_at` and an edit time (`updated_at`,
 * `modified`…). Without `first_seen_at` the article counts as first seen at the import, unless
 * the import is told to take its published date (see ImportDating). The text is the version
 * edited last, so it counts as first seen no earlier than its latest edit time. A date alone
 * names a whole day, and the article may have come out at any moment of it: it counts from that
 * day's last moment (or from when it was first seen that day, if earlier), so an as-of search
 * earlier that day cannot see it.
 */
export function parseArticleLine(line: string, dating: ImportDating): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { rejected: "invalid JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { rejected: "not a JSON object" };
  }
  const fields = value as Record<string, unknown>;

  const url = fields.url;
  if (typeof url !== "string" || url.trim() === "") return { rejected: "url is missing" };
  if (!isWebUrl(url.trim())) return { rejected: "url must be an absolute http(s) URL" };

  const title = fields.title;
  if (typeof title !== "string" || title.trim() === "") return { rejected: "title is missing" };
  if (typeof fields.text !== "string") return { rejected: "text is missing" };

  const published = instant(fields.published_at, "published_at");
  if (typeof published === "string") return { rejected: published };
  if (published === null) return { rejected: "published_at is missing" };
  const firstSeen = instant(fields.first_seen_at, "first_seen_at");
  if (typeof firstSeen === "string") return { rejected: firstSeen };
  if (firstSeen !== null && firstSeen.latest < published.earliest) {
    return { rejected: "first_seen_at is earlier than published_at" };
  }
  let firstSeenAt =
    firstSeen?.latest ??
    (dating.firstSeen === "published"
      ? published.latest
      : Math.max(dating.importedAt, published.latest));
  for (const field of EDIT_FIELDS) {
    const edited = instant(fields[field], field);
    if (typeof edited === "string") return { rejected: edited };
    if (edited !== null) firstSeenAt = Math.max(firstSeenAt, edited.latest);
  }

  const source = optionalText(fields.source, "source");
  if (source instanceof Error) return { rejected: source.message };
  const summary = optionalText(fields.summary, "summary");
  if (summary instanceof Error) return { rejected: summary.message };

  return {
    article: {
      url: url.trim(),
      title: title.trim(),
      source,
      summary,
      text: fields.text,
      publishedAt: Math.min(published.latest, firstSeenAt),
      firstSeenAt,
      origin: "import",
    },
  };
}

function isWebUrl(text: string): boolean {
  if (text.length > MAX_URL_LENGTH) return false;
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** The instants named, null when absent, or the reason the value is not a date. */
function instant(value: unknown, name: string): InstantSpan | null | string {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") return `${name} must be an ISO 8601 date-time string`;
  return parseInstantSpan(value) ?? `${name} is not a valid ISO 8601 date-time: ${quoted(value)}`;
}

function optionalText(value: unknown, name: string): string | null | Error {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") return new Error(`${name} must be a string`);
  return value.trim() === "" ? null : value.trim();
}

/** A value quoted for an error line, cut short so one bad line cannot flood the terminal. */
function quoted(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
