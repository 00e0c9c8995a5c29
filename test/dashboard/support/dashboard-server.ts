import { rmSync } from "node:fs";
import { type App, buildApp } from "../../../src/app.js";
import { createBatchWorker } from "../../../src/cli/worker.js";
import type { Services } from "../../../src/services.js";
import { createServices } from "../../../src/services.js";
import type { Clock } from "../../../src/util/clock.js";
import { usdToNanos } from "../../../src/util/money.js";
import { writeTestConfig } from "../../support/server.js";
import { silentLog } from "../../support/silent-log.js";

export interface DashboardServerOptions {
  /** A dashboard build; default the checkout's dist/web. */
  dashboardDir?: string;
  config?: Record<string, unknown>;
  databaseUrl?: string;
  clock?: Clock;
  /** Run a batch worker in the same process. */
  worker?: boolean;
}

export interface DashboardServer {
  url: string;
  app: App;
  services: Services;
  /** A new organization with an admin key and `usd` of credits. */
  createOrg(usd?: string): Promise<{ organizationId: string; apiKey: string; apiKeyId: string }>;
  close(): Promise<void>;
}

/** The real app on a loopback port, serving the given dashboard build. */
export async function startDashboardServer(
  options: DashboardServerOptions = {},
): Promise<DashboardServer> {
  const { config, dataDir } = writeTestConfig({
    config: options.config ?? {},
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
  });
  const services = await createServices(config, options.clock ? { clock: options.clock } : {});
  const app = await buildApp(services, {
    logger: false,
    ...(options.dashboardDir ? { dashboard: { dir: options.dashboardDir } } : {}),
  });
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  const worker = options.worker ? createBatchWorker(services, silentLog, { pollMs: 20 }) : null;
  return {
    url,
    app,
    services,
    createOrg: async (usd = "0") => {
      const organization = await services.organizations.create("dashboard org");
      const key = await services.apiKeys.issue(organization.id);
      const nanos = usdToNanos(usd);
      if (nanos > 0) await services.ledger.credit(organization.id, nanos, "topup");
      return { organizationId: organization.id, apiKey: key.api_key, apiKeyId: key.api_key_id };
    },
    close: async () => {
      await worker?.stop();
      await app.close();
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
