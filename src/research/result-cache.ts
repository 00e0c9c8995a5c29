import type { Clock } from "../util/clock.js";
import type { DropReason } from "./leak-guard.js";
import type { ResearchResult } from "./source.js";

/** What one source returned, its results past the date checks and the rest counted. */
export interface SourceAnswer {
  kept: ResearchResult[];
  dropped: Partial<Record<DropReason, number>>;
}

interface Entry {
  expiresAt: number;
  results: SourceAnswer;
  characters: number;
}

/**
 * What each source answered to a query under a cutoff (after the leak guard), kept for a while:
 * forecasters ask the same question many times (ensembles, `n` samples, batches). Bounded in
 * characters; the least recently used go first. A process-local cache is enough: a miss only
 * costs a search.
 */
export class ResultCache {
  private readonly entries = new Map<string, Entry>();
  private characters = 0;

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly maxCharacters = 8_000_000,
  ) {}

  static key(source: string, query: string, cutoff: Date | null): string {
    return JSON.stringify([source, query, cutoff?.toISOString() ?? null]);
  }

  get(key: string): SourceAnswer | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= this.clock.now()) {
      this.remove(key, entry);
      return null;
    }
    // Re-inserting makes it the most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.results;
  }

  set(key: string, results: SourceAnswer): void {
    if (this.ttlMs <= 0) return;
    const existing = this.entries.get(key);
    if (existing) this.remove(key, existing);
    const characters = results.kept.reduce((sum, result) => sum + size(result), key.length);
    if (characters > this.maxCharacters) return;
    this.entries.set(key, { expiresAt: this.clock.now() + this.ttlMs, results, characters });
    this.characters += characters;
    // Maps iterate in insertion order: the least recently used come first.
    for (const [oldestKey, oldest] of this.entries) {
      if (this.characters <= this.maxCharacters) break;
      this.remove(oldestKey, oldest);
    }
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.characters -= entry.characters;
  }
}

function size(result: ResearchResult): number {
  return (
    result.url.length +
    (result.title?.length ?? 0) +
    (result.snippet?.length ?? 0) +
    (result.text?.length ?? 0) +
    (result.source?.length ?? 0)
  );
}
