import type { WorkerLog } from "../../src/batches/worker.js";

/** A logger for workers and hold keepers whose reports a test does not read. */
export const silentLog: WorkerLog = { error: () => undefined, warn: () => undefined };
