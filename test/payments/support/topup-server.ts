import { rmSync } from "node:fs";
import path from "node:path";
import { type App, buildApp } from "../../../src/app.js";
import type { Config } from "../../../src/config/index.js";
import type { ModelConfig } from "../../../src/config/schema.js";
import { createServices, type Services } from "../../../src/services.js";
import type { Clock } from "../../../src/util/clock.js";
import { writeTestConfig } from "../../support/server.js";
import { CARD_SECRET_KEY } from "./fake-card-api.js";

export const PAYMENT_SECRET = "a-test-secret-for-challenge-ids-0123456789";
export const RECIPIENT = "0x742d35cc6634c0532925a3b844bc9e7595f8fe00";
export const PUBLIC_URL = "https://sibyl.test";
export const REALM = "sibyl.test";

export interface TopupServer {
  url: string;
  app: App;
  services: Services;
  config: Config;
  /** The configuration file, as `sibyl --config` reads it, and the data directory it uses. */
  configFile: string;
  dataDir: string;
  close(): Promise<void>;
}

export interface TopupServerOptions {
  rpcUrl?: string;
  cardApiBase?: string;
  /** Wire names of the rails (default: the registered `tempo` and `stripe`). */
  methods?: { chain?: string; card?: string };
  clock?: Clock;
  databaseUrl?: string;
  /** Models beside the defaults' (a priced one lets an organization run out of credits). */
  models?: ModelConfig[];
  /** `payments.limits`: credentials a minute per client address and per challenge. */
  limits?: { per_address_per_minute?: number; per_challenge_per_minute?: number };
}

/** The real app on loopback with both rails pointing at fakes; the secrets come from `env`. */
export async function startTopupServer(options: TopupServerOptions): Promise<TopupServer> {
  const payments: Record<string, unknown> = {
    secret_env: "TEST_PAYMENT_SECRET",
    ...(options.limits ? { limits: options.limits } : {}),
  };
  if (options.rpcUrl) {
    payments.chain = {
      ...(options.methods?.chain ? { method: options.methods.chain } : {}),
      rpc_url: options.rpcUrl,
      recipient: RECIPIENT,
      timeout_ms: 2000,
    };
  }
  if (options.cardApiBase) {
    payments.card = {
      ...(options.methods?.card ? { method: options.methods.card } : {}),
      api_base: options.cardApiBase,
      secret_key_env: "TEST_CARD_KEY",
      network_id: "profile_test",
      timeout_ms: 2000,
    };
  }
  const { config, dataDir } = writeTestConfig({
    config: {
      server: { public_url: PUBLIC_URL },
      payments,
      ...(options.models ? { models: options.models } : {}),
    },
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
  });
  const services = await createServices(config, {
    env: { TEST_PAYMENT_SECRET: PAYMENT_SECRET, TEST_CARD_KEY: CARD_SECRET_KEY },
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const app = await buildApp(services, { logger: false });
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  return {
    url,
    app,
    services,
    config,
    configFile: path.join(dataDir, "sibyl.yaml"),
    dataDir,
    close: async () => {
      await app.close();
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
