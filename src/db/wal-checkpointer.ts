import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type SqliteDatabase from "better-sqlite3";
import type { ConnectionTurns } from "./connection-turns.js";

/** How often the checkpointer copies the write-ahead log into the database file. */
const CHECKPOINT_INTERVAL_MS = 200;
/** SQLite's own default, restored if the checkpointer stops working. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
/** A log this many frames long (4 KiB pages: 64 MiB) starts over while the service waits. */
const DEFAULT_RESTART_FRAMES = 16_384;
/** How long starting the log over waits for another process's write or read before giving up. */
const RESTART_LOCK_WAIT_MS = 250;

/**
 * Plain JavaScript, so that it runs in a worker however the service itself was loaded. A
 * passive checkpoint never waits for (or blocks) the service's readers and writers. It reports
 * a log that keeps growing, and starts it over when the service says it has stopped writing.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: workerData.lockWaitMs });
// Checkpoints copy pages straight from the log to the file: no page cache worth keeping.
db.pragma("cache_size = -256");
const checkpoint = (mode) => db.pragma("wal_checkpoint(" + mode + ")")[0];
const timer = setInterval(() => {
  if (checkpoint("PASSIVE").log >= workerData.restartFrames) parentPort.postMessage("long");
}, workerData.intervalMs);
parentPort.on("message", (message) => {
  if (message === "restart") {
    try {
      // Not TRUNCATE: the file is rewritten from its start, without giving its blocks back
      // to the file system only to take them again.
      checkpoint("RESTART");
    } catch {
      // Another process held its lock too long: the log stays long and is reported again.
    }
    parentPort.postMessage("restarted");
    return;
  }
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpointer {
  stop(): Promise<void>;
}

export interface WalCheckpointerOptions {
  /** Log length, in frames, at which the service pauses its statements to restart the log. */
  restartFrames?: number;
}

/**
 * Moves WAL checkpoints off the request path. Left to itself SQLite checkpoints inside whichever
 * commit crosses 1000 pages, and that commit then waits for the checkpoint's copying and its
 * fsyncs; under load that was about a third of every commit's cost. A worker thread with its own
 * connection checkpoints instead, and should it fail SQLite's own checkpoints come back.
 *
 * A passive checkpoint copies the log but cannot start it over: only a commit that finds every
 * frame already copied does that. Under a steady stream of commits there is always one made
 * since the last checkpoint began, so the log would grow by every page written, for as long as
 * the stream lasts (gigabytes in a day of traffic). Once it is long, the service takes its
 * connection's turn, so no statement of its own runs, while the worker copies what is left and
 * starts the log over. The event loop never blocks; the pause is two fsyncs (the log's, then
 * the file's), about 10 ms on a slow disk, once every 64 MiB of writes.
 */
export function startWalCheckpointer(
  sqlite: SqliteDatabase.Database,
  file: string,
  turns: ConnectionTurns,
  options: WalCheckpointerOptions = {},
): WalCheckpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    // It holds one connection and a timer: a small heap keeps the process's footprint down.
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 },
    workerData: {
      driver: createRequire(import.meta.url).resolve("better-sqlite3"),
      file,
      intervalMs: CHECKPOINT_INTERVAL_MS,
      restartFrames: options.restartFrames ?? DEFAULT_RESTART_FRAMES,
      lockWaitMs: RESTART_LOCK_WAIT_MS,
    },
  });
  worker.unref();
  sqlite.pragma("wal_autocheckpoint = 0");
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  worker.once("error", () => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  });

  let restarting = false;
  let restarted: (() => void) | null = null;
  const restartLog = async () => {
    const waiting = turns.take();
    if (waiting) await waiting;
    try {
      // A worker that has exited never answers; its exit ends the wait at once.
      const done = new Promise<void>((resolve) => {
        restarted = resolve;
      });
      worker.postMessage("restart");
      await Promise.race([done, exited]);
    } finally {
      restarted = null;
      restarting = false;
      turns.give();
    }
  };
  worker.on("message", (message) => {
    if (message === "restarted") restarted?.();
    else if (message === "long" && !restarting) {
      restarting = true;
      void restartLog();
    }
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
