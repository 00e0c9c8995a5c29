import { ConfigError } from "../config/index.js";
import type { PaymentsConfig } from "../config/resolved.js";
import { HttpCardProcessor } from "./card/card-api.js";
import { CardPaymentRail } from "./card/card-rail.js";
import { ChallengeSigner, MIN_SECRET_BYTES } from "./challenge.js";
import type { PaymentRail } from "./rail.js";

/** The configured rails, in the order their challenges are offered, and the challenge signer. */
export interface PaymentSetup {
  signer: ChallengeSigner;
  rails: PaymentRail[];
}

/**
 * Reads the secrets the configuration names; a missing or short one stops the start. The chain
 * rail is loaded only when configured: its EVM library costs every other process ~30 MB.
 */
export async function createPaymentSetup(
  config: PaymentsConfig,
  env: Record<string, string | undefined>,
): Promise<PaymentSetup> {
  const secret = env[config.secret_env] ?? "";
  if (Buffer.byteLength(secret, "utf8") < MIN_SECRET_BYTES) {
    throw new ConfigError(
      `invalid configuration at payments.secret_env: ${config.secret_env} must hold a secret of at least ${MIN_SECRET_BYTES} bytes`,
    );
  }
  const rails: PaymentRail[] = [];
  if (config.chain) {
    const [{ ChainPaymentRail }, { HttpJsonRpcTransport }] = await Promise.all([
      import("./chain/chain-rail.js"),
      import("./chain/json-rpc.js"),
    ]);
    const node = new HttpJsonRpcTransport(config.chain.rpc_url, config.chain.timeout_ms);
    rails.push(new ChainPaymentRail(config.chain, node));
  }
  if (config.card) {
    const secretKey = env[config.card.secret_key_env];
    if (!secretKey) {
      throw new ConfigError(
        `invalid configuration at payments.card.secret_key_env: ${config.card.secret_key_env} is not set`,
      );
    }
    const processor = new HttpCardProcessor({
      apiBase: config.card.api_base,
      secretKey,
      apiVersion: config.card.api_version,
      timeoutMs: config.card.timeout_ms,
    });
    rails.push(new CardPaymentRail(config.card, processor));
  }
  return { signer: new ChallengeSigner(secret), rails };
}
