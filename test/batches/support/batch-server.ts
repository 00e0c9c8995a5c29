import OpenAI, { toFile } from "openai";
import {
  startTestServer,
  type TestOrg,
  type TestServer,
  type TestServerOptions,
} from "../../support/server.js";

export interface BatchServer extends TestServer {
  /** An SDK client for a new organization with `usd` of credits. */
  client(usd?: string): Promise<{ openai: OpenAI; org: TestOrg }>;
}

/** The real app plus a batch worker (unless `worker: false`), and SDK clients pointed at it. */
export async function startBatchServer(options: TestServerOptions = {}): Promise<BatchServer> {
  const server = await startTestServer({ ...options, worker: options.worker ?? true });
  return {
    ...server,
    client: async (usd = "10") => {
      const org = await server.createOrg(usd);
      const openai = new OpenAI({ apiKey: org.apiKey, baseURL: `${server.url}/v1`, maxRetries: 0 });
      return { openai, org };
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
