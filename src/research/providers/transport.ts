import { type Dispatcher, request } from "undici";
import { type HttpSourceOptions, ResearchSourceError } from "../source.js";
import { errorDetail } from "./error-detail.js";
import { arrayField, isJsonObject } from "./fields.js";

/** Largest reply read; a search answer is far smaller, so anything bigger is a broken server. */
export const MAX_REPLY_BYTES = 5 * 1024 * 1024;

const USER_AGENT = "sibyl-research/1.0";

export interface ProviderRequest {
  method: "GET" | "POST";
  /** Path below the base URL's own path, starting with `/`. */
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Sent as a JSON body. */
  json?: unknown;
}

export interface ProviderReply {
  status: number;
  /** Lower-case media type without parameters; "" when the reply names none. */
  mediaType: string;
  text: string;
}

/**
 * One provider's HTTP access: requests below its base URL with a whole-request time limit (from
 * sending to the last body byte) combined with the caller's signal, replies read up to
 * `MAX_REPLY_BYTES`, and every failure turned into a `ResearchSourceError` whose message never
 * holds the API key.
 */
export class ProviderTransport {
  private readonly base: URL;

  constructor(
    readonly provider: string,
    private readonly options: HttpSourceOptions,
  ) {
    this.base = parseBaseUrl(provider, options.baseUrl);
    if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) {
      throw new ResearchSourceError(provider, "timeout must be a positive number of milliseconds");
    }
  }

  async send(spec: ProviderRequest, signal: AbortSignal | undefined): Promise<ProviderReply> {
    if (signal?.aborted) throw this.cancelled(signal.reason);
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const fail = (error: unknown) => this.transferFailure(error, signal, timeout);
    let response: Dispatcher.ResponseData;
    try {
      response = await request(this.url(spec), {
        method: spec.method,
        headers: requestHeaders(spec),
        body: spec.json === undefined ? undefined : JSON.stringify(spec.json),
        signal: combined,
      });
    } catch (error) {
      throw fail(error);
    }
    const text = await this.readText(response, fail);
    return { status: response.statusCode, mediaType: mediaType(response.headers), text };
  }

  /** The parsed JSON of a 2xx reply; a failure naming the status or the unreadable body otherwise. */
  json(reply: ProviderReply): unknown {
    if (reply.status < 200 || reply.status > 299) throw this.statusFailure(reply);
    try {
      return JSON.parse(reply.text);
    } catch (error) {
      const type = reply.mediaType || "no content type";
      throw this.failure(`unreadable JSON reply (${type}, ${reply.text.length} characters)`, error);
    }
  }

  /** The array a 2xx JSON reply holds under `field`; a failure when the reply has none. */
  resultsList(reply: ProviderReply, field: string): unknown[] {
    const items = this.optionalList(this.json(reply), field);
    if (items === null) throw this.noList(field);
    return items;
  }

  /** The array a parsed reply holds under `field`, null when the field is absent or null. */
  optionalList(parsed: unknown, field: string): unknown[] | null {
    const items = isJsonObject(parsed) ? arrayField(parsed, field) : "invalid";
    if (items === "invalid") throw this.noList(field);
    return items;
  }

  statusFailure(reply: ProviderReply, hint?: string): ResearchSourceError {
    const detail = errorDetail(reply.text);
    const suffix = [detail, hint].filter(Boolean).join("; ");
    return this.failure(`HTTP ${reply.status}${suffix ? `: ${suffix}` : ""}`);
  }

  /** An error for this provider; the API key, should a server echo it, is masked. */
  failure(message: string, cause?: unknown): ResearchSourceError {
    const key = this.options.apiKey;
    const safe = key ? message.replaceAll(key, "[REDACTED]") : message;
    return new ResearchSourceError(
      this.provider,
      safe,
      cause === undefined ? undefined : { cause },
    );
  }

  /** Parameters are percent-encoded (spaces as `%20`, not `+`, which not every API decodes). */
  private url(spec: ProviderRequest): URL {
    const url = new URL(this.base.href);
    url.pathname = `${this.base.pathname.replace(/\/+$/, "")}${spec.path}`;
    const params = Object.entries(spec.query ?? {}).map(
      ([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`,
    );
    const baseParams = this.base.search.slice(1);
    url.search = [baseParams, ...params].filter(Boolean).join("&");
    return url;
  }

  private async readText(
    response: Dispatcher.ResponseData,
    fail: (error: unknown) => ResearchSourceError,
  ): Promise<string> {
    const declared = Number(response.headers["content-length"]);
    if (Number.isFinite(declared) && declared > MAX_REPLY_BYTES) {
      discard(response);
      throw this.tooLarge();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body) {
        const bytes: Buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
        size += bytes.length;
        if (size > MAX_REPLY_BYTES) throw this.tooLarge();
        chunks.push(bytes);
      }
    } catch (error) {
      discard(response);
      throw error instanceof ResearchSourceError ? error : fail(error);
    }
    return Buffer.concat(chunks, size).toString("utf8");
  }

  private noList(field: string): ResearchSourceError {
    return this.failure(`reply has no ${field} list`);
  }

  private tooLarge(): ResearchSourceError {
    return this.failure(`reply larger than ${MAX_REPLY_BYTES} bytes`);
  }

  private cancelled(reason: unknown): ResearchSourceError {
    return this.failure("request cancelled by the caller", reason);
  }

  /** Maps an error while sending or reading: cancellation first, then the time limit, then the cause. */
  private transferFailure(
    error: unknown,
    signal: AbortSignal | undefined,
    timeout: AbortSignal,
  ): ResearchSourceError {
    if (signal?.aborted) return this.cancelled(error);
    if (timeout.aborted) {
      return this.failure(`no complete reply within ${this.options.timeoutMs} ms`, error);
    }
    const code = errorCode(error);
    if (code === "ECONNREFUSED") return this.failure("connection refused", error);
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") return this.failure("host not found", error);
    const detail = code ?? (error instanceof Error ? error.message : String(error));
    return this.failure(`connection failed (${detail})`, error);
  }
}

function parseBaseUrl(provider: string, baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ResearchSourceError(provider, `base url is not a valid URL: ${baseUrl}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ResearchSourceError(provider, `base url must be http or https: ${baseUrl}`);
  }
  return url;
}

function requestHeaders(spec: ProviderRequest): Record<string, string> {
  const headers: Record<string, string> = {
    accept: "application/json",
    "user-agent": USER_AGENT,
    ...spec.headers,
  };
  if (spec.json !== undefined) headers["content-type"] = "application/json";
  return headers;
}

function mediaType(headers: Dispatcher.ResponseData["headers"]): string {
  const header = headers["content-type"];
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(";")[0]?.trim().toLowerCase() ?? "";
}

/** Closes the connection without reading on; the abort error that follows is expected. */
function discard(response: Dispatcher.ResponseData): void {
  response.body.on("error", () => {});
  response.body.destroy();
}

function errorCode(error: unknown): string | null {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === "string") return code;
  }
  return null;
}

/** The API key of a provider that cannot work without one; a missing key fails at startup. */
export function requiredApiKey(provider: string, options: HttpSourceOptions): string {
  if (!options.apiKey) {
    throw new ResearchSourceError(provider, "an API key is required (set api_key_env)");
  }
  return options.apiKey;
}
