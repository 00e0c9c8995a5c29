import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../support/manual-clock.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { FakeNode } from "./support/fake-node.js";
import {
  challengeFor,
  paymentCredential,
  postTopup,
  type WireChallenge,
} from "./support/payment-flow.js";
import { startTopupServer, type TopupServer } from "./support/topup-server.js";

/** A hash no transaction has: every credential naming one sends the server to the node. */
const bogusHash = (n: number) => `0x${n.toString(16).padStart(64, "c")}`;

/** The node calls one bogus hash costs: the chain identity, then the receipt. */
const CALLS_PER_VERIFICATION = 2;

describe.each(["sqlite", "postgres"] as const)("a flood of bogus credentials, on %s", (dialect) => {
  let node: FakeNode;
  let database: TestDatabase | undefined;
  const servers: TopupServer[] = [];
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 5));

  beforeAll(async () => {
    node = await new FakeNode().start();
    if (dialect === "postgres") database = await createTestDatabase();
  });

  afterAll(async () => {
    for (const server of servers) await server.close();
    await node?.stop();
    await database?.drop();
  });

  async function start(limits: {
    per_address_per_minute?: number;
    per_challenge_per_minute?: number;
  }): Promise<TopupServer> {
    const server = await startTopupServer({
      rpcUrl: node.url,
      clock,
      limits,
      ...(database ? { databaseUrl: database.url } : {}),
    });
    servers.push(server);
    return server;
  }

  async function challenge(server: TopupServer): Promise<WireChallenge> {
    return challengeFor(await postTopup(server.url), "tempo");
  }

  function nodeCallsDuring<T>(work: () => Promise<T>): Promise<{ result: T; calls: number }> {
    const before = node.calls.length;
    return work().then((result) => ({ result, calls: node.calls.length - before }));
  }

  it("asks the node for at most the address's limit, then answers 429 with Retry-After", async () => {
    const server = await start({ per_address_per_minute: 5, per_challenge_per_minute: 1000 });
    const challenges = await Promise.all(Array.from({ length: 40 }, () => challenge(server)));
    const { result: answers, calls } = await nodeCallsDuring(() =>
      Promise.all(
        challenges.map((issued, n) =>
          postTopup(server.url, {
            authorization: paymentCredential(issued, { type: "hash", hash: bogusHash(n) }),
          }),
        ),
      ),
    );
    expect(calls).toBeLessThanOrEqual(5 * CALLS_PER_VERIFICATION);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(35);
    expect(answers.filter((answer) => answer.status === 402)).toHaveLength(5);
    for (const answer of refused) {
      expect(answer.body).toMatchObject({
        error: { code: "payment_rate_limited", type: "rate_limit_error" },
      });
      expect(String((answer.body.error as { message: string }).message)).toContain(
        "from this address",
      );
      const retryAfter = Number(answer.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // Asking for challenges costs nothing and is never refused.
    expect((await postTopup(server.url)).status).toBe(402);
    // Once the minute is over, the address is heard again.
    clock.advanceSeconds(60);
    const next = await challenge(server);
    const heard = await postTopup(server.url, {
      authorization: paymentCredential(next, { type: "hash", hash: bogusHash(999) }),
    });
    expect(heard.status).toBe(402);
  });

  it("asks the node for at most the challenge's limit, however many proofs name it", async () => {
    const server = await start({ per_address_per_minute: 1000, per_challenge_per_minute: 3 });
    const issued = await challenge(server);
    const { result: answers, calls } = await nodeCallsDuring(async () => {
      const all = [];
      for (let n = 0; n < 25; n++) {
        all.push(
          await postTopup(server.url, {
            authorization: paymentCredential(issued, { type: "hash", hash: bogusHash(100 + n) }),
          }),
        );
      }
      return all;
    });
    expect(calls).toBeLessThanOrEqual(3 * CALLS_PER_VERIFICATION);
    expect(answers.slice(0, 3).map((answer) => answer.status)).toEqual([402, 402, 402]);
    for (const answer of answers.slice(3)) {
      expect(answer.status).toBe(429);
      expect(answer.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
      expect(String((answer.body.error as { message: string }).message)).toContain(
        "present it again in",
      );
    }
    // Another challenge of the same payer is not held back by this one.
    const other = await challenge(server);
    const { calls: otherCalls } = await nodeCallsDuring(() =>
      postTopup(server.url, {
        authorization: paymentCredential(other, { type: "hash", hash: bogusHash(500) }),
      }),
    );
    expect(otherCalls).toBe(CALLS_PER_VERIFICATION);
  });

  it("counts forged challenge ids against the address, and asks nobody about them", async () => {
    const server = await start({ per_address_per_minute: 4, per_challenge_per_minute: 1000 });
    clock.advanceSeconds(60);
    const issued = await challenge(server);
    const { result: answers, calls } = await nodeCallsDuring(() =>
      Promise.all(
        Array.from({ length: 10 }, (_, n) =>
          postTopup(server.url, {
            authorization: paymentCredential(
              { ...issued, id: `${issued.id.slice(0, -4)}${String(n).padStart(4, "A")}` },
              { type: "hash", hash: bogusHash(700 + n) },
            ),
          }),
        ),
      ),
    );
    expect(calls).toBe(0);
    expect(answers.filter((answer) => answer.status === 402)).toHaveLength(4);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(6);
  });
});
