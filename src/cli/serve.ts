import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.js";
import type { Config } from "../config/index.js";
import { loadTokenizer } from "../inference/tokens.js";
import { refuseWrongNetwork } from "../payments/network-check.js";
import { startFeedWatcher } from "../research/feeds/feed-watcher.js";
import { createServices, type Services } from "../services.js";
import { closeServices } from "./close-services.js";
import type { Command } from "./command.js";
import { listenFailure } from "./listen-failure.js";
import { createBatchWorker } from "./worker.js";

export interface ServeOptions {
  worker: boolean;
  /** The --config argument, repeated in the next command the start-up log suggests. */
  configFile: string | null;
  /** Called once listening. */
  started?: () => void;
}

export const SERVE: Command = {
  words: ["serve"],
  summary: "run the HTTP API, the dashboard and (unless --no-worker) a batch worker",
  details:
    "Runs until SIGTERM or Ctrl-C, then finishes in-flight requests for shutdown.grace_seconds.",
  flags: [
    { flag: "port", value: "N", description: "port to listen on (default 8080; SIBYL_PORT)" },
    {
      flag: "host",
      value: "H",
      description: "address to listen on (default 127.0.0.1; SIBYL_HOST)",
    },
    {
      flag: "no-worker",
      description: "serve the API only; run batches in `sibyl worker` processes",
    },
  ],
  examples: ["sibyl serve --port 8080", "sibyl serve --config /etc/sibyl/sibyl.yaml --no-worker"],
  usesDatabase: true,
  runsUntilStopped: true,
  run: ({ values, config, configFile, started }) =>
    serve(config, { worker: values["no-worker"] !== true, configFile, started }),
};

/**
 * Runs the API until SIGTERM/SIGINT. Then it stops accepting connections, lets in-flight
 * requests, streams and batch lines finish for up to `shutdown.grace_seconds`, cuts what is
 * left (unfinished batch lines go back to the queue for other workers) and exits.
 */
export async function serve(config: Config, options: ServeOptions): Promise<number> {
  const services = await createServices(config);
  const app = await refuseWrongNetwork(services.topups)
    .then(() => start(services, options))
    .catch(async (error: unknown) => {
      // The start-up failure is what the operator needs to read; closing is best effort.
      await services.close().catch(() => undefined);
      throw error;
    });
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

/** Builds the app and listens; a failure closes the app and names what to change. */
async function start(services: Services, options: ServeOptions): Promise<FastifyInstance> {
  const { host, port } = services.config.server;
  // Every validator compiled before listening: no request pays for compiling its route's.
  const app = await buildApp(services, { compileValidatorsWhenReady: true });
  try {
    await services.holds.start(options.worker ? "serve" : "api", app.log);
    loadTokenizer();
    await app.listen({ host, port });
  } catch (error) {
    await app.close().catch(() => undefined);
    throw listenFailure(error, host, port) ?? error;
  }
  options.started?.();
  await logNextStep(app, services, options.configFile);
  return app;
}

/** Where the dashboard is and the command a newcomer runs next. */
async function logNextStep(
  app: FastifyInstance,
  services: Services,
  configFile: string | null,
): Promise<void> {
  const dashboard = new URL("dashboard/", `${reachableUrl(app, services).replace(/\/+$/, "")}/`)
    .href;
  const config = configFile === null ? "" : ` --config ${quoted(configFile)}`;
  const [first] = await services.organizations.list();
  const next = first
    ? `sibyl${config} dashboard link --org ${first.id}`
    : `sibyl${config} orgs create --name NAME --credits-usd 5`;
  app.log.info(
    { dashboard, next },
    first
      ? `dashboard at ${dashboard}; sign in with: ${next}`
      : `dashboard at ${dashboard}; no organization yet, create one with: ${next}`,
  );
}

/**
 * server.public_url, or with `--port 0` (any free port) the port the system gave: a URL with
 * port 0 reaches nothing.
 */
function reachableUrl(app: FastifyInstance, services: Services): string {
  const url = new URL(services.config.server.public_url);
  const address = app.server.address();
  if (url.port !== "0" || address === null || typeof address === "string") return url.href;
  url.port = String(address.port);
  return url.href;
}

const quoted = (text: string) =>
  /^[\w./:@=-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
