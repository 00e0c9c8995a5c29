import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../support/postgres.js";
import { createTestDatabase } from "../support/postgres.js";
import { type BurstResult, burst, FLAT_CALL_NANOS, flatModel } from "./support/burst.js";
import { type CompletionsEnv, startCompletionsEnv } from "./support/env.js";
import { balanceNanos, charges, decimalUsd } from "./support/money.js";

const REQUESTS = 60;
const AFFORDABLE = 10;

describe.each(["sqlite", "postgres"] as const)("concurrent requests on %s", (database) => {
  let env: CompletionsEnv;
  let postgres: TestDatabase | null = null;

  beforeAll(async () => {
    postgres = database === "postgres" ? await createTestDatabase() : null;
    env = await startCompletionsEnv({
      models: (url) => [flatModel(url)],
      ...(postgres ? { databaseUrl: postgres.url } : {}),
    });
  });
  afterAll(async () => {
    await env?.close();
    await postgres?.drop();
  });

  it(`never overdraw: credits for ${AFFORDABLE} worst cases serve ${AFFORDABLE} of ${REQUESTS}`, async () => {
    const org = await env.org(decimalUsd(AFFORDABLE * FLAT_CALL_NANOS));
    const result: BurstResult = await burst(env, org.apiKey, org.organizationId, REQUESTS);

    expect(result.other).toEqual([]);
    expect(result.lowestBalance).toBeGreaterThanOrEqual(0);
    expect(result.succeeded).toBe(AFFORDABLE);
    expect(result.refused).toBe(REQUESTS - AFFORDABLE);
    expect(env.fake.requests).toHaveLength(AFFORDABLE);

    const entries = await charges(env.server.services, org.organizationId);
    expect(entries).toHaveLength(AFFORDABLE);
    expect(entries.every((entry) => entry.amount_nanos === -FLAT_CALL_NANOS)).toBe(true);
    expect(entries.every((entry) => entry.balance_after_nanos >= 0)).toBe(true);
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(0);
  });

  it("serve everyone when the credits suffice", async () => {
    const org = await env.org(decimalUsd(REQUESTS * FLAT_CALL_NANOS));
    env.fake.reset();
    const result = await burst(env, org.apiKey, org.organizationId, REQUESTS);
    expect(result.other).toEqual([]);
    expect(result.succeeded).toBe(REQUESTS);
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(0);
  });
});
