import { buildApp } from "../app.js";
import type { Config } from "../config/index.js";
import { createServices } from "../services.js";
import { createBatchWorker } from "./worker.js";

/** Holds older than this belong to requests that can no longer be running. */
const STALE_RESERVATION_SECONDS = 3600;
const SWEEP_INTERVAL_MS = 60_000;

export interface ServeOptions {
  worker: boolean;
}

/** Runs the API until SIGTERM/SIGINT, then drains in-flight requests and exits. */
export async function serve(config: Config, options: ServeOptions): Promise<number> {
  const services = await createServices(config);
  const app = await buildApp(services);
  const sweeper = setInterval(() => {
    services.ledger
      .releaseStale(STALE_RESERVATION_SECONDS)
      .catch((error: unknown) => app.log.error({ err: error }, "reservation sweep failed"));
  }, SWEEP_INTERVAL_MS);
  sweeper.unref();

  await app.listen({ host: config.server.host, port: config.server.port });
  const batchWorker = options.worker ? createBatchWorker(services, app.log) : null;

  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      app.log.info({ signal }, "shutting down");
      resolve();
    };
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGINT", () => stop("SIGINT"));
  });
  clearInterval(sweeper);
  await batchWorker?.stop();
  await app.close();
  await services.close();
  return 0;
}
