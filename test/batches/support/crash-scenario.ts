import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import OpenAI from "openai";
import { expect } from "vitest";
import { loadConfig } from "../../../src/config/index.js";
import { createServices } from "../../../src/services.js";
import { usdToNanos } from "../../../src/util/money.js";
import { startFakeUpstream } from "../../support/fake-upstream.js";
import {
  chatLine,
  jsonl,
  type ResultLine,
  readResults,
  uploadBatchFile,
  waitForBatch,
} from "./batch-server.js";
import { freePort, spawnServer, writeConfig } from "./server-process.js";

const LINES = 400;
const INITIAL_USD = "100";

/**
 * Runs a batch in a real server process, kills it with SIGKILL partway, restarts it and checks
 * that every line ends up exactly once in the output or error file, is charged exactly once, and
 * that once the dead process's holds are back the balance is the initial credit minus exactly
 * the costs the result lines report.
 */
export async function killMidBatchAndRecover(databaseUrl: string | null): Promise<void> {
  const upstream = await startFakeUpstream();
  upstream.setDefault({ headersDelayMs: 15 });
  const dataDir = mkdtempSync(path.join(tmpdir(), "sibyl-crash-"));
  const port = await freePort();
  const configFile = writeConfig(dataDir, {
    server: { host: "127.0.0.1", port, log_level: "warn" },
    ...(databaseUrl ? { database: { url: databaseUrl } } : {}),
    models: [
      {
        id: "fake-model",
        provider: "openai",
        base_url: upstream.url,
        context_length: 8192,
        max_completion_tokens: 256,
        pricing: { prompt: "0.000001", completion: "0.000002" },
      },
    ],
    // The killed process's lines run again, and its holds come back, once its lease expires:
    // a short lease spares the test the default's 15 s wait, with the same recovery.
    batches: { concurrency: 8, lease_seconds: 3 },
  });
  const config = loadConfig({ file: configFile, env: { SIBYL_DATA_DIR: dataDir }, cwd: dataDir });
  const services = await createServices(config);
  let server = await spawnServer(configFile, dataDir, port);
  try {
    const { organization, key } = await services.accounts.open({
      name: "crash test",
      creditsNanos: usdToNanos(INITIAL_USD),
    });
    // Retries cover the connection the kill cuts.
    const openai = new OpenAI({ apiKey: key.api_key, baseURL: `${server.url}/v1`, maxRetries: 3 });

    const lines = Array.from({ length: LINES }, (_, i) => chatLine(`crash-${i}`, "fake-model"));
    const file = await uploadBatchFile(openai, jsonl(lines));
    const created = await openai.batches.create({
      input_file_id: file.id,
      endpoint: "/v1/chat/completions",
      completion_window: "24h",
    });
    for (;;) {
      const batch = await openai.batches.retrieve(created.id);
      if ((batch.request_counts?.completed ?? 0) >= LINES / 3) break;
      expect(batch.status).toMatch(/validating|in_progress/);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await server.kill("SIGKILL");
    const killed = await services.batches.retrieve(organization.id, created.id);
    expect(killed.status).toBe("in_progress");
    expect(killed.request_counts.completed).toBeLessThan(LINES);

    server = await spawnServer(configFile, dataDir, port);
    const done = await waitForBatch(openai, created.id, undefined, 90_000);
    expect(done.status).toBe("completed");
    expect(done.request_counts).toEqual({ total: LINES, completed: LINES, failed: 0 });

    const output = await readResults(openai, done.output_file_id);
    const errors = await readResults(openai, done.error_file_id);
    const ids = [...output, ...errors].map((line) => line.custom_id).sort();
    expect(ids).toEqual(lines.map((line) => line.custom_id).sort());

    // Each answered line was charged once, under its batch and custom id, and nothing else was.
    const charges = (await services.ledger.entries(organization.id)).filter(
      (entry) => entry.kind === "charge",
    );
    const answered = output.map((line) => `${created.id}:${line.custom_id}`).sort();
    expect(charges.map((entry) => String(entry.reference)).sort()).toEqual(answered);

    // Holds of the killed process come back within about batches.lease_seconds.
    const deadline = Date.now() + 2 * config.batches.lease_seconds * 1000;
    while ((await services.ledger.held(organization.id)).length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await services.ledger.held(organization.id)).toEqual([]);
    const reported = output.reduce((sum, line) => sum + reportedCostNanos(line), 0);
    expect(reported).toBeGreaterThan(0);
    expect(await services.ledger.balance(organization.id)).toBe(usdToNanos(INITIAL_USD) - reported);
  } finally {
    await server.kill("SIGKILL");
    await services.close();
    await upstream.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The cost a result line reports, in nano-dollars. */
function reportedCostNanos(line: ResultLine): number {
  const body = line.response?.body as { usage?: { cost_usd?: number } } | undefined;
  const cost = body?.usage?.cost_usd;
  if (typeof cost !== "number") throw new Error(`line ${line.custom_id} reports no cost`);
  return Math.round(cost * 1e9);
}
