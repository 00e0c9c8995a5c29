import OpenAI, { toFile } from "openai";
import type { BatchWorkerOptions } from "../../../src/batches/worker.js";
import { createBatchWorker } from "../../../src/cli/worker.js";
import type { CompletionService } from "../../../src/completions/types.js";
import type { Clock } from "../../../src/util/clock.js";
import { startTestServer, type TestOrg, type TestServer } from "../../support/server.js";
import { silentLog } from "../../support/silent-log.js";

export interface BatchServer extends TestServer {
  /** An SDK client for a new organization with `usd` of credits. */
  client(usd?: string): Promise<{ openai: OpenAI; org: TestOrg }>;
  stopWorker(): Promise<void>;
}

export interface BatchServerOptions {
  config?: Record<string, unknown>;
  databaseUrl?: string;
  clock?: Clock;
  /** Start a batch worker in the same process (default true). */
  worker?: boolean;
  workerOptions?: Partial<BatchWorkerOptions>;
  /** Run lines through this instead of the real completion pipeline. */
  completions?: CompletionService;
}

/** The real app plus a fast-polling batch worker, and openai SDK clients pointed at it. */
export async function startBatchServer(options: BatchServerOptions = {}): Promise<BatchServer> {
  const server = await startTestServer({
    config: options.config ?? {},
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const running =
    options.worker === false
      ? null
      : createBatchWorker(
          options.completions
            ? { ...server.services, completions: options.completions }
            : server.services,
          silentLog,
          { pollMs: 20, ...options.workerOptions },
        );
  return {
    ...server,
    client: async (usd = "10") => {
      const org = await server.createOrg(usd);
      const openai = new OpenAI({ apiKey: org.apiKey, baseURL: `${server.url}/v1`, maxRetries: 0 });
      return { openai, org };
    },
    stopWorker: async () => {
      await running?.stop();
    },
    close: async () => {
      await running?.stop();
      await server.close();
    },
  };
}

export interface RequestLine {
  custom_id: string;
  method: string;
  url: string;
  body: Record<string, unknown>;
}

export function chatLine(
  customId: string,
  model = "sibyl-baseline",
  extra: object = {},
): RequestLine {
  return {
    custom_id: customId,
    method: "POST",
    url: "/v1/chat/completions",
    body: {
      model,
      messages: [{ role: "user", content: `Will question ${customId} resolve yes?` }],
      ...extra,
    },
  };
}

export function jsonl(lines: unknown[]): string {
  return `${lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n")}\n`;
}

export async function uploadBatchFile(openai: OpenAI, content: string, name = "input.jsonl") {
  return openai.files.create({ file: await toFile(Buffer.from(content), name), purpose: "batch" });
}

const TERMINAL = new Set(["completed", "failed", "expired", "cancelled"]);

/** Polls until the batch reaches a terminal status (or `until` says stop). */
export async function waitForBatch(
  openai: OpenAI,
  id: string,
  until: (status: string) => boolean = (status) => TERMINAL.has(status),
  timeoutMs = 20_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const batch = await openai.batches.retrieve(id);
    if (until(batch.status)) return batch;
    if (Date.now() > deadline) throw new Error(`batch ${id} still ${batch.status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface ResultLine {
  id: string;
  custom_id: string;
  response: { status_code: number; request_id: string; body: Record<string, unknown> } | null;
  error: { code: string; message: string } | null;
}

export async function readResults(openai: OpenAI, fileId: string | null | undefined) {
  if (!fileId) return [];
  const response = await openai.files.content(fileId);
  const text = await response.text();
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as ResultLine);
}

/** The body of a batch create for an uploaded input file. */
export const batchRequest = (inputFileId: string) => ({
  input_file_id: inputFileId,
  endpoint: "/v1/chat/completions" as const,
  completion_window: "24h" as const,
});
