import { setImmediate as nextTurn } from "node:timers/promises";
import type { ServiceMetrics } from "../observability/metrics.js";
import { whenAborted } from "../util/abort-listeners.js";
import type { Clock } from "../util/clock.js";
import type { ConfiguredSource, SourceName } from "./configured-sources.js";
import { type Citation, researchContext } from "./context.js";
import { boundResult, leakVerdict } from "./leak-guard.js";
import { urlKey } from "./normalize-url.js";
import { ResultCache } from "./result-cache.js";
import { type ResearchResult, ResearchSourceError } from "./source.js";

/** The part of a pino logger research uses. */
export interface ResearchLog {
  warn(details: object, message: string): void;
  debug(details: object, message: string): void;
}

export interface ResearchRequest {
  sources: readonly SourceName[];
  query: string;
  /** Nothing later than this reaches the model; null when the request sets no as-of date. */
  cutoff: Date | null;
  /** The request's today, stated in the message. */
  asOf: Date;
  /** Most prompt tokens the message may take. */
  tokenBudget: number;
  signal?: AbortSignal;
}

/** A source that answered: one billable research event. */
export interface ResearchEvent {
  source: SourceName;
  provider: string;
  costNanos: number;
}

export interface ResearchOutcome {
  /** The system message the model is given. */
  message: string;
  tokens: number;
  /** Exactly the sources the message lists. */
  citations: Citation[];
  events: ResearchEvent[];
}

export interface ResearchSettings {
  cacheSeconds: number;
  contextTokens: number;
}

/** Longest excerpt kept per result once the guard has read it all. */
const KEPT_EXCERPT_CHARS = 3_000;
/** Longest address cited: longer ones are not pages a reader can follow. */
const MAX_URL_CHARS = 2_048;

type SearchOutcome = "ok" | "cached" | "failed" | "timeout";

/**
 * Runs a request's research: every chosen source at once, each within its time limit; every
 * result through the leak guard; results deduplicated by address, interleaved source by source
 * in each provider's order, and fitted to the token budget as one message. A source that fails
 * or times out is skipped (and not billed); the request still gets its answer.
 */
export class Research {
  private readonly sources: ReadonlyMap<SourceName, ConfiguredSource>;
  private readonly cache: ResultCache;
  readonly contextTokens: number;

  constructor(
    sources: readonly ConfiguredSource[],
    settings: ResearchSettings,
    private readonly deps: { clock: Clock; metrics: ServiceMetrics; log: ResearchLog },
  ) {
    this.sources = new Map(sources.map((source) => [source.name, source]));
    this.cache = new ResultCache(deps.clock, settings.cacheSeconds * 1000);
    this.contextTokens = settings.contextTokens;
  }

  /** The configured source of that name, if any. */
  source(name: SourceName): ConfiguredSource | undefined {
    return this.sources.get(name);
  }

  configuredNames(): SourceName[] {
    return [...this.sources.keys()];
  }

  async run(request: ResearchRequest): Promise<ResearchOutcome> {
    const chosen = request.sources.flatMap((name) => this.sources.get(name) ?? []);
    const answers = await Promise.all(chosen.map((source) => this.results(source, request)));
    const events: ResearchEvent[] = [];
    const lists: ResearchResult[][] = [];
    answers.forEach((results, index) => {
      const source = chosen[index] as ConfiguredSource;
      if (results === null) return;
      events.push({
        source: source.name,
        provider: source.source.provider,
        costNanos: source.costNanos,
      });
      lists.push(results);
    });
    const context = researchContext(interleaveUnique(lists), {
      asOf: request.asOf,
      cutoff: request.cutoff,
      tokenBudget: request.tokenBudget,
    });
    return Object.assign(context, { events });
  }

