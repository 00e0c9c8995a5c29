import { shownText } from "./shown-text.js";
import type { ResearchResult } from "./source.js";

/** The fields of a result as the model reads them, each normalised by shownText. */
export interface ShownFields {
  /** The title, or the address when the result has none: never empty. */
  title: string;
  publisher: string | null;
  url: string;
  /** The whole excerpt the result offers (snippet, else text), before any token budget. */
  excerpt: string;
}

export function shownFields(result: ResearchResult): ShownFields {
  const title = result.title === null ? "" : shownText(result.title);
  const publisher = result.source === null ? "" : shownText(result.source);
  return {
    title: title === "" ? result.url : title,
    publisher: publisher === "" ? null : publisher,
    url: result.url,
    excerpt: shownText(result.snippet ?? result.text ?? ""),
  };
}

/**
 * One numbered source exactly as the research message holds it: title, date and publisher,
 * address, excerpt. The leak guard reads this very string.
 */
export function renderedSource(
  number: number,
  result: ResearchResult,
  fields: ShownFields,
  excerpt: string,
): string {
  const lines = [`[${number}] ${fields.title}`];
  const date = result.publishedAt ?? result.firstSeenAt;
  const byline = [
    date ? `Published: ${date.toISOString().slice(0, 10)}` : null,
    fields.publisher ? `Source: ${fields.publisher}` : null,
  ]
    .filter((part) => part !== null)
    .join(" · ");
  if (byline) lines.push(byline);
  lines.push(`URL: ${fields.url}`);
  if (excerpt !== "") lines.push(excerpt);
  return lines.join("\n");
}
