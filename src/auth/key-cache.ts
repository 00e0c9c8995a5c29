/** How long a key looked up is trusted without reading it again, at most. */
const TRUST_MS = 60_000;

interface Cached<T> {
  value: T;
  until: number;
}

/**
 * Keys as last read, by digest, for processes that hear about every change to a key: on
 * PostgreSQL the database announces each revocation, expiry, scope or limit change (a trigger on
 * `api_keys`) to every process, which then forgets what it cached. Caching is on only while
 * those announcements can be heard; a process that stops hearing them (its listening connection
 * lost) forgets everything and reads every key again until it hears them once more.
 */
export class KeyCache<T> {
  private readonly entries = new Map<string, Cached<T>>();
  private hearing = false;

  get(digest: string, nowMs: number): T | undefined {
    const cached = this.entries.get(digest);
    if (!cached) return undefined;
    if (cached.until > nowMs) return cached.value;
    this.entries.delete(digest);
    return undefined;
  }

  set(digest: string, value: T, nowMs: number): void {
    if (this.hearing) this.entries.set(digest, { value, until: nowMs + TRUST_MS });
  }

  /** A key changed somewhere: read every key again. */
  changed(): void {
    this.entries.clear();
  }

  /** Whether changes are being heard now; each turn forgets what was cached. */
  listening(hearing: boolean): void {
    this.hearing = hearing;
    this.entries.clear();
  }
}
