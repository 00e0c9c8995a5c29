import type { ModelConfig } from "../../../src/config/schema.js";
import type { Clock } from "../../../src/util/clock.js";
import { startTestServer, type TestServer } from "../../support/server.js";
import { CARD_SECRET_KEY } from "./fake-card-api.js";

export const PAYMENT_SECRET = "a-test-secret-for-challenge-ids-0123456789";
export const RECIPIENT = "0x742d35cc6634c0532925a3b844bc9e7595f8fe00";
export const PUBLIC_URL = "https://sibyl.test";
export const REALM = "sibyl.test";

/** The server of the payment tests; its configuration file is what `sibyl --config` reads. */
export type TopupServer = TestServer;

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
  return startTestServer({
    config: {
      server: { public_url: PUBLIC_URL },
      payments,
      ...(options.models ? { models: options.models } : {}),
    },
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    services: { env: { TEST_PAYMENT_SECRET: PAYMENT_SECRET, TEST_CARD_KEY: CARD_SECRET_KEY } },
  });
}
