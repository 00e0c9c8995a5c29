import { buildApp } from "../app.js";
import type { Config } from "../config/index.js";
import { createServices } from "../services.js";
import { createBatchWorker } from "./worker.js";

export interface ServeOptions {
  worker: boolean;
}

/** Runs the API until SIGTERM/SIGINT, then drains in-flight requests and exits. */
export async function serve(config: Config, options: ServeOptions): Promise<number> {
  const services = await createServices(config);
  const app = await buildApp(services);
  await services.holds.start(options.worker ? "serve" : "api", app.log);

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
  await batchWorker?.stop();
  await app.close();
  await services.close();
  return 0;
}
