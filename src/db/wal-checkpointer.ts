import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type SqliteDatabase from "better-sqlite3";

/** How often the checkpointer copies the write-ahead log into the database file. */
const CHECKPOINT_INTERVAL_MS = 200;
/** SQLite's own default, restored if the checkpointer stops working. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

/**
 * Plain JavaScript, so that it runs in a worker however the service itself was loaded. A
 * passive checkpoint never waits for (or blocks) the service's readers and writers.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file);
// Checkpoints copy pages straight from the log to the file: no page cache worth keeping.
db.pragma("cache_size = -256");
const timer = setInterval(() => db.pragma("wal_checkpoint(PASSIVE)"), workerData.intervalMs);
parentPort.once("message", () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpointer {
  stop(): Promise<void>;
}

/**
 * Moves WAL checkpoints off the request path. Left to itself SQLite checkpoints inside whichever
 * commit crosses 1000 pages, and that commit then waits for the checkpoint's copying and its
 * fsyncs; under load that was about a third of every commit's cost. A worker thread with its own
 * connection checkpoints instead, and should it fail SQLite's own checkpoints come back.
 */
export function startWalCheckpointer(
  sqlite: SqliteDatabase.Database,
  file: string,
): WalCheckpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    // It holds one connection and a timer: a small heap keeps the process's footprint down.
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 },
    workerData: {
      driver: createRequire(import.meta.url).resolve("better-sqlite3"),
      file,
      intervalMs: CHECKPOINT_INTERVAL_MS,
    },
  });
  worker.unref();
  sqlite.pragma("wal_autocheckpoint = 0");
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  worker.once("error", () => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  });
  return {
    async stop() {
      // Unreferenced, the worker's exit alone would not keep this process waiting for it.
      worker.ref();
      worker.postMessage("stop");
      await exited;
    },
  };
}
