import { connect } from "node:net";
import * as fc from "fast-check";
import { Pool } from "undici";

/** One generated HTTP request, sent exactly as written. */
export interface FuzzRequest {
  method: string;
  /** Path and query string as they appear on the request line. */
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export interface FuzzResponse {
  status: number;
  contentType: string;
  text: string;
}

/** How a generated request prints in a failure report: bodies cut short. */
export function describeRequest(request: FuzzRequest): string {
  const body =
    request.body === undefined
      ? ""
      : typeof request.body === "string"
        ? request.body
        : Buffer.from(request.body).toString("latin1");
  const shown = body.length > 600 ? `${body.slice(0, 600)}… (${body.length} bytes)` : body;
  return JSON.stringify({ ...request, body: shown });
}

/** Gives a request the short printed form above in fast-check's counterexamples. */
export function printable(request: FuzzRequest): FuzzRequest {
  return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });
}

/** Sends requests over keep-alive connections; an answer later than `timeoutMs` is a hang. */
export class FuzzClient {
  private readonly pool: Pool;

  constructor(
    origin: string,
    private readonly timeoutMs: number,
  ) {
    this.pool = new Pool(origin, { connections: 4 });
  }

  async send(request: FuzzRequest): Promise<FuzzResponse> {
    try {
      const response = await this.pool.request({
        method: request.method,
        path: request.path,
        headers: request.headers,
        body: request.body ?? null,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      const contentType = response.headers["content-type"];
      return {
        status: response.statusCode,
        contentType: typeof contentType === "string" ? contentType : "",
        text: await response.body.text(),
      };
    } catch (error) {
      throw new Error(
        `no complete answer (${(error as Error).message}) to ${describeRequest(request)}`,
      );
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

export interface RawAnswer {
  /** Everything the server wrote before it closed the connection or went quiet. */
  text: string;
  /** The server neither answered nor closed the connection in time. */
  hung: boolean;
}

/**
 * Writes bytes no HTTP client library would send and ends the connection's sending side (so a
 * request cut short cannot keep the server waiting), then reads until the server closes the
 * connection or has answered and stayed quiet for a moment.
 */
export function sendRaw(origin: string, bytes: Buffer, timeoutMs: number): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let text = "";
    let quiet: NodeJS.Timeout | undefined;
    const finish = (hung: boolean) => {
      clearTimeout(deadline);
      clearTimeout(quiet);
      socket.destroy();
      resolve({ text, hung });
    };
    const deadline = setTimeout(() => finish(text === ""), timeoutMs);
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      clearTimeout(quiet);
      quiet = setTimeout(() => finish(false), 200);
    });
    socket.on("close", () => finish(false));
    socket.on("error", () => finish(false));
    socket.end(bytes);
  });
}
