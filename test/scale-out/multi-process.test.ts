import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import OpenAI from "openai";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Config, loadConfig } from "../../src/config/index.js";
import { createServices, type Services } from "../../src/services.js";
import { usdToNanos } from "../../src/util/money.js";
import { chatLine, jsonl, readResults, uploadBatchFile } from "../batches/support/batch-server.js";
import { freePort, writeConfig } from "../batches/support/server-process.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { type SibylProcess, spawnSibyl, waitHealthy } from "./support/cluster-processes.js";

const LINES = 5_000;
const WORKERS = 3;
const LEASE_SECONDS = 3;
const REQUESTS_PER_MINUTE = 250;
/** Workers killed or stopped in all: each restart costs seconds of CPU on a small machine. */
const MAX_TURMOIL = 6;
const S3_ENV = { SIBYL_TEST_S3_KEY: "S3RVER", SIBYL_TEST_S3_SECRET: "S3RVER" };

/**
 * A deployment in miniature: two `sibyl serve --no-worker` and three `sibyl worker` processes on
 * one PostgreSQL database and one S3 bucket. Workers are killed (SIGKILL) and stopped (SIGTERM)
 * at random and restarted while a batch runs and clients hammer both API processes.
 */
describe("several API and worker processes on PostgreSQL and S3", () => {
  let database: TestDatabase;
  let s3: S3rver;
  let dataDir: string;
  let config: Config;
  let services: Services;
  let apiUrls: string[] = [];
  const apis: SibylProcess[] = [];
  const workers: SibylProcess[] = [];
  /** Every worker started, killed ones included: their logs explain a failed line. */
  const everyWorker: SibylProcess[] = [];
  let apiConfigFile: string;
  let workerConfigFile: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "sibyl-scale-"));
    s3 = new S3rver({
      address: "127.0.0.1",
      port: 0,
      silent: true,
      directory: path.join(dataDir, "s3"),
      configureBuckets: [{ name: "sibyl-files", configs: [] }],
    });
    const s3Address = await s3.run();
    database = await createTestDatabase();
    const shared = {
      server: { host: "127.0.0.1", log_level: "warn" },
      database: { url: database.url, pool_size: 6 },
      files: {
        store: "s3",
        bucket: "sibyl-files",
        endpoint: `http://127.0.0.1:${s3Address.port}`,
        region: "us-east-1",
        access_key_id_env: "SIBYL_TEST_S3_KEY",
        secret_access_key_env: "SIBYL_TEST_S3_SECRET",
        force_path_style: true,
      },
      limits: { requests_per_minute: REQUESTS_PER_MINUTE },
      models: [
        {
          id: "sibyl-baseline",
          provider: "baseline",
          context_length: 8192,
          max_completion_tokens: 64,
          pricing: { prompt: "0.000001", completion: "0.000002" },
        },
      ],
      batches: { concurrency: 24, lease_seconds: LEASE_SECONDS },
    };
    apiConfigFile = writeConfig(dataDir, shared);
    // Workers stopped with SIGTERM give their running lines back at once.
    const workerDir = path.join(dataDir, "worker");
    mkdirSync(workerDir);
    workerConfigFile = writeConfig(workerDir, { ...shared, shutdown: { grace_seconds: 0 } });
    config = loadConfig({ file: apiConfigFile, env: { SIBYL_DATA_DIR: dataDir }, cwd: dataDir });
    services = await createServices(config, { env: { ...process.env, ...S3_ENV } });

    const ports = [await freePort(), await freePort()];
    apiUrls = ports.map((port) => `http://127.0.0.1:${port}`);
    for (const port of ports) {
      apis.push(
        spawnSibyl(["serve", "--no-worker", "--config", apiConfigFile, "--port", String(port)], {
          ...S3_ENV,
          SIBYL_DATA_DIR: dataDir,
        }),
      );
    }
    for (let i = 0; i < WORKERS; i++) workers.push(startWorker());
    await Promise.all(apis.map((api, i) => waitHealthy(api, apiUrls[i] as string)));
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...apis, ...workers].map((child) => child.kill("SIGKILL")));
    await services?.close();
    await s3?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function startWorker(): SibylProcess {
    const worker = spawnSibyl(["worker", "--config", workerConfigFile], {
      ...S3_ENV,
      SIBYL_DATA_DIR: dataDir,
    });
    everyWorker.push(worker);
    return worker;
  }

  /** The error file and the workers' error lines, to explain lines that did not complete. */
  async function whyLinesFailed(openai: OpenAI, errorFileId: string | null | undefined) {
    const failed = await readResults(openai, errorFileId);
    const errors = everyWorker.flatMap((worker) =>
      worker
        .output()
        .split("\n")
        .filter((line) => line.includes('"level":"error"')),
    );
    return `error file: ${JSON.stringify(failed)}\nworker errors:\n${errors.join("\n")}`;
  }

  /** SDK clients for one organization, one per API process. */
  async function clients(name: string, usd: string) {
    const { organization, key } = await services.accounts.open({
      name,
      creditsNanos: usdToNanos(usd),
    });
    const openai = apiUrls.map(
      (url) => new OpenAI({ apiKey: key.api_key, baseURL: `${url}/v1`, maxRetries: 2 }),
    );
    return { organizationId: organization.id, apiKey: key.api_key, openai };
  }

  /** One chat completion through API process `i % 2`; its status. */
  async function ask(apiKey: string, i: number): Promise<number> {
    const response = await fetch(`${apiUrls[i % apiUrls.length]}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: "sibyl-baseline",
        messages: [{ role: "user", content: `Will request ${i} resolve yes?` }],
      }),
    });
    await response.arrayBuffer();
    return response.status;
  }

  /** Waits for the batch to end; on a timeout, says how far it got. */
  async function finish(openai: OpenAI, id: string) {
    const progress: string[] = [];
    const deadline = Date.now() + 300_000;
    for (;;) {
      const batch = await openai.batches.retrieve(id);
      if (["completed", "failed", "expired", "cancelled"].includes(batch.status)) {
        console.info(progress.join(", "));
        return batch;
      }
      progress.push(
        `${Math.round((deadline - Date.now()) / 1000)}s left: ${batch.request_counts?.completed}`,
      );
      if (Date.now() > deadline)
        throw new Error(`batch still ${batch.status}: ${progress.join(", ")}`);
      await sleep(5_000);
    }
  }

  /** Kills or stops a random worker every 4–7 s (at most MAX_TURMOIL times) and starts a new one, until `done`. */
  async function chaos(done: () => boolean): Promise<{ killed: number; stopped: number[] }> {
    let killed = 0;
    const stopped: number[] = [];
    while (!done() && killed + stopped.length < MAX_TURMOIL) {
      await sleep(4_000 + Math.random() * 3_000);
      if (done()) break;
      const index = Math.floor(Math.random() * workers.length);
      const victim = workers[index] as SibylProcess;
      // A process still loading has no signal handlers yet: only a started one is asked.
      if (!victim.started() || Math.random() < 0.7) {
        await victim.kill("SIGKILL");
        killed += 1;
      } else {
        stopped.push((await victim.kill("SIGTERM")) ?? -1);
      }
      workers[index] = startWorker();
    }
    return { killed, stopped };
  }

  it("runs a batch exactly once and bills it once, never overdraws, and limits rates across processes, while workers die", async () => {
    const batchOrg = await clients("batch", "100");
    const lines = Array.from({ length: LINES }, (_, i) => chatLine(`line-${i}`));
    const [viaA, viaB] = batchOrg.openai as [OpenAI, OpenAI];
    const file = await uploadBatchFile(viaA, jsonl(lines));
    const created = await viaB.batches.create({
      input_file_id: file.id,
      endpoint: "/v1/chat/completions",
      completion_window: "24h",
    });

    let finished = false;
    const turmoil = chaos(() => finished);

    // 200 concurrent paid requests over both API processes against a balance that covers some.
    const tight = await clients("tight", "0.01");
    const statuses = await Promise.all(Array.from({ length: 200 }, (_, i) => ask(tight.apiKey, i)));
    const answered = statuses.filter((status) => status === 200).length;
    expect(statuses.filter((status) => status !== 200 && status !== 402)).toEqual([]);
    expect(answered).toBeGreaterThan(0);
    expect(answered).toBeLessThan(200);
    expect(await services.ledger.held(tight.organizationId)).toEqual([]);
    const tightBalance = await services.ledger.balance(tight.organizationId);
    expect(tightBalance).toBeGreaterThanOrEqual(0);
    const tightCharges = (await services.ledger.entries(tight.organizationId)).filter(
      (entry) => entry.kind === "charge",
    );
    expect(tightCharges).toHaveLength(answered);
    const spent = tightCharges.reduce((sum, entry) => sum + Math.abs(entry.amount_nanos), 0);
    expect(spent).toBe(usdToNanos("0.01") - tightBalance);

    // One minute's limit, counted once for both API processes. Start well inside a window.
    const intoWindow = (Date.now() / 1000) % 60;
    if (intoWindow > 40) await sleep((61 - intoWindow) * 1000);
    const busy = await clients("busy", "100");
    const limited: number[] = [];
    for (let round = 0; round < 6; round++) {
      const offsets = Array.from({ length: 50 }, (_, i) => round * 50 + i);
      limited.push(...(await Promise.all(offsets.map((i) => ask(busy.apiKey, i)))));
    }
    expect(limited.filter((status) => status === 200)).toHaveLength(REQUESTS_PER_MINUTE);
    expect(limited.filter((status) => status === 429)).toHaveLength(300 - REQUESTS_PER_MINUTE);

    const done = await finish(viaA, created.id).finally(() => {
      finished = true;
    });
    const { killed, stopped } = await turmoil;
    expect(killed).toBeGreaterThan(0);
    console.info(`workers killed: ${killed}, stopped: ${stopped.length}`);
    // A worker asked to stop gives its lines back and exits cleanly.
    expect(stopped.filter((code) => code !== 0)).toEqual([]);

    expect(done.status).toBe("completed");
    const explanation = done.request_counts?.failed
      ? await whyLinesFailed(viaB, done.error_file_id)
      : "";
    expect(done.request_counts, explanation).toEqual({ total: LINES, completed: LINES, failed: 0 });
    const output = await readResults(viaB, done.output_file_id);
    expect(output.map((line) => line.custom_id).sort()).toEqual(
      lines.map((line) => line.custom_id).sort(),
    );

    // Billed once per line; the holds of killed workers come back within about the lease.
    const charges = (await services.ledger.entries(batchOrg.organizationId)).filter(
      (entry) => entry.kind === "charge",
    );
    expect(charges.map((entry) => String(entry.reference)).sort()).toEqual(
      output.map((line) => `${created.id}:${line.custom_id}`).sort(),
    );
    const deadline = Date.now() + 4 * LEASE_SECONDS * 1000;
    while (
      (await services.ledger.held(batchOrg.organizationId)).length > 0 &&
      Date.now() < deadline
    ) {
      await sleep(100);
    }
    expect(await services.ledger.held(batchOrg.organizationId)).toEqual([]);
    const reported = output.reduce((sum, line) => {
      const body = line.response?.body as { usage?: { cost_usd?: number } } | undefined;
      const cost = body?.usage?.cost_usd;
      return sum + Math.round((cost ?? Number.NaN) * 1e9);
    }, 0);
    expect(reported).toBeGreaterThan(0);
    expect(charges.reduce((sum, entry) => sum + Math.abs(entry.amount_nanos), 0)).toBe(reported);
    expect(await services.ledger.balance(batchOrg.organizationId)).toBe(
      usdToNanos("100") - reported,
    );
  }, 420_000);
});
