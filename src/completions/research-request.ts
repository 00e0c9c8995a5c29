import { invalidRequest } from "../errors.js";
import type { SourceName } from "../research/configured-sources.js";
import type { Research } from "../research/research.js";
import type { ResearchOptionsBody } from "./schema.js";

/**
 * The research sources a request asks for, after the interface's rules: `true` (or an object
 * without `sources`) means every configured source, or with an as-of date only those whose
 * provider honours a cutoff; web_search, which searches the live web, is never combined with an
 * as-of date; a source the server has not configured is a client error.
 */
export function requestedSources(
  research: boolean | ResearchOptionsBody | null | undefined,
  predictionDate: string | null | undefined,
  available: Research,
): SourceName[] {
  if (!research) return [];
  const explicit = typeof research === "object" ? research.sources : undefined;
  const asOf = Boolean(predictionDate);
  if (explicit === undefined) {
    const names = available.configuredNames();
    if (!asOf) return names;
    const capable = names.filter((name) => cutoffCapable(name, available));
    if (capable.length === 0) {
      throw invalidRequest(
        "No research source configured on this server can honour prediction_date; ask without prediction_date or configure news_search with a provider that supports a cutoff.",
        "research_cutoff_unsupported",
        "research",
      );
    }
    return capable;
  }
  if (asOf && explicit.includes("web_search")) {
    throw invalidRequest(
      "research source web_search cannot honour prediction_date (it only searches the live web); use news_search for as-of research.",
      "research_cutoff_unsupported",
      "research.sources",
    );
  }
  for (const name of explicit) {
    const configured = available.source(name);
    if (!configured) {
      throw invalidRequest(
        `research source ${name} is not configured on this server (available: ${available.configuredNames().join(", ")}).`,
        "research_source_unavailable",
        "research.sources",
      );
    }
    if (asOf && !configured.source.honoursCutoff) {
      throw invalidRequest(
        `research source ${name} (provider ${configured.source.provider}) cannot honour prediction_date; ask without prediction_date.`,
        "research_cutoff_unsupported",
        "research.sources",
      );
    }
  }
  return explicit;
}

function cutoffCapable(name: SourceName, available: Research): boolean {
  return name !== "web_search" && available.source(name)?.source.honoursCutoff === true;
}
