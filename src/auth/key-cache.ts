/** How long a key looked up is trusted without reading it again, at most. */
const TRUST_MS = 60_000;
/**
 * How often SQLite is asked whether another connection has written: asking takes a read lock
 * (~20 µs, more than the rest of a cached lookup), so another process's key change is seen
 * within this long rather than at once.
 */
const VERSION_CHECK_MS = 100;

interface Cached<T> {
  value: T;
  until: number;
}

/**
 * Keys as last read, by digest, for processes that learn of every change to a key made
 * elsewhere. On PostgreSQL the database announces each revocation, expiry, scope or limit change
 * (a trigger on `api_keys`) to every process, which then forgets what it cached; caching is on
 * only while those announcements can be heard, and a process that stops hearing them (its
 * listening connection lost) reads every key again until it hears them once more. On SQLite the
 * process asks the database, at most every VERSION_CHECK_MS, whether another connection has
 * written since (`followVersion`). Changes made in this process are reported by the code that
 * makes them, and take effect at once.
 */
export class KeyCache<T> {
  private readonly entries = new Map<string, Cached<T>>();
  private hearing = false;
  /** Counts the moments cached keys went stale: a read begun before one is not cached. */
  private generation = 0;
  private version: (() => number) | null = null;
  private seenVersion = 0;
  /** When the version was last asked, by the monotonic clock (a test's fixed clock never moves). */
  private versionCheckedAt = Number.NEGATIVE_INFINITY;

  get(digest: string, nowMs: number): T | undefined {
    this.checkVersion();
    const cached = this.entries.get(digest);
    if (!cached) return undefined;
    if (cached.until > nowMs) return cached.value;
    this.entries.delete(digest);
    return undefined;
  }

  /** Taken before reading a key from the database, and given back to `set` with what was read. */
  ticket(): number {
    this.checkVersion();
    return this.generation;
  }

  /** Caches a key read under `ticket`, unless a change may have come in since the read began. */
  set(digest: string, value: T, nowMs: number, ticket: number): void {
    if (this.hearing && ticket === this.generation) {
      this.entries.set(digest, { value, until: nowMs + TRUST_MS });
    }
  }

  /** A key changed somewhere: read every key again. */
  changed(): void {
    this.generation++;
    this.entries.clear();
  }

  /** Whether changes are being heard now; each turn forgets what was cached. */
  listening(hearing: boolean): void {
    this.hearing = hearing;
    this.changed();
  }

  /**
   * Caches keys while `version` stays the same: it changes whenever another connection to the
   * database commits (SQLite's `data_version`), which may have changed a key.
   */
  followVersion(version: () => number): void {
    this.version = version;
    this.seenVersion = version();
    this.versionCheckedAt = performance.now();
    this.listening(true);
  }

  private checkVersion(): void {
    if (!this.version) return;
    const now = performance.now();
    if (now - this.versionCheckedAt < VERSION_CHECK_MS) return;
    this.versionCheckedAt = now;
    const version = this.version();
    if (version === this.seenVersion) return;
    this.seenVersion = version;
    this.changed();
  }
}
