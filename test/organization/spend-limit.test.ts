import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Reservation } from "../../src/billing/ledger.js";
import { ServiceError } from "../../src/errors.js";
import type { Services } from "../../src/services.js";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "../completions/support/env.js";
import { rejection } from "../completions/support/errors.js";
import { BOTH_DATABASES, type DatabaseUnderTest } from "../support/databases.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { createKey } from "./support/api.js";

const HOLD = 1_000_000;

async function spentNanos(services: Services, keyId: string): Promise<number> {
  const row = await services.database.db.query
    .selectFrom("api_keys")
    .select("spent_nanos")
    .where("id", "=", keyId)
    .executeTakeFirstOrThrow();
  return row.spent_nanos;
}

/** A hold, or the code of the 402 (credits) or 403 (the key's limit) that refused it. */
async function tryHold(services: Services, orgId: string, keyId: string, nanos = HOLD) {
  try {
    return await services.ledger.reserve(orgId, nanos, null, undefined, keyId);
  } catch (error) {
    if (
      error instanceof ServiceError &&
      ["insufficient_credits", "forbidden"].includes(error.kind)
    ) {
      return error.code;
    }
    throw error;
  }
}

describe.each(BOTH_DATABASES)("key spend limits in the ledger on $name", (kind) => {
  let database: DatabaseUnderTest;
  /** On PostgreSQL three pools stand in for three processes. */
  let pools: Services[];
  const main = () => pools[0] as Services;

  beforeAll(async () => {
    database = await kind.create();
    const first = await database.open();
    pools =
      kind.name === "postgres" ? [first, await database.open(), await database.open()] : [first];
  });
  afterAll(async () => {
    await database?.dispose();
  });

  async function limitedKey(limitNanos: number, creditNanos = 1_000 * HOLD) {
    const org = await main().organizations.create(`limits ${kind.name}`);
    await main().ledger.credit(org.id, creditNanos, "topup");
    const key = await main().apiKeys.issue(org.id, undefined, {
      scope: "inference",
      spendLimitNanos: limitNanos,
    });
    return { orgId: org.id, keyId: key.api_key_id };
  }

  it("lets exactly 5 of 20 racing holds through a limit of 5 holds", async () => {
    const { orgId, keyId } = await limitedKey(5 * HOLD);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        tryHold(pools[i % pools.length] as Services, orgId, keyId),
      ),
    );
    const held = outcomes.filter((outcome): outcome is Reservation => typeof outcome !== "string");
    expect(held).toHaveLength(5);
    expect(outcomes.filter((outcome) => outcome === "key_spend_limit_reached")).toHaveLength(15);
    expect(await spentNanos(main(), keyId)).toBe(5 * HOLD);
    // The organization paid for exactly the five holds.
    expect(await main().ledger.balance(orgId)).toBe(995 * HOLD);

    // Settled below, at and above the hold: the key's spend becomes what was charged.
    const costs = [HOLD / 2, HOLD, 3 * HOLD, 0, HOLD / 4];
    const settled = await Promise.all(
      held.map((hold, i) =>
        (pools[i % pools.length] as Services).ledger.settle(hold, costs[i] ?? 0, {
          usage: { apiKeyId: keyId, model: "m", inputTokens: 1, outputTokens: 1 },
        }),
      ),
    );
    const charged = settled.reduce((sum, settlement) => sum + settlement.chargedNanos, 0);
    expect(charged).toBeLessThanOrEqual(5 * HOLD);
    expect(await spentNanos(main(), keyId)).toBe(charged);
    const recorded = await main()
      .database.db.query.selectFrom("usage_records")
      .select((eb) => eb.fn.sum<number>("cost_nanos").as("cost"))
      .where("api_key_id", "=", keyId)
      .executeTakeFirstOrThrow();
    expect(Number(recorded.cost)).toBe(charged);
  });

  it("charges a cost above the hold only up to the key's limit", async () => {
    const { orgId, keyId } = await limitedKey(1.5 * HOLD);
    const hold = await main().ledger.reserve(orgId, HOLD, null, undefined, keyId);
    const settlement = await main().ledger.settle(hold, 2 * HOLD);
    expect(settlement.chargedNanos).toBe(1.5 * HOLD);
    expect(await spentNanos(main(), keyId)).toBe(1.5 * HOLD);
    expect(await tryHold(main(), orgId, keyId, 1)).toBe("key_spend_limit_reached");
  });

  it("returns a released hold to the key, and keeps the key untouched when credits run short", async () => {
    const { orgId, keyId } = await limitedKey(2 * HOLD, HOLD);
    const hold = await main().ledger.reserve(orgId, HOLD, "work-1", undefined, keyId);
    expect(await spentNanos(main(), keyId)).toBe(HOLD);
    await main().ledger.releaseByReference(orgId, ["work-1"]);
    expect(await spentNanos(main(), keyId)).toBe(0);
    await main().ledger.release(hold);
    expect(await spentNanos(main(), keyId)).toBe(0);

    // Room under the limit but not in the balance: the whole hold is undone.
    expect(await tryHold(main(), orgId, keyId, 2 * HOLD)).toBe("insufficient_credits");
    expect(await spentNanos(main(), keyId)).toBe(0);
    expect(await main().ledger.balance(orgId)).toBe(HOLD);
  });
});

