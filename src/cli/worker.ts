import { BatchWorker, type BatchWorkerOptions, type WorkerLog } from "../batches/worker.js";
import type { Config } from "../config/index.js";
import { createServices, type Services } from "../services.js";
import type { CliIo } from "./run.js";

/** A batch worker over the services, told at once about batches created or cancelled here. */
export function createBatchWorker(
  services: Services,
  log: WorkerLog,
  options: Partial<BatchWorkerOptions> = {},
): { worker: BatchWorker; stop(): Promise<void> } {
  const worker = new BatchWorker(
    {
      handle: services.database,
      ledger: services.ledger,
      files: services.files,
      completions: services.completions,
      clock: services.clock,
      knownModel: (id) => services.catalogue.has(id),
      log,
    },
    {
      concurrency: services.config.batches.concurrency,
      priceMultiplier: services.config.batches.price_multiplier,
      leaseMs: services.config.batches.lease_seconds * 1000,
      ...options,
    },
  );
  const unlisten = services.batches.listen(() => worker.notify());
  worker.start();
  return {
    worker,
    stop: async () => {
      unlisten();
      await worker.stop();
    },
  };
}

/** Structured error lines on stderr, for the worker-only process that has no HTTP logger. */
export function stderrLog(io: CliIo): WorkerLog {
  return {
    error: (details, message) => {
      const fields = Object.fromEntries(
        Object.entries(details).map(([key, value]) => [
          key,
          value instanceof Error ? { message: value.message, stack: value.stack } : value,
        ]),
      );
      io.stderr(JSON.stringify({ level: "error", time: Date.now(), msg: message, ...fields }));
    },
  };
}

/** `sibyl worker`: runs batches until SIGTERM/SIGINT, then lets running lines finish. */
export async function runWorker(config: Config, io: CliIo): Promise<number> {
  const services = await createServices(config);
  const log = stderrLog(io);
  await services.holds.start("worker", log);
  const running = createBatchWorker(services, log);
  await new Promise<void>((resolve) => {
    process.once("SIGTERM", () => resolve());
    process.once("SIGINT", () => resolve());
  });
  await running.stop();
  await services.close();
  return 0;
}
