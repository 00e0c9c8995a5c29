import type { PreparedCompletion } from "./plan.js";
import type { ResearchReport } from "./types.js";

/**
 * The `research` extension of a reply: every source given to the model with its dates,
 * provider and trust, and how many results were kept from it by reason. Null without research.
 */
export function researchReport(plan: PreparedCompletion): ResearchReport | null {
  const outcome = plan.researchOutcome;
  if (!outcome || !plan.research) return null;
  return {
    as_of: plan.research.cutoff?.toISOString() ?? null,
    sources: outcome.sources.map((source) => ({
      number: source.number,
      url: source.url,
      title: source.title,
      published_at: source.publishedAt?.toISOString() ?? null,
      first_seen_at: source.firstSeenAt?.toISOString() ?? null,
      source: source.source,
      provider: source.provider,
      trust: source.trust,
    })),
    dropped: { ...outcome.dropped },
  };
}
