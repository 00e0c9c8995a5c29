import { rmSync } from "node:fs";
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
  close(): Promise<void>;
}

export interface TopupServerOptions {
  rpcUrl?: string;
  cardApiBase?: string;
  /** Wire names of the rails (default `chain` and `card`). */
  methods?: { chain?: string; card?: string };
  clock?: Clock;
  databaseUrl?: string;
  /** Models beside the defaults' (a priced one lets an organization run out of credits). */
  models?: ModelConfig[];
}

/** The real app on loopback with both rails pointing at fakes; the secrets come from `env`. */
export async function startTopupServer(options: TopupServerOptions): Promise<TopupServer> {
  const payments: Record<string, unknown> = { secret_env: "TEST_PAYMENT_SECRET" };
  if (options.rpcUrl) {
    payments.chain = {
      method: options.methods?.chain ?? "chain",
      rpc_url: options.rpcUrl,
      recipient: RECIPIENT,
      timeout_ms: 2000,
    };
  }
  if (options.cardApiBase) {
    payments.card = {
      method: options.methods?.card ?? "card",
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
    close: async () => {
      await app.close();
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
