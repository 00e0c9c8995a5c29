import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body as text; parse it with `JSON.parse` where it is JSON. */
  body: string;
}

export interface RawExchange {
  responses: RawResponse[];
  /** Whether the server closed the connection before the wait ended. */
  closedByServer: boolean;
  elapsedMs: number;
}

export interface RawExchangeOptions {
  /** Pause between the pieces written, so the server sees each one arrive on its own. */
  pauseMs?: number;
  /** Stop once this many complete responses have arrived (the server may keep the connection). */
  responses?: number;
  /** Give up after this long; whatever arrived by then is returned. */
  timeoutMs?: number;
}

/** Splits a byte stream into the responses it holds; each must carry a Content-Length. */
export function parseResponses(raw: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = raw;
  for (;;) {
    const end = rest.indexOf("\r\n\r\n");
    if (end === -1) return responses;
    const [statusLine = "", ...lines] = rest.subarray(0, end).toString("latin1").split("\r\n");
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers["content-length"] ?? 0);
    if (rest.length < end + 4 + length) return responses;
    responses.push({
      status: Number(statusLine.split(" ")[1]),
      headers,
      body: rest.subarray(end + 4, end + 4 + length).toString("utf8"),
    });
    rest = rest.subarray(end + 4 + length);
  }
}

/**
 * Writes raw bytes to the server, for requests no HTTP client would send, and collects what
 * comes back until the server closes the connection, enough responses arrived, or time is up.
 */
export async function rawExchange(
  baseUrl: string,
  pieces: (string | Buffer)[],
  options: RawExchangeOptions = {},
): Promise<RawExchange> {
  const { pauseMs = 0, responses: wanted = Number.POSITIVE_INFINITY, timeoutMs = 5_000 } = options;
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect(Number(port), hostname);
  const started = Date.now();
  const received: Buffer[] = [];
  const outcome = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    socket.on("data", (chunk: Buffer) => {
      received.push(chunk);
      if (parseResponses(Buffer.concat(received)).length >= wanted) {
        clearTimeout(timer);
        resolve(false);
      }
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(true);
    });
    // A reset after the server answered is still a close; what it sent is kept.
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  for (const [index, piece] of pieces.entries()) {
    if (index > 0 && pauseMs > 0) await sleep(pauseMs);
    if (!socket.destroyed) socket.write(piece);
  }
  const closedByServer = await outcome;
  const elapsedMs = Date.now() - started;
  socket.destroy();
  return { responses: parseResponses(Buffer.concat(received)), closedByServer, elapsedMs };
}
