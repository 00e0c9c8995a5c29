import { sweepExclusively } from "../cluster/exclusive-sweep.js";
import type { Db } from "../db/database.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import type { Ledger, Reservation } from "./ledger.js";
import { beat, forget, forgetDead } from "./process-records.js";

export interface HoldKeeperLog {
  error(details: object, message: string): void;
}

/**
 * Makes holds belong to live work. The process proves it is alive with a heartbeat row; every
 * beat it also returns the holds of processes that stopped beating (killed, crashed, cut off)
 * for longer than `leaseSeconds`, and retries releases that failed here (a database that went
 * away for a moment). Every `serve` and `worker` process runs one, so a dead process's holds
 * come back within about `leaseSeconds` as long as any process is alive.
 */
export class HoldKeeper {
  private timer: NodeJS.Timeout | null = null;
  private tick: Promise<void> = Promise.resolve();
  private readonly pending = new Map<string, Reservation>();
  private role = "process";
  private log: HoldKeeperLog = { error: () => {} };

  constructor(
    private readonly db: Db,
    private readonly ledger: Ledger,
    private readonly clock: Clock,
    private readonly leaseSeconds: number,
  ) {}

  /** Registers the process and keeps beating until stopped; `role` is e.g. serve or worker. */
  async start(role: string, log: HoldKeeperLog): Promise<void> {
    if (this.timer) return;
    this.role = role;
    this.log = log;
    await this.sweep();
    const everyMs = Math.max(100, (this.leaseSeconds * 1000) / 3);
    this.timer = setInterval(() => {
      this.tick = this.sweep().catch((error: unknown) =>
        this.log.error({ err: error }, "hold sweep failed"),
      );
    }, everyMs);
    this.timer.unref();
  }

  /** Returns a hold now, or on a later beat if the database cannot be reached now. */
  async release(reservation: Reservation): Promise<void> {
    try {
      await this.ledger.release(reservation);
    } catch (error) {
      this.pending.set(reservation.id, reservation);
      this.log.error({ err: error, reservation: reservation.id }, "hold release deferred");
    }
  }

  async stop(): Promise<void> {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    await this.tick;
    await this.retryPending();
    await forget(this.db, this.ledger.owner);
  }

  /** One beat: proves this process alive and returns the holds of dead ones. */
  async sweep(): Promise<void> {
    const now = unixSeconds(this.clock);
    await beat(this.db, this.ledger.owner, this.role, now);
    const aliveSince = now - this.leaseSeconds;
    // One process of the cluster at a time returns dead processes' holds; the others skip.
    await sweepExclusively(this.db, "dead-process-holds", async (tx) => {
      await this.ledger.releaseOrphaned(aliveSince, tx);
      await forgetDead(tx, aliveSince);
    });
    await this.retryPending();
  }

  private async retryPending(): Promise<void> {
    for (const [id, reservation] of this.pending) {
      await this.ledger.release(reservation);
      this.pending.delete(id);
    }
  }
}
