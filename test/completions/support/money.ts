import type { Services } from "../../../src/services.js";
import { PRICE } from "./env.js";

/** Nano-dollars of a call billed at the test model's prices. */
export function costNanos(promptTokens: number, completionTokens: number): number {
  return promptTokens * PRICE.promptNanos + completionTokens * PRICE.completionNanos;
}

/** Dollars as the API reports them for a nano-dollar amount. */
export function usd(nanos: number): number {
  return nanos / 1e9;
}

/** A nano-dollar amount as the decimal string organizations are credited with. */
export function decimalUsd(nanos: number): string {
  const whole = Math.floor(nanos / 1e9);
  const fraction = String(nanos % 1e9).padStart(9, "0");
  return `${whole}.${fraction}`;
}

/** The balance as `GET /v1/balance` reports it, in nano-dollars. */
export async function balanceNanos(baseUrl: string, apiKey: string): Promise<number> {
  const response = await fetch(`${baseUrl}/v1/balance`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  if (response.status !== 200) throw new Error(`balance answered ${response.status}`);
  const body = (await response.json()) as { balance_dollars: number };
  return Math.round(body.balance_dollars * 1e9);
}

/** The organization's charge entries (top-ups and other movements left out). */
export async function charges(services: Services, organizationId: string) {
  const entries = await services.ledger.entries(organizationId);
  return entries.filter((entry) => entry.kind === "charge");
}
