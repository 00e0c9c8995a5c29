import { rmSync } from "node:fs";
import { type App, type AppOptions, buildApp } from "../../src/app.js";
import type { Config } from "../../src/config/index.js";
import { createServices, type Services } from "../../src/services.js";
import { writeTestConfig } from "./server.js";

export interface AppServer {
  url: string;
  app: App;
  services: Services;
  config: Config;
  /** A new organization and its API key. */
  createOrg(): Promise<{ organizationId: string; apiKey: string }>;
  close(): Promise<void>;
}

/** The real app on a loopback port, built with the given app options (logger, timeouts). */
export async function startAppServer(options: AppOptions): Promise<AppServer> {
  const { config, dataDir } = writeTestConfig({});
  const services = await createServices(config);
  const app = await buildApp(services, { logger: false, ...options });
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  return {
    url,
    app,
    services,
    config,
    createOrg: async () => {
      const organization = await services.organizations.create("test org");
      const key = await services.apiKeys.issue(organization.id);
      return { organizationId: organization.id, apiKey: key.api_key };
    },
    close: async () => {
      await app.close();
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
