import { Mppx, tempo } from "mppx/client";
import { createClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { tempo as tempoChain } from "viem/tempo/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { FakeCardApi } from "./support/fake-card-api.js";
import { FakeNode } from "./support/fake-node.js";
import {
  attributionMemo,
  challengeFor,
  paymentCredential,
  postTopup,
} from "./support/payment-flow.js";
import { RECIPIENT, startTopupServer, type TopupServer } from "./support/topup-server.js";

const PAYER = "0x3333333333333333333333333333333333333333";
const RETRIES = 20;

describe.each(["sqlite", "postgres"] as const)(
  "20 identical credentials at once on %s",
  (dialect) => {
    let node: FakeNode;
    let cards: FakeCardApi;
    let database: TestDatabase | null = null;
    let server: TopupServer;

    beforeAll(async () => {
      node = await new FakeNode().start();
      cards = await new FakeCardApi().start();
      if (dialect === "postgres") database = await createTestDatabase();
      server = await startTopupServer({
        rpcUrl: node.url,
        cardApiBase: cards.url,
        ...(database ? { databaseUrl: database.url } : {}),
      });
    });

    afterAll(async () => {
      await server?.close();
      await database?.drop();
      await node?.stop();
      await cards?.stop();
    });

    async function race(authorization: string) {
      const answers = await Promise.all(
        Array.from({ length: RETRIES }, () => postTopup(server.url, { authorization })),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      return { answers, statuses };
    }

    async function topupEntries(reference: string) {
      return server.services.database.db.query
        .selectFrom("ledger_entries")
        .selectAll()
        .where("reference", "=", reference)
        .execute();
    }

    it("credits an on-chain payment once; the others get 402", async () => {
      const paid = challengeFor(await postTopup(server.url), "tempo");
      const hash = node.mineTransfer({
        from: PAYER,
        to: RECIPIENT,
        amount: 5_000_000n,
        memo: attributionMemo(paid.id, paid.realm),
      });
      const { answers, statuses } = await race(paymentCredential(paid, { type: "hash", hash }));
      expect(statuses).toEqual([200, ...Array(RETRIES - 1).fill(402)]);
      const winner = answers.find((answer) => answer.status === 200);
      const entries = await topupEntries(`chain:${hash}`);
      expect(entries).toHaveLength(1);
      expect(entries[0]?.organization_id).toBe(winner?.body.organization_id);
      expect(Number(entries[0]?.amount_nanos)).toBe(5_000_000_000);
    });

    it("broadcasts and credits a signed transaction once", async () => {
      const challenged = await fetch(`${server.url}/v1/mpp/topup`, { method: "POST" });
      const wallet = Mppx.create({
        polyfill: false,
        methods: [
          tempo.charge({
            account: privateKeyToAccount(generatePrivateKey()),
            getClient: () => createClient({ chain: tempoChain, transport: http(node.url) }),
          }),
        ],
      });
      const signed = await wallet.createCredential(challenged);
      const { statuses } = await race(signed);
      expect(statuses).toEqual([200, ...Array(RETRIES - 1).fill(402)]);
    });

    it("credits a card payment once and creates one PaymentIntent", async () => {
      const paid = challengeFor(await postTopup(server.url), "stripe");
      const { statuses } = await race(paymentCredential(paid, { spt: cards.issueToken() }));
      expect(statuses).toEqual([200, ...Array(RETRIES - 1).fill(402)]);
      expect(cards.created).toBe(1);
      const organizations = await server.services.database.db.query
        .selectFrom("ledger_entries")
        .select("organization_id")
        .where("reference", "like", "card:%")
        .execute();
      expect(organizations).toHaveLength(1);
    });
  },
);