describe.each(BOTH_DATABASES)("key spend limits over HTTP on $name", (kind) => {
  let env: CompletionsEnv;
  let postgres: TestDatabase | null = null;

  beforeAll(async () => {
    postgres = kind.name === "postgres" ? await createTestDatabase() : null;
    env = await startCompletionsEnv(postgres ? { databaseUrl: postgres.url } : {});
  });
  afterAll(async () => {
    await env?.close();
    await postgres?.drop();
  });

  const ask = {
    model: MODEL,
    max_tokens: 200,
    messages: [{ role: "user" as const, content: "Will it rain tomorrow?" }],
  };

  /** The hold one request takes: read from a first request's reservation. */
  async function worstCaseNanos(adminKey: string): Promise<number> {
    const probe = await createKey(env.server.url, adminKey, { spend_limit_usd: 100 });
    env.fake.enqueue({ usage: { prompt_tokens: 1, completion_tokens: 1 } });
    await env.client(probe.value).chat.completions.create(ask);
    const row = await env.server.services.database.db.query
      .selectFrom("reservations")
      .select("amount_nanos")
      .where("api_key_id", "=", probe.id)
      .executeTakeFirstOrThrow();
    env.fake.reset();
    return row.amount_nanos;
  }

  it("never lets 20 concurrent requests take a key past its limit (403 names the limit)", async () => {
    const org = await env.org("10");
    const worst = await worstCaseNanos(org.apiKey);
    // Room for three and a half worst cases; each request really costs half of one.
    const limitNanos = Math.floor(3.5 * worst);
    const limitUsd = limitNanos / 1e9;
    const key = await createKey(env.server.url, org.apiKey, { spend_limit_usd: limitUsd });
    const tokens = Math.floor(worst / 2 / 2_000);
    env.fake.setDefault({
      usage: { prompt_tokens: 0, completion_tokens: tokens },
      headersDelayMs: 50,
    });

    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        env
          .client(key.value)
          .chat.completions.create(ask)
          .then(() => "ok")
          .catch(async (error: unknown) => {
            const refused = await rejection(Promise.reject(error));
            expect(refused.status).toBe(403);
            expect(refused.code).toBe("key_spend_limit_reached");
            expect(refused.message).toContain(`$${limitUsd}`);
            return "refused";
          }),
      ),
    );
    const served = outcomes.filter((outcome) => outcome === "ok").length;
    expect(served).toBeGreaterThanOrEqual(3);
    expect(outcomes.filter((outcome) => outcome === "refused").length).toBeGreaterThan(0);
    // Only the requests that were let through reached the model.
    expect(env.fake.requests).toHaveLength(served);

    const services = env.server.services;
    const spent = await spentNanos(services, key.id);
    const costs = await services.database.db.query
      .selectFrom("usage_records")
      .select("cost_nanos")
      .where("api_key_id", "=", key.id)
      .execute();
    const charged = costs.reduce((sum, row) => sum + row.cost_nanos, 0);
    expect(costs).toHaveLength(served);
    expect(charged).toBe(served * tokens * 2_000);
    expect(spent).toBe(charged);
    expect(spent).toBeLessThanOrEqual(limitNanos);
    env.fake.reset();
  });

  it("refuses a key at its limit before calling the model, while other keys go on", async () => {
    const org = await env.org("10");
    const worst = await worstCaseNanos(org.apiKey);
    const key = await createKey(env.server.url, org.apiKey, { spend_limit_usd: (worst - 1) / 1e9 });
    const refused = await rejection(env.client(key.value).chat.completions.create(ask));
    expect(refused.status).toBe(403);
    expect(refused.code).toBe("key_spend_limit_reached");
    expect(env.fake.requests).toHaveLength(0);
    expect(await spentNanos(env.server.services, key.id)).toBe(0);

    env.fake.enqueue({ usage: { prompt_tokens: 1, completion_tokens: 1 } });
    await env.client(org.apiKey).chat.completions.create(ask);
    expect(env.fake.requests).toHaveLength(1);
    env.fake.reset();
  });
});
