import { invalidRequest } from "../errors.js";
import type { ResearchOptionsBody, ResearchSourceName } from "./schema.js";

/** Sources that can honour a prediction_date cutoff: the only ones automatic research uses. */
const CUTOFF_CAPABLE: readonly ResearchSourceName[] = ["news_search"];

/**
 * The research sources a request asks for, after the interface's rules: `true` means every
 * cutoff-capable default source; web_search cannot be combined with an as-of date.
 */
export function requestedSources(
  research: boolean | ResearchOptionsBody | null | undefined,
  predictionDate: string | null | undefined,
): ResearchSourceName[] {
  if (!research) return [];
  const explicit = typeof research === "object" ? research.sources : undefined;
  const sources = explicit ?? [...CUTOFF_CAPABLE];
  if (predictionDate && explicit?.includes("web_search")) {
    throw invalidRequest(
      "research source web_search cannot honour prediction_date (it only searches the live web); use news_search for as-of research.",
      "research_cutoff_unsupported",
      "research.sources",
    );
  }
  return sources;
}

/** Until a research backend is wired in, asking for research is a clear client error. */
export function assertResearchAvailable(sources: ResearchSourceName[]): void {
  if (sources.length === 0) return;
  throw invalidRequest(
    `research source${sources.length > 1 ? "s" : ""} ${sources.join(", ")} ${sources.length > 1 ? "are" : "is"} not available on this server.`,
    "research_unavailable",
    "research",
  );
}
