import { buildApp } from "../app.js";
import type { Config } from "../config/index.js";
import { loadTokenizer } from "../inference/tokens.js";
import { startFeedWatcher } from "../research/feeds/feed-watcher.js";
import { createServices } from "../services.js";
import { closeServices } from "./close-services.js";
import { createBatchWorker } from "./worker.js";

export interface ServeOptions {
  worker: boolean;
}

/**
 * Runs the API until SIGTERM/SIGINT. Then it stops accepting connections, lets in-flight
 * requests, streams and batch lines finish for up to `shutdown.grace_seconds`, cuts what is
 * left (unfinished batch lines go back to the queue for other workers) and exits.
 */
export async function serve(config: Config, options: ServeOptions): Promise<number> {
  const services = await createServices(config);
  const app = await buildApp(services);
  await services.holds.start(options.worker ? "serve" : "api", app.log);
  loadTokenizer();

  await app.listen({ host: config.server.host, port: config.server.port });
  const batchWorker = options.worker ? createBatchWorker(services, app.log) : null;
  // Background work runs where the batch worker does: API-only processes stay lean.
  const feeds = options.worker
    ? startFeedWatcher(config.news.feeds, services.database.db, services.clock, app.log)
    : null;

  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      app.log.info({ signal }, "shutting down");
      resolve();
    };
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGINT", () => stop("SIGINT"));
  });
  const graceMs = config.shutdown.grace_seconds * 1000;
  const cut = setTimeout(() => app.server.closeAllConnections(), graceMs);
  cut.unref();
  await feeds?.stop();
  await Promise.all([app.close(), batchWorker?.stop(graceMs)]);
  clearTimeout(cut);
  await closeServices(services, app.log);
  return 0;
}
