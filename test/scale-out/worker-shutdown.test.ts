import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { createServices, type Services } from "../../src/services.js";
import { usdToNanos } from "../../src/util/money.js";
import {
  batchRequest,
  chatLine,
  jsonl,
  readResults,
  uploadBatchFile,
  waitForBatch,
} from "../batches/support/batch-server.js";
import { pricedModel } from "../batches/support/priced-model.js";
import { freePort, writeConfig } from "../batches/support/server-process.js";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { type SibylProcess, spawnSibyl, waitHealthy } from "./support/cluster-processes.js";
import { proxyDatabase } from "./support/tcp-proxy.js";

const LINES = 4;
/** Far beyond the grace period: a worker that waited for these calls would be seen to. */
const SLOW_REPLY_MS = 20_000;

/** `sibyl worker` receiving SIGTERM while its lines wait on a model that takes its time. */
describe("graceful shutdown of a worker process", () => {
  let database: TestDatabase;
  let upstream: FakeUpstream;
  let dataDir: string;
  let services: Services;
  let api: SibylProcess | null = null;
  const workers: SibylProcess[] = [];
  let workerConfig: string;
  let shared: Record<string, unknown>;
  let openai: OpenAI;
  let organizationId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    upstream = await startFakeUpstream();
    dataDir = mkdtempSync(path.join(tmpdir(), "sibyl-worker-stop-"));
    shared = {
      server: { host: "127.0.0.1", log_level: "warn" },
      database: { url: database.url },
      models: [pricedModel(upstream.url)],
    };
    const apiConfig = writeConfig(dataDir, shared);
    const workerDir = path.join(dataDir, "worker");
    mkdirSync(workerDir);
    workerConfig = writeConfig(workerDir, { ...shared, shutdown: { grace_seconds: 1 } });
    services = await createServices(
      loadConfig({ file: apiConfig, env: { SIBYL_DATA_DIR: dataDir }, cwd: dataDir }),
    );
    const { organization, key } = await services.accounts.open({
      name: "worker stop",
      creditsNanos: usdToNanos("10"),
    });
    organizationId = organization.id;
    const port = await freePort();
    api = spawnSibyl(["serve", "--no-worker", "--config", apiConfig, "--port", String(port)], {
      SIBYL_DATA_DIR: dataDir,
    });
    await waitHealthy(api, `http://127.0.0.1:${port}`);
    openai = new OpenAI({ apiKey: key.api_key, baseURL: `http://127.0.0.1:${port}/v1` });
  }, 90_000);

  afterAll(async () => {
    await Promise.all([api, ...workers].map((child) => child?.kill("SIGKILL")));
    await services?.close();
    await upstream?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function startWorker(config = workerConfig): SibylProcess {
    const worker = spawnSibyl(["worker", "--config", config], { SIBYL_DATA_DIR: dataDir });
    workers.push(worker);
    return worker;
  }

  it("cuts its model calls when the grace period ends, hands the lines back, exits 0 without errors", async () => {
    upstream.setDefault({ headersDelayMs: SLOW_REPLY_MS });
    const file = await uploadBatchFile(
      openai,
      jsonl(Array.from({ length: LINES }, (_, i) => chatLine(`line-${i}`, "priced"))),
    );
    const batch = await openai.batches.create(batchRequest(file.id));
    const first = startWorker();
    while (upstream.requests.length < LINES) await sleep(20);

    const signalled = Date.now();
    expect(await first.kill("SIGTERM")).toBe(0);
    // It did not wait for the model: it exits within the grace period and a short wind-down.
    expect(Date.now() - signalled).toBeLessThan(SLOW_REPLY_MS / 2);
    const settled = await Promise.all(upstream.requests.map((request) => request.settled));
    expect(settled).toEqual(Array(LINES).fill("aborted"));
    const errors = first
      .output()
      .split("\n")
      .filter((line) => line.includes('"level":"error"'));
    expect(errors).toEqual([]);
    expect(first.output()).toContain('"msg":"worker stopped"');
    expect(await services.ledger.held(organizationId)).toEqual([]);

    // The lines went back to the queue: the next worker runs each of them once.
    upstream.setDefault({});
    startWorker();
    const done = await waitForBatch(openai, batch.id, undefined, 60_000);
    expect(done.status).toBe("completed");
    expect(done.request_counts).toMatchObject({ total: LINES, completed: LINES, failed: 0 });
    const results = await readResults(openai, done.output_file_id);
    expect(results.map((line) => line.custom_id).sort()).toEqual(
      Array.from({ length: LINES }, (_, i) => `line-${i}`),
    );
    const charges = (await services.ledger.entries(organizationId)).filter(
      (entry) => entry.kind === "charge",
    );
    expect(charges).toHaveLength(LINES);
  }, 120_000);

  it("exits 0 with the database gone, warning that its holds come back later", async () => {
    const { proxy, url: viaProxy } = await proxyDatabase(database.url);
    const dir = mkdtempSync(path.join(dataDir, "cut-off-"));
    const config = writeConfig(dir, { ...shared, database: { url: viaProxy } });
    try {
      const worker = startWorker(config);
      while (!worker.started()) {
        expect(worker.child.exitCode).toBeNull();
        await sleep(50);
      }
      await proxy.stop();
      expect(await worker.kill("SIGTERM")).toBe(0);
      expect(worker.output()).toContain("database unreachable while shutting down");
      expect(worker.output()).toContain('"msg":"worker stopped"');
    } finally {
      await proxy.stop();
    }
  }, 60_000);
});
