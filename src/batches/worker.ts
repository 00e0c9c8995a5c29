import { setTimeout as sleep } from "node:timers/promises";
import type { Ledger } from "../billing/ledger.js";
import type { Cluster } from "../cluster/cluster.js";
import { isTransientDatabaseFailure } from "../cluster/database-outage.js";
import type { CompletionService } from "../completions/types.js";
import type { DatabaseHandle } from "../db/connect.js";
import type { Db } from "../db/database.js";
import type { Files } from "../files/files-service.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { newId } from "../util/ids.js";
import {
  batchById,
  claimBatchLease,
  extendBatchLeases,
  releaseBatchLease,
  transition,
  type UnfinishedBatch,
  unfinishedBatches,
} from "./batch-records.js";
import { finalizeBatch } from "./finalize-batch.js";
import {
  type ClaimedLine,
  claimLines,
  countOpenLines,
  deleteLines,
  expiredRunningLines,
  extendLineLeases,
  failUnstarted,
  reclaimExpired,
  returnLine,
} from "./line-queue.js";
import { type LineLog, lineBillingReference, runLine } from "./line-runner.js";
import { validateBatch } from "./validate-batch.js";
import { Wakeup } from "./wakeup.js";

export interface BatchWorkerDeps {
  handle: DatabaseHandle;
  ledger: Ledger;
  files: Files;
  completions: CompletionService;
  clock: Clock;
  /** Announces and hears batch work across processes, and says who sweeps expired leases. */
  cluster: Cluster;
  knownModel(id: string): boolean;
  /** Credits payments that landed uncredited; null when the server takes no payments. */
  reconciliation?: { reconcile(): Promise<{ credited: number; unclaimed: number }> } | null;
  log: WorkerLog;
}

/** The part of a pino logger the worker uses. */
export interface WorkerLog extends LineLog {
  error(details: object, message: string): void;
}

export interface BatchWorkerOptions {
  concurrency: number;
  priceMultiplier: number;
  /** How long a claim lives without renewal; a dead worker's lines return after this. */
  leaseMs?: number;
  /**
   * How often batches are checked for work other than running lines. Announcements wake the
   * worker at once; this poll is the fallback that catches anything they miss.
   */
  pollMs?: number;
  maxAttempts?: number;
  retryBaseMs?: number;
  fileSweepMs?: number;
  /** How often one worker of the cluster reconciles payments. */
  reconcileMs?: number;
}

interface InFlightLine extends ClaimedLine {
  organizationId: string;
  /** Stops the line's work once it has been handed back on shutdown. */
  stop: AbortController;
  /** Settles when the line's runner has finished, however it ended. */
  done: Promise<void>;
}

/**
 * How long lines handed back on shutdown get to wind down (their model calls are aborted) before
 * the worker closes the database under them.
 */
const WIND_DOWN_MS = 5_000;

/** Tries at handing running lines back on shutdown before leaving them to their leases. */
const RETURN_TRIES = 3;

const EXPIRED = {
  code: "batch_expired",
  message: "The batch expired before this request could be run.",
};
const CANCELLED = {
  code: "batch_cancelled",
  message: "The batch was cancelled before this request was run.",
};

/**
 * Runs batches: validates new ones, claims and runs their lines with bounded concurrency,
 * finalizes, cancels and expires them. Any number of workers (processes) can share a database;
 * all coordination is through leases in it, so a killed worker's work is picked up by the next.
 */
export class BatchWorker {
  readonly id = newId("wrk_", 20);
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly maxAttempts: number;
  private readonly retryBaseMs: number;
  private readonly fileSweepMs: number;
  private readonly inFlight = new Map<string, InFlightLine>();
  /** Validation or finalization jobs this worker holds the batch lease for. */
  private readonly jobs = new Map<string, Promise<void>>();
  private readonly lineSlots = new Wakeup();
  private readonly batchEvents = new Wakeup();
  private runnable: UnfinishedBatch[] = [];
  private running = false;
  private loops: Promise<void>[] = [];
  private heartbeat: NodeJS.Timeout | null = null;
  /** Lease renewals still running, awaited on stop so no query outlives the worker. */
  private renewal: Promise<void> = Promise.resolve();
  private lastFileSweep = 0;
  private readonly reconcileMs: number;
  private lastReconciliation = Number.NEGATIVE_INFINITY;
  /** The reconciliation running, apart from batch work: a long scan must not hold batches up. */
  private reconciling: Promise<void> | null = null;

