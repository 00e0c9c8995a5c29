/**
 * Errors nothing caught while the server ran in this process: `sibyl serve` would die of any of
 * them. Each is kept with the requests sent just before it, to point at the one to blame.
 */
export class ProcessFaults {
  private readonly faults: { error: string; after: string[] }[] = [];
  private readonly recent: string[] = [];
  private readonly record = (error: unknown) => {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    this.faults.push({ error: text, after: [...this.recent] });
  };

  start(): void {
    process.on("uncaughtException", this.record);
    process.on("unhandledRejection", this.record);
  }

  stop(): void {
    process.off("uncaughtException", this.record);
    process.off("unhandledRejection", this.record);
  }

  /** Remembers the last few requests sent, in the form a report prints. */
  sent(request: string): void {
    this.recent.push(request);
    if (this.recent.length > 3) this.recent.shift();
  }

  all(): { error: string; after: string[] }[] {
    return this.faults;
  }
}
