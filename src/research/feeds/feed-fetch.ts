import { type Dispatcher, request } from "undici";

/** Largest feed document read; real feeds are far smaller. */
export const MAX_FEED_BYTES = 5 * 1024 * 1024;

export const FEED_USER_AGENT = "Sibyl-FeedWatcher/1.0 (news archive)";

const ACCEPT =
  "application/rss+xml, application/atom+xml, application/rdf+xml;q=0.9, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.1";

/** What a server said last time, sent back so an unchanged feed costs a 304. */
export interface FeedValidators {
  etag: string | null;
  lastModified: string | null;
}

export type FeedResponse =
  | { status: "not-modified" }
  | { status: "ok"; body: string; validators: FeedValidators };

export interface FeedFetchOptions {
  dispatcher: Dispatcher;
  /** Whole-request limit, from sending to the last byte. */
  timeoutMs: number;
  /** Aborts the request early (the watcher stopping). */
  signal: AbortSignal;
}

export class FeedFetchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FeedFetchError";
  }
}

/** One conditional GET of a feed, its body decoded in the charset the feed declares. */
export async function fetchFeed(
  url: string,
  previous: FeedValidators,
  options: FeedFetchOptions,
): Promise<FeedResponse> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([options.signal, timeout]);
  const headers: Record<string, string> = { "user-agent": FEED_USER_AGENT, accept: ACCEPT };
  if (previous.etag) headers["if-none-match"] = previous.etag;
  if (previous.lastModified) headers["if-modified-since"] = previous.lastModified;

  try {
    const response = await request(url, {
      method: "GET",
      headers,
      signal,
      dispatcher: options.dispatcher,
    });
    if (response.statusCode === 304) {
      await response.body.dump();
      return { status: "not-modified" };
    }
    if (response.statusCode < 200 || response.statusCode > 299) {
      await response.body.dump();
      throw new FeedFetchError(`HTTP ${response.statusCode}`);
    }
    const bytes = await readCapped(response);
    return {
      status: "ok",
      body: decode(bytes, header(response.headers, "content-type")),
      validators: {
        etag: header(response.headers, "etag"),
        lastModified: header(response.headers, "last-modified"),
      },
    };
  } catch (error) {
    if (error instanceof FeedFetchError) throw error;
    if (timeout.aborted) {
      throw new FeedFetchError(`no complete reply within ${options.timeoutMs} ms`, {
        cause: error,
      });
    }
    throw new FeedFetchError((error as Error).message, { cause: error });
  }
}

async function readCapped(response: Dispatcher.ResponseData): Promise<Buffer> {
  const declared = Number(header(response.headers, "content-length"));
  if (Number.isFinite(declared) && declared > MAX_FEED_BYTES) {
    response.body.destroy();
    throw new FeedFetchError(`feed larger than ${MAX_FEED_BYTES} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    if (size > MAX_FEED_BYTES) {
      response.body.destroy();
      throw new FeedFetchError(`feed larger than ${MAX_FEED_BYTES} bytes`);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size);
}

function header(headers: Dispatcher.ResponseData["headers"], name: string): string | null {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === "" ? null : first;
}

/**
 * Text of a feed in its declared charset: the Content-Type's, else the XML declaration's, else
 * UTF-8. Feeds in ISO-8859-1 and windows-1252 are still about.
 */
function decode(bytes: Buffer, contentType: string | null): string {
  const fromHeader = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? "")?.[1];
  const prolog = bytes.subarray(0, 256).toString("latin1");
  const fromProlog = /^(?:\uFEFF|\xEF\xBB\xBF)?<\?xml[^>]*encoding\s*=\s*["']([\w.:-]+)["']/.exec(
    prolog,
  )?.[1];
  const label = fromHeader ?? fromProlog ?? "utf-8";
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}