  constructor(
    private readonly deps: BatchWorkerDeps,
    private readonly options: BatchWorkerOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 15_000;
    this.pollMs = options.pollMs ?? 250;
    this.maxAttempts = options.maxAttempts ?? 5;
    this.retryBaseMs = options.retryBaseMs ?? 1_000;
    this.fileSweepMs = options.fileSweepMs ?? 60_000;
    this.reconcileMs = options.reconcileMs ?? 60_000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.heartbeat = setInterval(() => this.renewLeases(), Math.max(50, this.leaseMs / 3));
    this.loops = [this.superviseLoop(), this.claimLoop()];
  }

  /** A batch was created or cancelled: look now rather than at the next poll. */
  notify(): void {
    this.batchEvents.wake();
  }

  /**
   * Stops claiming and lets running lines and jobs finish for up to `graceMs`; lines still
   * running then go back to the queue (their holds returned), and other workers are told.
   */
  async stop(graceMs = Number.POSITIVE_INFINITY): Promise<void> {
    if (!this.running) return;
    this.running = false;
    const deadline = this.deps.clock.now() + graceMs;
    const left = () => Math.max(0, deadline - this.deps.clock.now());
    this.batchEvents.wake();
    this.lineSlots.wake();
    await Promise.all(this.loops);
    while (this.inFlight.size > 0 && left() > 0) {
      await this.lineSlots.wait(Math.min(this.pollMs, left()));
    }
    if (this.inFlight.size > 0) {
      await this.returnUnfinished();
      // Their model calls would keep the process, and their holds' cleanup, alive past the
      // grace period: the lines are someone else's now.
      const lines = [...this.inFlight.values()];
      for (const line of lines) line.stop.abort(new Error("the worker is stopping"));
      await within(Promise.all(lines.map((line) => line.done)), WIND_DOWN_MS);
    }
    await within(Promise.all(this.jobs.values()), left());
    await this.reconciling;
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.renewal;
  }

  /** Gives the lines still running back to the queue, with their holds, in one transaction. */
  private async returnUnfinished(): Promise<void> {
    const lines = [...this.inFlight.values()];
    for (let attempt = 1; ; attempt++) {
      try {
        await this.deps.handle.db.transaction(async (tx) => {
          for (const line of lines) {
            const fence = { owner: this.id, ...line };
            const reference = lineBillingReference(line.batchId, line.customId);
            // The hold before the line, as the line's charge takes them.
            await this.deps.ledger.lockHolds(line.organizationId, [reference], tx);
            if (!(await returnLine(tx, fence))) continue;
            await this.deps.ledger.releaseByReference(line.organizationId, [reference], tx);
          }
        });
        this.deps.cluster.announceBatchWork();
        return;
      } catch (error) {
        // The database away for a moment, or a serialization failure: try again shortly.
        if (attempt < RETURN_TRIES && isTransientDatabaseFailure(error)) continue;
        // Their leases run out instead, and another worker reclaims them then.
        this.deps.log.error({ err: error }, "returning unfinished batch lines failed");
        return;
      }
    }
  }

  private async claimLoop(): Promise<void> {
    const { concurrency } = this.options;
    const batchSize = Math.max(1, Math.ceil(concurrency / 4));
    let next = 0;
    while (this.running) {
      const free = concurrency - this.inFlight.size;
      const candidates = this.runnable;
      if (candidates.length === 0 || free < Math.min(batchSize, concurrency)) {
        await this.lineSlots.wait(this.pollMs);
        continue;
      }
      const batch = candidates[next % candidates.length] as UnfinishedBatch;
      next += 1;
      try {
        const lines = await this.claim(batch, free);
        if (lines.length === 0) {
          this.runnable = this.runnable.filter((b) => b.id !== batch.id);
          continue;
        }
        for (const line of lines) this.startLine(line, batch);
      } catch (error) {
        this.deps.log.error({ err: error, batch: batch.id }, "claiming batch lines failed");
        await this.lineSlots.wait(this.pollMs);
      }
    }
  }

  private claim(batch: UnfinishedBatch, limit: number): Promise<ClaimedLine[]> {
    const nowMs = this.deps.clock.now();
    return claimLines(this.deps.handle, {
      batchId: batch.id,
      owner: this.id,
      nowMs,
      now: unixSeconds(this.deps.clock),
      leaseUntil: nowMs + this.leaseMs,
      limit,
    });
  }

