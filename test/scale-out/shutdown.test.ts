import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { createServices, type Services } from "../../src/services.js";
import { usdToNanos } from "../../src/util/money.js";
import { freePort, writeConfig } from "../batches/support/server-process.js";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { type SibylProcess, spawnSibyl, waitHealthy } from "./support/cluster-processes.js";
import { proxyDatabase } from "./support/tcp-proxy.js";

/** `sibyl serve` receiving SIGTERM with requests and streams in flight. */
describe("graceful shutdown of an API process", () => {
  let database: TestDatabase;
  let upstream: FakeUpstream;
  let dataDir: string;
  let services: Services;
  let apiKey: string;
  let organizationId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    upstream = await startFakeUpstream();
    dataDir = mkdtempSync(path.join(tmpdir(), "sibyl-shutdown-"));
    const config = loadConfig({
      file: configFile(30),
      env: { SIBYL_DATA_DIR: dataDir },
      cwd: dataDir,
    });
    services = await createServices(config);
    const { organization, key } = await services.accounts.open({
      name: "shutdown",
      creditsNanos: usdToNanos("10"),
    });
    apiKey = key.api_key;
    organizationId = organization.id;
  });

  afterAll(async () => {
    await services?.close();
    await upstream?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function configFile(
    graceSeconds: number,
    databaseUrl = database.url,
    batches: { lease_seconds?: number } = {},
  ): string {
    const dir = mkdtempSync(path.join(dataDir, "config-"));
    return writeConfig(dir, {
      server: { log_level: "warn" },
      database: { url: databaseUrl },
      batches,
      models: [
        {
          id: "fake-model",
          provider: "openai",
          base_url: upstream.url,
          context_length: 8192,
          max_completion_tokens: 64,
          pricing: { prompt: "0.000001", completion: "0.000002" },
        },
      ],
      shutdown: { grace_seconds: graceSeconds },
    });
  }

  async function start(
    graceSeconds: number,
    databaseUrl = database.url,
  ): Promise<{ api: SibylProcess; url: string }> {
    const port = await freePort();
    const config = configFile(graceSeconds, databaseUrl);
    const api = spawnSibyl(["serve", "--no-worker", "--config", config, "--port", String(port)], {
      SIBYL_DATA_DIR: dataDir,
    });
    const url = `http://127.0.0.1:${port}`;
    await waitHealthy(api, url);
    return { api, url };
  }

  function chat(url: string, stream: boolean): Promise<Response> {
    return fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: "fake-model",
        stream,
        messages: [{ role: "user", content: "Will it rain tomorrow in Lisbon?" }],
      }),
    });
  }

  async function untilUpstreamHas(count: number): Promise<void> {
    while (upstream.requests.length < count) await sleep(10);
  }

  it("finishes in-flight requests and streams, refuses new connections, and exits 0", async () => {
    upstream.reset();
    const { api, url } = await start(30);
    upstream.enqueue({ headersDelayMs: 1_500 }, { chunkDelayMs: 150 });
    const plain = chat(url, false);
    await untilUpstreamHas(1);
    const streamed = await chat(url, true);
    await untilUpstreamHas(2);

    const exit = api.kill("SIGTERM");
    // Listening stops first: a new connection is refused while the old ones finish.
    let refused = false;
    while (!refused && api.child.exitCode === null) {
      refused = await fetch(`${url}/healthz`).then(
        () => false,
        () => true,
      );
    }
    expect(refused).toBe(true);

    const answer = await plain;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { object: string }).object).toBe("chat.completion");
    expect(streamed.status).toBe(200);
    const events = await streamed.text();
    expect(events.trimEnd().endsWith("data: [DONE]")).toBe(true);
    expect(await exit).toBe(0);
    // Both requests settled their holds before the process went.
    expect(await services.ledger.held(organizationId)).toEqual([]);
  }, 60_000);

  it("answers a request that outlives SIGTERM with Connection: close, then closes the connection", async () => {
    upstream.reset();
    const { api, url } = await start(30);
    upstream.enqueue({ headersDelayMs: 1_000 });
    const socket = connect(Number(new URL(url).port), "127.0.0.1");
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("utf8");
    });
    const ended = new Promise<string>((resolve) => {
      socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
      socket.once("end", () => resolve("end"));
    });
    const body = JSON.stringify({
      model: "fake-model",
      messages: [{ role: "user", content: "Will it rain tomorrow in Lisbon?" }],
    });
    socket.write(
      "POST /v1/chat/completions HTTP/1.1\r\nHost: sibyl\r\n" +
        `Authorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await untilUpstreamHas(1);
    const exit = api.kill("SIGTERM");
    expect(await ended).toBe("end");
    const [head = ""] = received.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head.toLowerCase()).toContain("connection: close");
    socket.destroy();
    expect(await exit).toBe(0);
  }, 60_000);

  it("cuts what is still running when the grace period ends, and still exits 0", async () => {
    upstream.reset();
    const { api, url } = await start(1);
    upstream.enqueue({ stallAfterChunks: 2 });
    const stalled = await chat(url, true);
    expect(stalled.status).toBe(200);
    await untilUpstreamHas(1);
    const body = stalled.text().then(
      (text) => text,
      () => "cut",
    );
    expect(await api.kill("SIGTERM")).toBe(0);
    expect(await body).not.toContain("[DONE]");
  }, 60_000);

  it("exits 0 with the database gone, and a live process returns the lease it could not", async () => {
    const { proxy, url: viaProxy } = await proxyDatabase(database.url);
    const openLeases = async () =>
      (
        await services.database.kysely
          .selectFrom("reservations")
          .select("id")
          .where("organization_id", "=", organizationId)
          .where("kind", "=", "lease")
          .where("status", "=", "held")
          .execute()
      ).length;
    try {
      upstream.reset();
      const before = await services.ledger.balance(organizationId);
      const { api, url } = await start(30, viaProxy);
      const answer = await chat(url, false);
      expect(answer.status).toBe(200);
      expect(await openLeases()).toBe(1);
      const spendable = await services.ledger.balance(organizationId);
      expect(spendable).toBeLessThan(before);

      await proxy.stop();
      expect(await api.kill("SIGTERM")).toBe(0);
      expect(api.output()).toContain("database unreachable while shutting down");
      // It could give nothing back: its lease is still out, charged what its request cost.
      expect(await openLeases()).toBe(1);

      const live = await createServices(
        loadConfig({
          file: configFile(30, database.url, { lease_seconds: 1 }),
          env: { SIBYL_DATA_DIR: dataDir },
          cwd: dataDir,
        }),
      );
      try {
        // Heartbeats count whole seconds: more than two have passed once one is 1 s old.
        await sleep(2_100);
        await live.holds.sweep();
      } finally {
        await live.close();
      }
      expect(await openLeases()).toBe(0);
      expect(await services.ledger.balance(organizationId)).toBe(spendable);
    } finally {
      await proxy.stop();
    }
  }, 60_000);
});
