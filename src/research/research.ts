import { setImmediate as nextTurn } from "node:timers/promises";
import type { ServiceMetrics } from "../observability/metrics.js";
import { whenAborted } from "../util/abort-listeners.js";
import type { Clock } from "../util/clock.js";
import type { ConfiguredSource, SourceName } from "./configured-sources.js";
import { type FoundResult, type GivenSource, researchContext } from "./context.js";
import {
  boundResult,
  type DropReason,
  datesVerdict,
  type LeakVerdict,
  shownVerdict,
} from "./leak-guard.js";
import { urlKey } from "./normalize-url.js";
import { ResultCache, type SourceAnswer } from "./result-cache.js";
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

/** A source that delivered at least one result to the model: one billable research event. */
export interface ResearchEvent {
  source: SourceName;
  provider: string;
  costNanos: number;
}

export interface ResearchOutcome {
  /** The system message the model is given. */
  message: string;
  tokens: number;
  /** Exactly the sources the message lists, in its order. */
  sources: GivenSource[];
  /** Results kept from the model, by reason. */
  dropped: Partial<Record<DropReason, number>>;
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
    const dropped: Partial<Record<DropReason, number>> = {};
    const lists: FoundResult[][] = [];
    answers.forEach((answer, index) => {
      const configured = chosen[index] as ConfiguredSource;
      if (answer === null) return;
      for (const [reason, count] of Object.entries(answer.dropped)) {
        add(dropped, reason as DropReason, count);
      }
      lists.push(
        answer.kept.map((result) => ({
          result,
          source: configured.name,
          provider: configured.source.provider,
        })),
      );
    });
    const { unique, duplicates } = interleaveUnique(lists);
    if (duplicates > 0) add(dropped, "duplicate", duplicates);
    const { cutoff } = request;
    const context = researchContext(unique, {
      asOf: request.asOf,
      cutoff,
      tokenBudget: request.tokenBudget,
      admit: (result, shown) => (cutoff ? shownVerdict(result, shown, cutoff) : null),
    });
    for (const { found, verdict } of context.rejected) {
      add(dropped, verdict.reason, 1);
      this.reportDrop(found.source, found.result.url, verdict);
    }
    // Billed: the sources that delivered at least one result to the model.
    const delivering = new Set(context.sources.map((source) => source.source));
    const events = chosen
      .filter((configured) => delivering.has(configured.name))
      .map((configured) => ({
        source: configured.name,
        provider: configured.source.provider,
        costNanos: configured.costNanos,
      }));
    return {
      message: context.message,
      tokens: context.tokens,
      sources: context.sources,
      dropped,
      events,
    };
  }

  /** The results of one source whose dates pass, or null when it could not answer. */
  private async results(
    configured: ConfiguredSource,
    request: ResearchRequest,
  ): Promise<SourceAnswer | null> {
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
    const answer = await this.checkDates(
      configured,
      found.slice(0, configured.maxResults),
      request,
    );
    this.cache.set(key, answer);
    return answer;
  }

  private async checkDates(
    configured: ConfiguredSource,
    found: ResearchResult[],
    request: ResearchRequest,
  ): Promise<SourceAnswer> {
    const answer: SourceAnswer = { kept: [], dropped: {} };
    for (const [index, raw] of found.entries()) {
      // Reading long articles adds up: let other requests in between.
      if (index > 0) await nextTurn();
      if (!citable(raw.url)) {
        add(answer.dropped, "not_a_web_address", 1);
        continue;
      }
      const result = boundResult(raw);
      const verdict = request.cutoff ? datesVerdict(result, request.cutoff) : null;
      if (verdict) {
        add(answer.dropped, verdict.reason, 1);
        this.reportDrop(configured.name, result.url, verdict);
        continue;
      }
      answer.kept.push(excerpted(result));
    }
    return answer;
  }

  private reportDrop(source: SourceName, url: string, verdict: LeakVerdict): void {
    this.deps.metrics.researchDropped.inc({ source, reason: verdict.reason });
    this.deps.log.debug(
      {
        source,
        url,
        reason: verdict.reason,
        ...(verdict.mention ? { mentions: verdict.mention.text } : {}),
      },
      "leak guard dropped a research result",
    );
  }

  private count(configured: ConfiguredSource, outcome: SearchOutcome): void {
    this.deps.metrics.researchSearches.inc({ source: configured.name, outcome });
  }
}

function add(counts: Partial<Record<DropReason, number>>, reason: DropReason, count: number) {
  counts[reason] = (counts[reason] ?? 0) + count;
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
function interleaveUnique(lists: readonly FoundResult[][]): {
  unique: FoundResult[];
  duplicates: number;
} {
  const seen = new Set<string>();
  const unique: FoundResult[] = [];
  let duplicates = 0;
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let position = 0; position < longest; position++) {
    for (const list of lists) {
      const found = list[position];
      if (!found) continue;
      const key = urlKey(found.result.url);
      if (seen.has(key)) {
        duplicates += 1;
        continue;
      }
      seen.add(key);
      unique.push(found);
    }
  }
  return { unique, duplicates };
}
