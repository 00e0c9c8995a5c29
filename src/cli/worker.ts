import { BatchWorker, type BatchWorkerOptions, type WorkerLog } from "../batches/worker.js";
import type { Config } from "../config/index.js";
import { loadTokenizer } from "../inference/tokens.js";
import { jsonLinesFeedLog, startFeedWatcher } from "../research/feeds/feed-watcher.js";
import { createServices, type Services } from "../services.js";
import { closeServices } from "./close-services.js";
import type { CliIo, Command } from "./command.js";

/**
 * Announcements wake workers at once; with several processes on PostgreSQL they come by NOTIFY,
 * so polling is only the slow fallback there.
 */
const FALLBACK_POLL_MS = { sqlite: 250, postgres: 2_000 } as const;

/** A batch worker over the services, told at once about batches created or cancelled anywhere. */
export function createBatchWorker(
  services: Services,
  log: WorkerLog,
  options: Partial<BatchWorkerOptions> = {},
): { worker: BatchWorker; stop(graceMs?: number): Promise<void> } {
  const worker = new BatchWorker(
    {
      handle: services.database,
      ledger: services.ledger,
      files: services.files,
      completions: services.completions,
      clock: services.clock,
      cluster: services.cluster,
      knownModel: (id) => services.catalogue.has(id),
      reconciliation: services.reconciliation,
      log,
    },
    {
      concurrency: services.config.batches.concurrency,
      priceMultiplier: services.config.batches.price_multiplier,
      leaseMs: services.config.batches.lease_seconds * 1000,
      maxAttempts: services.config.batches.max_attempts,
      pollMs: FALLBACK_POLL_MS[services.database.dialect],
      ...options,
    },
  );
  const unlisten = services.cluster.onBatchWork(() => worker.notify());
  worker.start();
  return {
    worker,
    stop: async (graceMs) => {
      unlisten();
      await worker.stop(graceMs);
    },
  };
}

/** Structured log lines on stderr, for the worker-only process that has no HTTP logger. */
export function stderrLog(io: CliIo): WorkerLog {
  const write = (level: "error" | "warn") => (details: object, message: string) => {
    const fields = Object.fromEntries(
      Object.entries(details).map(([key, value]) => [
        key,
        value instanceof Error ? { message: value.message, stack: value.stack } : value,
      ]),
    );
    io.stderr(JSON.stringify({ level, time: Date.now(), msg: message, ...fields }));
  };
  return { error: write("error"), warn: write("warn") };
}

export const WORKER: Command = {
  words: ["worker"],
  summary: "run the batch worker only (and the news feed watcher)",
  details: "Scale batches out with several workers next to `sibyl serve --no-worker`.",
  flags: [],
  examples: ["sibyl worker --config /etc/sibyl/sibyl.yaml"],
  usesDatabase: true,
  runsUntilStopped: true,
  run: ({ config, io, started }) => runWorker(config, io, started),
};

/**
 * `sibyl worker`: runs batches until SIGTERM/SIGINT, then lets running lines finish for up to
 * `shutdown.grace_seconds` and hands the rest back to the queue for other workers.
 */
export async function runWorker(config: Config, io: CliIo, started?: () => void): Promise<number> {
  const services = await createServices(config);
  const log = stderrLog(io);
  await services.holds.start("worker", log);
  loadTokenizer();
  const running = createBatchWorker(services, log);
  const feeds = startFeedWatcher(
    config.news.feeds,
    services.database.db,
    services.clock,
    jsonLinesFeedLog(io.stderr),
  );
  const signalled = new Promise<void>((resolve) => {
    process.once("SIGTERM", () => resolve());
    process.once("SIGINT", () => resolve());
  });
  const note = (msg: string) =>
    io.stderr(JSON.stringify({ level: "info", time: Date.now(), msg, worker: running.worker.id }));
  started?.();
  note("worker started");
  await signalled;
  note("worker stopping");
  await feeds?.stop();
  await running.stop(config.shutdown.grace_seconds * 1000);
  await closeServices(services, log);
  note("worker stopped");
  return 0;
}
