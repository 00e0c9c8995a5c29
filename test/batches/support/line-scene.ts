import type OpenAI from "openai";
import { expect } from "vitest";
import type { BatchWorkerOptions } from "../../../src/batches/worker.js";
import { type FakeUpstream, startFakeUpstream } from "../../support/fake-upstream.js";
import type { TestOrg } from "../../support/server.js";
import { silentLog } from "../../support/silent-log.js";
import {
  type BatchServer,
  batchRequest,
  chatLine,
  jsonl,
  readResults,
  startBatchServer,
  uploadBatchFile,
  waitForBatch,
} from "./batch-server.js";
import { HookedCompletions } from "./hooked-completions.js";
import { pricedModel } from "./priced-model.js";

/** A batch server whose worker runs lines through the real pipeline with test hooks in it. */
export interface LineScene {
  server: BatchServer;
  upstream: FakeUpstream;
  completions: HookedCompletions;
  /** What the worker warned of, oldest first. */
  warnings: { details: Record<string, unknown>; message: string }[];
  /** Submits a one-line batch for a new organization with $1 of credits. */
  submit(customId: string): Promise<{ openai: OpenAI; org: TestOrg; batchId: string }>;
  close(): Promise<void>;
}

export async function startLineScene(
  databaseUrl: string | undefined,
  workerOptions: Partial<BatchWorkerOptions>,
): Promise<LineScene> {
  const upstream = await startFakeUpstream();
  upstream.setDefault({ usage: { prompt_tokens: 1000, completion_tokens: 500 } });
  const warnings: LineScene["warnings"] = [];
  const log = {
    ...silentLog,
    warn: (details: object, message: string) => warnings.push({ details: { ...details }, message }),
  };
  let hooked: HookedCompletions | null = null;
  const server = await startBatchServer({
    ...(databaseUrl ? { databaseUrl } : {}),
    config: {
      models: [pricedModel(upstream.url)],
    },
    worker: {
      ...workerOptions,
      log,
      completions: (real) => {
        hooked = new HookedCompletions(real);
        return hooked;
      },
    },
  });
  if (!hooked) throw new Error("the worker started without the hooked completions");
  const completions: HookedCompletions = hooked;
  return {
    server,
    upstream,
    completions,
    warnings,
    submit: async (customId) => {
      const { openai, org } = await server.client("1");
      const file = await uploadBatchFile(openai, jsonl([chatLine(customId, "priced")]));
      const batch = await openai.batches.create(batchRequest(file.id));
      return { openai, org, batchId: batch.id };
    },
    close: async () => {
      await server.close();
      await upstream.close();
    },
  };
}

/** How many times the batch's one line was claimed. */
export async function attemptsOf(server: BatchServer, batchId: string): Promise<number> {
  const row = await server.services.database.db.query
    .selectFrom("batch_lines")
    .select("attempts")
    .where("batch_id", "=", batchId)
    .executeTakeFirstOrThrow();
  return Number(row.attempts);
}

/** The batch's one line ended with one answer, charged once under its reference. */
export async function expectCompletedAndBilledOnce(
  server: BatchServer,
  openai: OpenAI,
  org: TestOrg,
  batchId: string,
  customId: string,
): Promise<void> {
  const batch = await waitForBatch(openai, batchId);
  expect(batch.status).toBe("completed");
  expect(batch.request_counts).toEqual({ total: 1, completed: 1, failed: 0 });
  expect(batch.error_file_id).toBeNull();
  const [line] = await readResults(openai, batch.output_file_id);
  expect(line?.response?.status_code).toBe(200);
  const usage = line?.response?.body.usage as { cost_usd: number } | undefined;
  const cost = usage?.cost_usd ?? 0;
  expect(cost).toBeGreaterThan(0);
  const charges = (await server.services.ledger.entries(org.organizationId)).filter(
    (entry) => entry.kind === "charge",
  );
  expect(charges.map((entry) => entry.reference)).toEqual([`${batchId}:${customId}`]);
  expect(await server.services.ledger.held(org.organizationId)).toEqual([]);
  expect(await server.services.ledger.balance(org.organizationId)).toBe(
    1e9 - Math.round(cost * 1e9),
  );
}
