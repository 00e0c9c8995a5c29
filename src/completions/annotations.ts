import type { PreparedCompletion } from "./plan.js";
import type { UrlCitationAnnotation } from "./types.js";

/** The reply's citations: exactly the sources given to the model; null when no research ran. */
export function annotationsOf(plan: PreparedCompletion): UrlCitationAnnotation[] | null {
  if (!plan.researchOutcome) return null;
  return plan.researchOutcome.citations.map((citation) => ({
    type: "url_citation",
    url_citation: { url: citation.url, title: citation.title },
  }));
}
