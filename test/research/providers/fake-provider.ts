import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake search API on loopback: records each request as it arrived and answers it as the test
 * scripts (a reply, a reply whose body stalls, or no reply at all).
 */

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  /** The query string as sent, without the `?`. */
  rawQuery: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type FakeReply =
  | { kind: "reply"; status: number; contentType: string; body: string | Buffer; chunked?: boolean }
  /** Never answers (the connection stays open). */
  | { kind: "silent" }
  /** Sends the status line, headers and a first piece of the body, then nothing more. */
  | { kind: "stall"; contentType: string; firstPiece: string };

export interface FakeProvider {
  /** Base URL of the fake, without a trailing slash. */
  url: string;
  requests: RecordedRequest[];
  /** The reply to every following request. */
  answer(reply: FakeReply): void;
  /** Resolves when the next request has arrived in full. */
  nextRequest(): Promise<RecordedRequest>;
  close(): Promise<void>;
}

export function json(body: unknown, status = 200): FakeReply {
  return { kind: "reply", status, contentType: "application/json", body: JSON.stringify(body) };
}

export function text(body: string, status = 200, contentType = "text/plain"): FakeReply {
  return { kind: "reply", status, contentType, body };
}

export async function startFakeProvider(): Promise<FakeProvider> {
  const requests: RecordedRequest[] = [];
  const waiting: ((request: RecordedRequest) => void)[] = [];
  let reply: FakeReply = json({});

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fake");
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path: url.pathname,
        query: url.searchParams,
        rawQuery: url.search.slice(1),
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(recorded);
      for (const resolve of waiting.splice(0)) resolve(recorded);
      respond(res, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer(next) {
      reply = next;
    },
    nextRequest: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function respond(res: ServerResponse, reply: FakeReply): void {
  if (reply.kind === "silent") return;
  if (reply.kind === "stall") {
    res.writeHead(200, { "content-type": reply.contentType });
    res.write(reply.firstPiece);
    return;
  }
  const body = Buffer.isBuffer(reply.body) ? reply.body : Buffer.from(reply.body);
  const headers: Record<string, string> = { "content-type": reply.contentType };
  if (!reply.chunked) headers["content-length"] = String(body.length);
  res.writeHead(reply.status, headers);
  if (reply.chunked) {
    for (let offset = 0; offset < body.length; offset += 64 * 1024) {
      res.write(body.subarray(offset, offset + 64 * 1024));
    }
    res.end();
  } else {
    res.end(body);
  }
}

/** A loopback port with nothing listening on it. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
