export interface ProgressSink {
  /** Whether stderr is a terminal: a redrawn bar there, plain lines elsewhere. */
  tty: boolean;
  /** Terminal: raw text (the bar redraws with "\r"). */
  write(text: string): void;
  /** Plain: one line. */
  line(text: string): void;
}

interface Counts {
  total: number;
  done: number;
  failed: number;
  status: string;
}

const BAR_WIDTH = 24;
const PLAIN_EVERY_MS = 5_000;

/** Lines done and failed over every model's batch, and the money spent so far. */
export class Progress {
  private readonly models = new Map<string, Counts>();
  private spentUsd: number | null = null;
  private lastPlain = "";
  private lastPlainAt = 0;
  private drawn = false;

  /** `models` fixes the order they are listed in, whichever reports first. */
  constructor(
    private readonly sink: ProgressSink,
    models: string[] = [],
  ) {
    for (const model of models) {
      this.models.set(model, { total: 0, done: 0, failed: 0, status: "starting" });
    }
  }

  update(model: string, counts: Counts): void {
    this.models.set(model, counts);
    this.render(false);
  }

  spent(usd: number | null): void {
    this.spentUsd = usd;
  }

  /** Leaves the bar's last state on screen and moves below it. */
  finish(): void {
    this.render(true);
    if (this.sink.tty && this.drawn) this.sink.write("\n");
  }

  private text(): { done: number; failed: number; total: number; summary: string } {
    let done = 0;
    let failed = 0;
    let total = 0;
    for (const counts of this.models.values()) {
      done += counts.done;
      failed += counts.failed;
      total += counts.total;
    }
    const statuses = [...this.models.entries()].map(([model, c]) => `${model} ${c.status}`);
    const spent = this.spentUsd === null ? "" : ` · $${this.spentUsd.toFixed(4)} spent`;
    return {
      done,
      failed,
      total,
      summary: `${done}/${total} done · ${failed} failed${spent} · ${statuses.join(", ")}`,
    };
  }

  private render(final: boolean): void {
    const { done, failed, total, summary } = this.text();
    if (this.sink.tty) {
      const share = total === 0 ? 0 : (done + failed) / total;
      const filled = Math.round(share * BAR_WIDTH);
      const bar = `${"█".repeat(filled)}${"░".repeat(BAR_WIDTH - filled)}`;
      this.sink.write(`\r\x1b[2K[${bar}] ${summary}`);
      this.drawn = true;
      return;
    }
    const now = Date.now();
    if (summary === this.lastPlain) return;
    if (!final && now - this.lastPlainAt < PLAIN_EVERY_MS && this.lastPlain !== "") return;
    this.lastPlain = summary;
    this.lastPlainAt = now;
    this.sink.line(`eval: ${summary}`);
  }
}