  private startLine(line: ClaimedLine, batch: UnfinishedBatch): void {
    const key = `${line.batchId}#${line.lineNumber}`;
    const organizationId = batch.organization_id;
    const stop = new AbortController();
    const spender = batch.key ? { organizationId, apiKey: batch.key } : { organizationId };
    const done = runLine(
      {
        db: this.deps.handle.db,
        ledger: this.deps.ledger,
        completions: this.deps.completions,
        clock: this.deps.clock,
        priceMultiplier: this.options.priceMultiplier,
        maxAttempts: this.maxAttempts,
        retryBaseMs: this.retryBaseMs,
        log: this.deps.log,
      },
      line,
      spender,
      this.id,
      stop.signal,
    )
      .catch((error: unknown) =>
        this.deps.log.error(
          { err: error, batch: line.batchId, line: line.lineNumber },
          "batch line failed",
        ),
      )
      .finally(() => {
        this.inFlight.delete(key);
        this.lineSlots.wake();
        // The batch has no lines left to hand out: see whether it can be finalized.
        if (!this.runnable.some((batch) => batch.id === line.batchId)) this.batchEvents.wake();
      });
    this.inFlight.set(key, { organizationId, stop, done, ...line });
  }

  private async superviseLoop(): Promise<void> {
    while (this.running) {
      try {
        await this.supervise();
      } catch (error) {
        this.deps.log.error({ err: error }, "batch supervision failed");
      }
      await this.batchEvents.wait(this.pollMs);
    }
  }

  /** One look at every unfinished batch, moving each along its life cycle. */
  private async supervise(): Promise<void> {
    const runnable: UnfinishedBatch[] = [];
    for (const batch of await unfinishedBatches(this.deps.handle.db)) {
      if (!this.running) return;
      if (this.jobs.has(batch.id)) continue;
      const expired = unixSeconds(this.deps.clock) >= batch.expires_at;
      switch (batch.status) {
        case "validating":
          this.startJob(batch.id, () =>
            expired ? this.expireUnvalidated(batch.id) : this.validate(batch.id),
          );
          break;
        case "in_progress":
          if (await this.progress(batch, expired)) runnable.push(batch);
          break;
        case "cancelling":
          await this.windDown(batch, CANCELLED, "cancelling", "cancelled");
          break;
        case "finalizing":
          this.startJob(batch.id, () => this.finalize(batch.id, "finalizing", "completed"));
          break;
        default:
          break;
      }
    }
    this.runnable = runnable;
    if (runnable.length > 0) this.lineSlots.wake();
    await this.sweepFiles();
    await this.reconcilePayments();
  }

  /** Keeps an in-progress batch moving; true while it still has lines to hand out. */
  private async progress(batch: UnfinishedBatch, expired: boolean): Promise<boolean> {
    const { db } = this.deps.handle;
    // One worker of the cluster looks for lines of dead workers. Usually none died: look before
    // opening a transaction.
    if (
      (await this.deps.cluster.leads("batch-leases")) &&
      (await expiredRunningLines(db, batch.id, this.deps.clock.now())).length > 0
    ) {
      await this.returnDeadLines(batch, (tx, nowMs) =>
        reclaimExpired(tx, batch.id, nowMs, this.maxAttempts, unixSeconds(this.deps.clock)),
      );
      this.deps.cluster.announceBatchWork();
    }
    if (expired) {
      await this.windDown(batch, EXPIRED, "in_progress", "expired");
      return false;
    }
    if ((await countOpenLines(db, batch.id)) > 0) return true;
    if (await transition(db, batch.id, "in_progress", "finalizing", unixSeconds(this.deps.clock))) {
      this.startJob(batch.id, () => this.finalize(batch.id, "finalizing", "completed"));
    }
    return false;
  }

  /** Fails the lines that have not started; once running lines end, writes what there is. */
  private async windDown(
    batch: UnfinishedBatch,
    reason: { code: string; message: string },
    from: "in_progress" | "cancelling",
    to: "expired" | "cancelled",
  ): Promise<void> {
    await this.returnDeadLines(batch, (tx, nowMs) =>
      failUnstarted(tx, batch.id, reason, nowMs, unixSeconds(this.deps.clock)),
    );
    if ((await countOpenLines(this.deps.handle.db, batch.id)) > 0) return;
    this.startJob(batch.id, () => this.finalize(batch.id, from, to));
  }

