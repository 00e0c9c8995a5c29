import { ConfigError } from "../config/index.js";
import { ServiceError } from "../errors.js";
import type { Topups } from "./topups.js";

/**
 * A process refuses to start when a rail's network is not the configured one (a node of another
 * chain would have its transfers credited as this one's). A node that cannot be reached does not
 * stop the start: every credit asks it again first.
 */
export async function refuseWrongNetwork(topups: Topups | null): Promise<void> {
  try {
    await topups?.checkNetworks();
  } catch (error) {
    if (error instanceof ServiceError && error.code === "payment_network_mismatch") {
      throw new ConfigError(`invalid configuration at payments.chain: ${error.message}`);
    }
  }
}