  /** The guarded results of one source, or null when it could not answer. */
  private async results(
    configured: ConfiguredSource,
    request: ResearchRequest,
  ): Promise<ResearchResult[] | null> {
    const key = ResultCache.key(configured.name, request.query, request.cutoff);
    const cached = this.cache.get(key);
    if (cached) {
      this.count(configured, "cached");
      return cached;
    }
    let found: ResearchResult[];
    try {
      found = await searchWithin(configured, request);
    } catch (error) {
      const outcome = error instanceof SourceTimeout ? "timeout" : "failed";
      this.count(configured, outcome);
      this.deps.log.warn(
        {
          source: configured.name,
          provider: configured.source.provider,
          outcome,
          err: error instanceof Error ? error.message : String(error),
        },
        "research source skipped",
      );
      return null;
    }
    this.count(configured, "ok");
    const kept = await this.guard(configured, found.slice(0, configured.maxResults), request);
    this.cache.set(key, kept);
    return kept;
  }

  private async guard(
    configured: ConfiguredSource,
    found: ResearchResult[],
    request: ResearchRequest,
  ): Promise<ResearchResult[]> {
    const kept: ResearchResult[] = [];
    for (const [index, raw] of found.entries()) {
      // Reading long articles adds up: let other requests in between.
      if (index > 0) await nextTurn();
      if (!citable(raw.url)) continue;
      const result = boundResult(raw);
      const verdict = request.cutoff ? leakVerdict(result, request.cutoff) : null;
      if (verdict) {
        this.deps.metrics.researchDropped.inc({ source: configured.name, reason: verdict.reason });
        this.deps.log.debug(
          {
            source: configured.name,
            url: result.url,
            reason: verdict.reason,
            ...(verdict.mention ? { mentions: verdict.mention.text } : {}),
          },
          "leak guard dropped a research result",
        );
        continue;
      }
      kept.push(excerpted(result));
    }
    return kept;
  }

  private count(configured: ConfiguredSource, outcome: SearchOutcome): void {
    this.deps.metrics.researchSearches.inc({ source: configured.name, outcome });
  }
}

class SourceTimeout extends ResearchSourceError {}

/** The source's answer, or an error once its time limit has passed (it is told to stop). */
async function searchWithin(
  configured: ConfiguredSource,
  request: ResearchRequest,
): Promise<ResearchResult[]> {
  const { source, timeoutMs } = configured;
  const controller = new AbortController();
  const { signal } = request;
  const stopListening = signal ? whenAborted(signal, () => controller.abort(signal.reason)) : null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new SourceTimeout(source.provider, `no answer within ${timeoutMs} ms`);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    if (request.signal?.aborted) throw new ResearchSourceError(source.provider, "cancelled");
    const search = source.search(request.query, {
      cutoff: request.cutoff,
      limit: configured.maxResults,
      signal: controller.signal,
    });
    return await Promise.race([search, timeout]);
  } finally {
    clearTimeout(timer);
    stopListening?.();
  }
}

/** Only web pages are cited: other schemes (javascript:, data:) are no sources for a reader. */
function citable(url: string): boolean {
  return url.length <= MAX_URL_CHARS && /^https?:\/\/[^\s]+$/i.test(url);
}

/** What the context and the cache need of a result the guard has read in full. */
function excerpted(result: ResearchResult): ResearchResult {
  const excerpt = result.snippet ?? result.text;
  return Object.assign({}, result, {
    snippet: excerpt === null ? null : excerpt.slice(0, KEPT_EXCERPT_CHARS),
    text: null,
  });
}

/** Round robin over the sources, each in its own order; a page seen before is skipped. */
function interleaveUnique(lists: readonly ResearchResult[][]): ResearchResult[] {
  const seen = new Set<string>();
  const merged: ResearchResult[] = [];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let position = 0; position < longest; position++) {
    for (const list of lists) {
      const result = list[position];
      if (!result) continue;
      const key = urlKey(result.url);
      if (seen.has(key)) continue;
      seen.add(key);
      merged.push(result);
    }
  }
  return merged;
}
