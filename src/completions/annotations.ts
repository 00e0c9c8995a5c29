import type { GivenSource } from "../research/context.js";
import type { PreparedCompletion } from "./plan.js";
import type { UrlCitationAnnotation } from "./types.js";

/** A citation as a reply writes it: [1], [2, 3], [1][4]. */
const CITATION = /\[(\d{1,3}(?:\s*[,;]\s*\d{1,3}){0,20})\]/g;

/**
 * The reply's citations of the sources the model was given: one url_citation per source number
 * the reply writes in brackets, spanning that bracket (indices count Unicode code points, as
 * OpenAI's do). Null when no research ran; empty when the reply cites nothing.
 */
export function annotationsOf(
  plan: PreparedCompletion,
  reply: string,
): UrlCitationAnnotation[] | null {
  if (!plan.researchOutcome) return null;
  return citationAnnotations(reply, plan.researchOutcome.sources);
}

export function citationAnnotations(
  reply: string,
  sources: readonly GivenSource[],
): UrlCitationAnnotation[] {
  const byNumber = new Map(sources.map((source) => [source.number, source]));
  const annotations: UrlCitationAnnotation[] = [];
  for (const match of reply.matchAll(CITATION)) {
    const startIndex = codePoints(reply, match.index);
    const endIndex = startIndex + codePoints(match[0], match[0].length);
    const numbers = (match[1] ?? "").split(/[,;]/).map((part) => Number(part.trim()));
    for (const number of new Set(numbers)) {
      const source = byNumber.get(number);
      if (!source) continue;
      annotations.push({
        type: "url_citation",
        url_citation: {
          url: source.url,
          title: source.title,
          start_index: startIndex,
          end_index: endIndex,
        },
      });
    }
  }
  return annotations;
}

/** Code points in the first `units` UTF-16 units of `text`. */
function codePoints(text: string, units: number): number {
  let count = 0;
  for (let index = 0; index < units; index++) {
    const code = text.charCodeAt(index);
    if (code < 0xdc00 || code > 0xdfff) count += 1;
  }
  return count;
}
