import { setTimeout as sleep } from "node:timers/promises";
import { FormData, request } from "undici";
import { BacktestError } from "../errors.js";
import type { BatchInfo, BatchPage, ModelInfo } from "./api-types.js";
import { retryDelayMs } from "./retry-delay.js";

export interface ApiClientOptions {
  /** e.g. `http://127.0.0.1:8080`; a trailing `/v1` is accepted. */
  baseUrl: string;
  apiKey: string;
  /** Attempts per request for 5xx and connection failures (429 waits do not count). */
  maxAttempts?: number;
  /** Told about each wait before a retry. */
  onRetry?: (message: string) => void;
}

type Method = "GET" | "POST";

/** Most 429 waits honoured in a row before giving up: a rate limit that never lifts is an error. */
const MAX_RATE_LIMIT_WAITS = 50;

/**
 * A client of Sibyl's (or any OpenAI-compatible) files and batches API. Retries 5xx replies and
 * lost connections with backoff, waits out 429s as `Retry-After` says, and stops at a 402 with
 * a message on how to go on.
 */
export class ApiClient {
  private readonly root: string;
  private readonly maxAttempts: number;

  constructor(private readonly options: ApiClientOptions) {
    this.root = `${options.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "")}/v1`;
    this.maxAttempts = options.maxAttempts ?? 6;
  }

  get endpoint(): string {
    return this.root;
  }

  async listModels(): Promise<ModelInfo[]> {
    const page = (await this.json("GET", "/models")) as { data?: ModelInfo[] };
    return Array.isArray(page.data) ? page.data : [];
  }

  /** The balance in USD, or null where the endpoint has no `/v1/balance`. */
  async balanceUsd(): Promise<number | null> {
    try {
      const body = (await this.json("GET", "/balance")) as { balance_dollars?: unknown };
      return typeof body.balance_dollars === "number" ? body.balance_dollars : null;
    } catch (error) {
      if (error instanceof ApiStatusError && error.status === 404) return null;
      throw error;
    }
  }

  async uploadBatchFile(content: string, filename: string): Promise<{ id: string }> {
    const body = (await this.json("POST", "/files", () => {
      const form = new FormData();
      form.append("purpose", "batch");
      form.append("file", new Blob([content], { type: "application/jsonl" }), filename);
      return form;
    })) as { id?: unknown };
    if (typeof body.id !== "string") throw new BacktestError("file upload answered without an id");
    return { id: body.id };
  }

  /** Keeps a backtest's output on the server (Sibyl's purpose `evaluation`). */
  async uploadEvaluationFile(content: string, filename: string): Promise<{ id: string }> {
    const body = (await this.json("POST", "/files", () => {
      const form = new FormData();
      form.append("purpose", "evaluation");
      form.append("file", new Blob([content]), filename);
      return form;
    })) as { id?: unknown };
    if (typeof body.id !== "string") throw new BacktestError("file upload answered without an id");
    return { id: body.id };
  }

  async createBatch(inputFileId: string, metadata: Record<string, string>): Promise<BatchInfo> {
    return (await this.json("POST", "/batches", () =>
      JSON.stringify({
        input_file_id: inputFileId,
        endpoint: "/v1/chat/completions",
        completion_window: "24h",
        metadata,
      }),
    )) as BatchInfo;
  }

  async getBatch(id: string): Promise<BatchInfo> {
    return (await this.json("GET", `/batches/${encodeURIComponent(id)}`)) as BatchInfo;
  }

  async listBatches(after: string | null): Promise<BatchPage> {
    const query = after === null ? "?limit=100" : `?limit=100&after=${encodeURIComponent(after)}`;
    return (await this.json("GET", `/batches${query}`)) as BatchPage;
  }

  async fileContent(id: string): Promise<string> {
    return this.call("GET", `/files/${encodeURIComponent(id)}/content`);
  }

  private async json(
    method: Method,
    path: string,
    body?: () => string | FormData,
  ): Promise<unknown> {
    const text = await this.call(method, path, body);
    try {
      return JSON.parse(text);
    } catch {
      throw new BacktestError(
        `${method} ${this.root}${path} answered with something other than JSON`,
      );
    }
  }

  private async call(
    method: Method,
    path: string,
    body?: () => string | FormData,
  ): Promise<string> {
    const url = `${this.root}${path}`;
    let failures = 0;
    let rateLimitWaits = 0;
    for (;;) {
      const payload = body?.();
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(url, {
          method,
          headers: {
            authorization: `Bearer ${this.options.apiKey}`,
            ...(typeof payload === "string" ? { "content-type": "application/json" } : {}),
          },
          ...(payload === undefined ? {} : { body: payload }),
          headersTimeout: 120_000,
          bodyTimeout: 300_000,
        });
      } catch (error) {
        failures += 1;
        if (failures >= this.maxAttempts) {
          throw new BacktestError(`${method} ${url} failed: ${(error as Error).message}`);
        }
        await this.wait(
          retryDelayMs(failures, undefined),
          `${method} ${path}: ${(error as Error).message}`,
        );
        continue;
      }
      const text = await response.body.text();
      const status = response.statusCode;
      if (status >= 200 && status < 300) return text;
      const message = errorMessage(text) ?? `HTTP ${status}`;
      const noRetry = response.headers["x-should-retry"] === "false";
      if (status === 402) {
        throw new BacktestError(
          `the endpoint refused for lack of credits (402: ${message}). Add credits (e.g. sibyl credits add --org ORG_ID --usd X) and run the same command again: it resumes where it stopped.`,
        );
      }
      if (status === 429 && !noRetry && rateLimitWaits < MAX_RATE_LIMIT_WAITS) {
        rateLimitWaits += 1;
        await this.wait(retryDelayMs(1, response.headers), `${method} ${path}: rate limited`);
        continue;
      }
      if (status >= 500 && !noRetry && failures + 1 < this.maxAttempts) {
        failures += 1;
        await this.wait(
          retryDelayMs(failures, response.headers),
          `${method} ${path}: ${status} ${message}`,
        );
        continue;
      }
      throw new ApiStatusError(status, `${method} ${url}: ${status} ${message}`);
    }
  }

  private async wait(ms: number, reason: string): Promise<void> {
    this.options.onRetry?.(`${reason}; retrying in ${(ms / 1000).toFixed(1)} s`);
    await sleep(ms);
  }
}

/** A reply the client does not retry (4xx other than 402/429, or 5xx past the attempts). */
export class ApiStatusError extends BacktestError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function errorMessage(text: string): string | null {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    return typeof body.error?.message === "string" ? body.error.message : null;
  } catch {
    return text.trim().slice(0, 200) || null;
  }
}
