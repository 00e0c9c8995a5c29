import { isDatabaseOutage } from "../cluster/database-outage.js";
import type { Services } from "../services.js";

export interface ShutdownLog {
  warn(details: object, message: string): void;
}

/**
 * Closes the services at the end of a `serve` or `worker` shutdown. With the database away, what
 * the process still owns there (its credit leases, open holds, heartbeat row) cannot be given
 * back now: a live process returns it once the heartbeat is `batches.lease_seconds` old, as it
 * does for a killed process. Nothing is lost and the shutdown is still clean, so that is a
 * warning; any other failure is not.
 */
export async function closeServices(services: Services, log: ShutdownLog): Promise<void> {
  try {
    await services.close();
  } catch (error) {
    const failures = error instanceof AggregateError ? error.errors : [error];
    if (!failures.every(isDatabaseOutage)) throw error;
    log.warn(
      { err: error },
      "database unreachable while shutting down: this process's leases and holds come back " +
        "once its heartbeat is batches.lease_seconds old",
    );
  }
}
