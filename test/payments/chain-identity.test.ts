import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { stringify } from "yaml";
import { runCli } from "../../src/cli/run.js";
import { FakeNode } from "./support/fake-node.js";
import {
  attributionMemo,
  challengeFor,
  paymentCredential,
  postTopup,
} from "./support/payment-flow.js";
import {
  PAYMENT_SECRET,
  RECIPIENT,
  startTopupServer,
  type TopupServer,
} from "./support/topup-server.js";

let node: FakeNode;
let server: TopupServer;

beforeAll(async () => {
  node = await new FakeNode().start();
  server = await startTopupServer({ rpcUrl: node.url });
});

afterAll(async () => {
  await server?.close();
  await node?.stop();
});

describe("a chain node answering for another chain", () => {
  it("stops `sibyl serve` at start with one line naming both chains", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "sibyl-chain-"));
    try {
      const file = path.join(dir, "sibyl.yaml");
      writeFileSync(
        file,
        stringify({
          server: { port: 0 },
          database: { url: `sqlite:${path.join(dir, "sibyl.db")}` },
          files: { dir: path.join(dir, "files") },
          payments: { chain: { rpc_url: node.url, recipient: RECIPIENT } },
        }),
      );
      node.chainId = 1;
      // `serve` reads its secrets from the process environment.
      vi.stubEnv("SIBYL_PAYMENT_SECRET", PAYMENT_SECRET);
      const errors: string[] = [];
      const code = await runCli(["serve", "--config", file], {
        env: { SIBYL_PAYMENT_SECRET: PAYMENT_SECRET },
        stdout: () => {},
        stderr: (line) => errors.push(line),
      });
      expect(code).toBe(1);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(
        /^sibyl: invalid configuration at payments\.chain: .*4217.*answers chain 1\.$/,
      );
      expect(errors[0]?.split("\n")).toHaveLength(1);
    } finally {
      node.chainId = 4217;
      vi.unstubAllEnvs();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("credits nothing: 503 with Retry-After, and the credential still pays once it is back", async () => {
    const paid = challengeFor(await postTopup(server.url), "tempo");
    const hash = node.mineTransfer({
      from: "0x5555555555555555555555555555555555555555",
      to: RECIPIENT,
      amount: 5_000_000n,
      memo: attributionMemo(paid.id, paid.realm),
    });
    const authorization = paymentCredential(paid, { type: "hash", hash });
    node.chainId = 1;
    try {
      const refused = await postTopup(server.url, { authorization });
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused.body).toMatchObject({ error: { code: "payment_network_mismatch" } });
      const entries = await server.services.database.db.query
        .selectFrom("ledger_entries")
        .select("id")
        .where("reference", "=", `chain:${hash}`)
        .execute();
      expect(entries).toEqual([]);
    } finally {
      node.chainId = 4217;
    }
    expect((await postTopup(server.url, { authorization })).status).toBe(200);
  });
});
