import fc from "fast-check";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../support/manual-clock.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { FakeNode } from "./support/fake-node.js";
import {
  attributionMemo,
  challengeFor,
  paymentCredential,
  postTopup,
} from "./support/payment-flow.js";
import { RECIPIENT, startTopupServer, type TopupServer } from "./support/topup-server.js";

const PAYER = "0x6666666666666666666666666666666666666666";

type Step =
  | { kind: "pay"; refill: boolean; late: boolean }
  | { kind: "present" | "crash" | "land" | "race"; payment: number; withKey: boolean }
  | { kind: "reconcile" }
  | { kind: "wait"; seconds: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("pay" as const), refill: fc.boolean(), late: fc.boolean() }),
  fc.record({
    kind: fc.constantFrom("present" as const, "crash" as const, "land" as const, "race" as const),
    payment: fc.nat(7),
    withKey: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("reconcile" as const) }),
  fc.record({ kind: fc.constant("wait" as const), seconds: fc.constantFrom(10, 40, 400, 90_000) }),
);

interface Payment {
  hash: Hex;
  authorization: string;
  landed: boolean;
}

describe.each(["sqlite", "postgres"] as const)("any sequence of payments, on %s", (dialect) => {
  let node: FakeNode;
  let database: TestDatabase | null = null;
  let server: TopupServer;
  let refillKey: string;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    node = await new FakeNode().start();
    node.now = () => clock.now();
    if (dialect === "postgres") database = await createTestDatabase();
    server = await startTopupServer({
      rpcUrl: node.url,
      clock,
      ...(database ? { databaseUrl: database.url } : {}),
    });
    const organization = await server.services.accounts.open({ name: "refilled" });
    refillKey = organization.key.api_key;
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
    await node?.stop();
  });

  const reconcile = () => {
    const reconciliation = server.services.reconciliation;
    if (!reconciliation) throw new Error("payments are configured");
    return reconciliation.reconcile();
  };

  async function creditsOf(hash: string): Promise<number> {
    const rows = await server.services.database.db.query
      .selectFrom("ledger_entries")
      .select("id")
      .where("reference", "=", `chain:${hash}`)
      .execute();
    return rows.length;
  }

  async function present(payment: Payment, withKey: boolean): Promise<void> {
    const answer = await postTopup(server.url, {
      authorization: payment.authorization,
      ...(withKey ? { apiKey: refillKey } : {}),
    });
    expect([200, 402], JSON.stringify(answer.body)).toContain(answer.status);
  }

  async function crash(payment: Payment): Promise<void> {
    const { ledger } = server.services;
    const credit = ledger.credit.bind(ledger);
    ledger.credit = () => Promise.reject(new Error("the process died"));
    try {
      await postTopup(server.url, { authorization: payment.authorization });
    } finally {
      ledger.credit = credit;
    }
  }

  async function run(steps: Step[]): Promise<void> {
    const payments: Payment[] = [];
    for (const next of steps) {
      if (next.kind === "pay") {
        const paid = challengeFor(
          await postTopup(server.url, next.refill ? { apiKey: refillKey } : {}),
          "tempo",
        );
        const hash = node.mineTransfer({
          from: PAYER,
          to: RECIPIENT,
          amount: 5_000_000n,
          memo: attributionMemo(paid.id, paid.realm),
        });
        if (next.late) node.holdBack(hash);
        const authorization = paymentCredential(paid, { type: "hash", hash });
        payments.push({ hash, authorization, landed: !next.late });
        continue;
      }
      if (next.kind === "reconcile") await reconcile();
      if (next.kind === "wait") clock.advanceSeconds(next.seconds);
      if (next.kind === "reconcile" || next.kind === "wait") continue;
      const payment = payments[next.payment % Math.max(1, payments.length)];
      if (!payment) continue;
      if (next.kind === "present") await present(payment, next.withKey);
      if (next.kind === "crash") await crash(payment);
      if (next.kind === "race") await Promise.all([present(payment, next.withKey), reconcile()]);
      if (next.kind === "land") {
        node.land(payment.hash);
        payment.landed = true;
      }
      for (const each of payments) expect(await creditsOf(each.hash)).toBeLessThanOrEqual(1);
    }
    // Whatever happened, once everything has landed and been reconciled, each payment is
    // credited exactly once.
    for (const payment of payments) node.land(payment.hash);
    await reconcile();
    for (const payment of payments) expect(await creditsOf(payment.hash)).toBe(1);
  }

  it("never credits a payment twice, and leaves none that landed uncredited", async () => {
    await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), run), {
      numRuns: 25,
      examples: [
        // A refill's credential presented as a new payer's while reconciliation credits the
        // refill: both claim the challenge and the payment, and must never wait on each other.
        [
          [
            { kind: "pay", refill: true, late: false },
            { kind: "race", payment: 0, withKey: false },
            { kind: "wait", seconds: 10 },
          ],
        ],
      ],
    });
  }, 240_000);
});
