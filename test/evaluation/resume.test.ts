import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBatchWorker } from "../../src/cli/worker.js";
import { type BatchServer, startBatchServer } from "../batches/support/batch-server.js";
import { completion, spawnCli } from "../support/cli.js";
import { silentLog } from "../support/silent-log.js";
import {
  evalRunArgs,
  fixture,
  readJsonLines,
  readSummary,
  sibyl,
  tempDir,
} from "./support/backtest-cli.js";

function args(server: BatchServer, out: string): string[] {
  return evalRunArgs({
    questions: fixture("2026-07-05-llm.json"),
    resolutions: fixture("2026-07-05_resolution_set.json"),
    models: ["sibyl-baseline"],
    baseUrl: server.url,
    out,
  });
}

interface SavedState {
  run_id: string;
  models: Record<string, { batch_id: string | null; input_file_id: string | null }>;
}

function savedState(out: string): SavedState | null {
  const file = path.join(out, "state.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as SavedState) : null;
}

const comparable = (out: string) => {
  const summary = readSummary(out);
  return {
    models: summary.models,
    baselines: summary.baselines,
    cases: summary.cases,
    requests: summary.leak_check.requests,
    forecasts: readJsonLines(path.join(out, "forecasts.jsonl")).sort((a, b) =>
      String(a.key).localeCompare(String(b.key)),
    ),
  };
};

describe("sibyl eval run resumes after being killed", () => {
  let server: BatchServer;
  let stopLateWorker: (() => Promise<void>) | null = null;

  beforeAll(async () => {
    // No worker at first: the batch stays in progress while the backtest is killed.
    server = await startBatchServer({ worker: false });
  });
  afterAll(async () => {
    await stopLateWorker?.();
    await server.close();
  });

  it("picks up the batch it started after kill -9: no second upload or batch, same outputs", async () => {
    const { openai, org } = await server.client("10");
    const out = path.join(tempDir(), "killed");
    const child = spawnCli(args(server, out), {
      cwd: tempDir(),
      env: { SIBYL_API_KEY: org.apiKey },
    });
    const exited = completion(child);
    const deadline = Date.now() + 30_000;
    while (!savedState(out)?.models["sibyl-baseline"]?.batch_id) {
      if (child.exitCode !== null)
        throw new Error(`backtest exited early: ${(await exited).stderr}`);
      if (Date.now() > deadline) throw new Error("the backtest never saved its batch id");
      await sleep(25);
    }
    child.kill("SIGKILL");
    const killed = await exited;
    expect(killed.signal).toBe("SIGKILL");
    expect(existsSync(path.join(out, "summary.json"))).toBe(false);
    const before = savedState(out);

    const late = createBatchWorker(server.services, silentLog, { pollMs: 20 });
    stopLateWorker = late.stop;
    const resumed = await sibyl(args(server, out), org.apiKey, out);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`eval: resuming run ${before?.run_id}`);

    const batches = await openai.batches.list();
    expect(batches.data).toHaveLength(1);
    expect(batches.data[0]?.id).toBe(before?.models["sibyl-baseline"]?.batch_id);
    expect(batches.data[0]?.status).toBe("completed");
    const uploads = (await openai.files.list({ purpose: "batch" })).data;
    expect(uploads.map((file) => file.id)).toEqual([
      before?.models["sibyl-baseline"]?.input_file_id,
    ]);

    // The same outputs as a run that was never interrupted.
    const other = await server.client("10");
    const reference = path.join(tempDir(), "reference");
    const straight = await sibyl(args(server, reference), other.org.apiKey, reference);
    expect(straight.code).toBe(0);
    expect(comparable(out)).toEqual(comparable(reference));
    expect(readSummary(out).models["sibyl-baseline"]?.pooled_brier).toBe(0.25);

    // Running it again changes nothing and asks nothing new.
    const again = await sibyl(args(server, out), org.apiKey, out);
    expect(again.code).toBe(0);
    expect((await openai.batches.list()).data).toHaveLength(1);
    expect(comparable(out)).toEqual(comparable(reference));

    // Another backtest in the same --out is refused rather than mixed in.
    const mixed = await sibyl([...args(server, out), "--samples", "2"], org.apiKey, out);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toMatch(
      /holds a backtest of other questions, models, options or endpoint/,
    );
  });

  it("finds its batch by metadata when a crash came between creating it and saving its id", async () => {
    const { openai, org } = await server.client("10");
    const out = path.join(tempDir(), "lost-id");
    const child = spawnCli(args(server, out), {
      cwd: tempDir(),
      env: { SIBYL_API_KEY: org.apiKey },
    });
    const exited = completion(child);
    const deadline = Date.now() + 30_000;
    while (!savedState(out)?.models["sibyl-baseline"]?.batch_id) {
      if (Date.now() > deadline) throw new Error("the backtest never saved its batch id");
      await sleep(25);
    }
    child.kill("SIGKILL");
    await exited;
    // The state as a crash just before saving the batch id would have left it.
    const file = path.join(out, "state.json");
    const state = JSON.parse(readFileSync(file, "utf8")) as {
      models: Record<string, Record<string, unknown>>;
    };
    const entry = state.models["sibyl-baseline"] ?? {};
    const batchId = entry.batch_id;
    Object.assign(entry, { batch_id: null, status: null, downloaded: false });
    writeFileSync(file, JSON.stringify(state));

    const resumed = await sibyl(args(server, out), org.apiKey, out);
    expect(resumed.code).toBe(0);
    const batches = await openai.batches.list();
    expect(batches.data.map((batch) => batch.id)).toEqual([batchId]);
    expect(savedState(out)?.models["sibyl-baseline"]?.batch_id).toBe(batchId);
    expect(readSummary(out).models["sibyl-baseline"]).toMatchObject({ pooled_brier: 0.25, n: 8 });
  });
});