  /**
   * Moves the lines of workers that stopped renewing their leases on (`move`: back to the queue,
   * or failed, returning the custom ids of the lines it moved), and returns those workers' holds
   * in the same transaction: their work will never settle them, and whoever runs the line next
   * holds anew. A line whose lease was renewed meanwhile is not moved and keeps its hold.
   */
  private async returnDeadLines(
    batch: UnfinishedBatch,
    move: (tx: Db, nowMs: number) => Promise<string[]>,
  ): Promise<void> {
    const nowMs = this.deps.clock.now();
    const references = (customIds: string[]) =>
      customIds.map((customId) => lineBillingReference(batch.id, customId));
    const { ledger } = this.deps;
    await this.deps.handle.db.transaction(async (tx) => {
      // Holds before lines, the order a line's charge takes them in, so the two never deadlock.
      const candidates = await expiredRunningLines(tx, batch.id, nowMs);
      await ledger.lockHolds(batch.organization_id, references(candidates), tx);
      const moved = await move(tx, nowMs);
      await ledger.releaseByReference(batch.organization_id, references(moved), tx);
    });
  }

  private async validate(batchId: string): Promise<void> {
    const batch = await batchById(this.deps.handle.db, batchId);
    if (batch?.status !== "validating") return;
    await validateBatch(this.deps, batch);
    // Its lines are queued now: every worker may claim them.
    this.deps.cluster.announceBatchWork();
  }

  private async expireUnvalidated(batchId: string): Promise<void> {
    const { db } = this.deps.handle;
    await deleteLines(db, batchId);
    await transition(db, batchId, "validating", "expired", unixSeconds(this.deps.clock));
  }

  private async finalize(
    batchId: string,
    from: "finalizing" | "in_progress" | "cancelling",
    to: "completed" | "expired" | "cancelled",
  ): Promise<void> {
    await finalizeBatch(this.deps, batchId, from, to);
    this.batchEvents.wake();
  }

  /** Runs `work` under the batch lease, unless another worker holds it. */
  private startJob(batchId: string, work: () => Promise<void>): void {
    if (this.jobs.has(batchId)) return;
    const job = (async () => {
      const nowMs = this.deps.clock.now();
      const { db } = this.deps.handle;
      if (!(await claimBatchLease(db, batchId, this.id, nowMs, nowMs + this.leaseMs))) return;
      try {
        await work();
      } finally {
        await releaseBatchLease(db, batchId, this.id);
      }
    })()
      .catch((error: unknown) =>
        this.deps.log.error({ err: error, batch: batchId }, "batch job failed"),
      )
      .finally(() => this.jobs.delete(batchId));
    this.jobs.set(batchId, job);
  }

  private renewLeases(): void {
    const until = this.deps.clock.now() + this.leaseMs;
    const byBatch = new Map<string, number[]>();
    for (const line of this.inFlight.values()) {
      const numbers = byBatch.get(line.batchId) ?? [];
      numbers.push(line.lineNumber);
      byBatch.set(line.batchId, numbers);
    }
    const { db } = this.deps.handle;
    const renewals = [
      extendBatchLeases(db, this.id, [...this.jobs.keys()], until),
      ...[...byBatch].map(([batchId, numbers]) =>
        extendLineLeases(db, this.id, batchId, numbers, until),
      ),
    ];
    this.renewal = Promise.all([this.renewal, ...renewals]).then(
      () => undefined,
      (error: unknown) => this.deps.log.error({ err: error }, "renewing batch leases failed"),
    );
  }

  private async sweepFiles(): Promise<void> {
    const now = this.deps.clock.now();
    if (now - this.lastFileSweep < this.fileSweepMs) return;
    if (!(await this.deps.cluster.leads("files"))) return;
    this.lastFileSweep = now;
    await this.deps.files.sweepExpired();
  }

  private async reconcilePayments(): Promise<void> {
    const { reconciliation, clock, cluster, log } = this.deps;
    const now = clock.now();
    if (!reconciliation || this.reconciling || now - this.lastReconciliation < this.reconcileMs) {
      return;
    }
    if (!(await cluster.leads("payment-reconciliation"))) return;
    this.lastReconciliation = now;
    this.reconciling = reconciliation
      .reconcile()
      .then(
        (report) => {
          // Each is a payment that landed and was not credited when it was presented.
          if (report.credited + report.unclaimed > 0) {
            log.warn({ report }, "reconciliation credited payments found uncredited");
          }
        },
        (error: unknown) => log.error({ err: error }, "reconciling payments failed"),
      )
      .finally(() => {
        this.reconciling = null;
      });
  }
}

/** Waits for `work`, or `ms` at most, without the wait keeping the process alive. */
function within(work: Promise<unknown>, ms: number): Promise<unknown> {
  if (!Number.isFinite(ms)) return work;
  return Promise.race([work, sleep(ms, undefined, { ref: false })]);
}
