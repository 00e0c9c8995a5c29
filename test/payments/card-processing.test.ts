import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { FakeCardApi } from "./support/fake-card-api.js";
import { challengeFor, paymentCredential, postTopup } from "./support/payment-flow.js";
import { startTopupServer, type TopupServer } from "./support/topup-server.js";

describe.each(["sqlite", "postgres"] as const)(
  "card payments left processing, on %s",
  (dialect) => {
    let cards: FakeCardApi;
    let database: TestDatabase | null = null;
    let server: TopupServer;

    beforeAll(async () => {
      cards = await new FakeCardApi().start();
      if (dialect === "postgres") database = await createTestDatabase();
      server = await startTopupServer({
        cardApiBase: cards.url,
        ...(database ? { databaseUrl: database.url } : {}),
      });
    });

    afterAll(async () => {
      await server?.close();
      await database?.drop();
      await cards?.stop();
    });

    const reconcile = () => {
      const reconciliation = server.services.reconciliation;
      if (!reconciliation) throw new Error("payments are configured");
      return reconciliation.reconcile();
    };

    async function processingPayment(apiKey?: string) {
      const paid = challengeFor(await postTopup(server.url, apiKey ? { apiKey } : {}), "stripe");
      const authorization = paymentCredential(paid, {
        spt: cards.issueToken({ processing: true }),
      });
      const answer = await postTopup(server.url, { authorization, ...(apiKey ? { apiKey } : {}) });
      expect(answer.status).toBe(402);
      expect(answer.body.detail).toContain("same credential");
      const id = cards.intentIds.at(-1) ?? "";
      return { authorization, id };
    }

    async function creditsOf(id: string): Promise<number> {
      const rows = await server.services.database.db.query
        .selectFrom("ledger_entries")
        .select("id")
        .where("reference", "=", `card:${id}`)
        .execute();
      return rows.length;
    }

    const balanceOf = async (apiKey: string) =>
      (
        await fetch(`${server.url}/v1/balance`, { headers: { authorization: `Bearer ${apiKey}` } })
      ).json();

    it("polls a refill until it succeeds and credits the refilled organization once", async () => {
      const opened = await server.services.accounts.open({ name: "refilled" });
      const apiKey = opened.key.api_key;
      const { authorization, id } = await processingPayment(apiKey);
      expect(await reconcile()).toMatchObject({ credited: 0, unclaimed: 0 });
      expect(await creditsOf(id)).toBe(0);
      cards.finish(id, "succeeded");
      expect(await reconcile()).toMatchObject({ credited: 1, unclaimed: 0 });
      expect(await reconcile()).toMatchObject({ credited: 0, unclaimed: 0 });
      expect(await balanceOf(apiKey)).toEqual({ balance_dollars: 5 });
      const again = await postTopup(server.url, { authorization, apiKey });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body).toMatchObject({ organization_id: opened.organization.id, api_key: null });
      expect(await creditsOf(id)).toBe(1);
      expect(await balanceOf(apiKey)).toEqual({ balance_dollars: 5 });
    });

    it("holds a new payer's payment once it succeeds, for the credential to claim", async () => {
      const { authorization, id } = await processingPayment();
      cards.finish(id, "succeeded");
      expect(await reconcile()).toMatchObject({ unclaimed: 1 });
      const claimed = await postTopup(server.url, { authorization });
      expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
      expect(await balanceOf(claimed.body.api_key as string)).toEqual({ balance_dollars: 5 });
      expect(await creditsOf(id)).toBe(1);
    });

    it("stops asking about a payment that failed, and credits nothing", async () => {
      const { id } = await processingPayment();
      cards.finish(id, "canceled");
      expect(await reconcile()).toMatchObject({ credited: 0, unclaimed: 0 });
      const open = await server.services.database.db.query
        .selectFrom("pending_payments")
        .select("finished_at")
        .where("reference", "=", `card:${id}`)
        .executeTakeFirst();
      expect(open?.finished_at).not.toBeNull();
      cards.finish(id, "succeeded");
      await reconcile();
      expect(await creditsOf(id)).toBe(0);
    });
  },
);
