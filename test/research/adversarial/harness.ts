import { ServiceMetrics } from "../../../src/observability/metrics.js";
import { Research, type ResearchOutcome } from "../../../src/research/research.js";
import type { ResearchResult } from "../../../src/research/source.js";
import { systemClock } from "../../../src/util/clock.js";

/**
 * Runs `results` through the real research path (rendering, guard, context) as the answer of one
 * source, and returns what the model would be given.
 */
export function screen(results: ResearchResult[], cutoff: Date | null): Promise<ResearchOutcome> {
  const research = new Research(
    [
      {
        name: "news_search",
        source: { provider: "corpus", honoursCutoff: true, search: async () => results },
        costNanos: 5_000_000,
        maxResults: 50,
        timeoutMs: 5_000,
      },
    ],
    { cacheSeconds: 0, contextTokens: 30_000 },
    { clock: systemClock, metrics: new ServiceMetrics(), log: { warn() {}, debug() {} } },
  );
  return research.run({
    sources: ["news_search"],
    query: "water bill",
    cutoff,
    asOf: cutoff ?? new Date(),
    tokenBudget: 30_000,
  });
}
