/**
 * What the benchmark's `node:http` proxies (proxy-process.ts, reading-proxy-process.ts) share:
 * the upstream pool and path from the `{"upstreamUrl": …}` argument, the request body, and a
 * server on loopback that answers 502 when its handler fails, prints `{"url"}` once it listens,
 * and closes itself and the pool on SIGTERM.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";

export interface Upstream {
  pool: Pool;
  /** The model server's chat completions path. */
  path: string;
}

export function upstreamOf(upstreamUrl: string): Upstream {
  const url = new URL(upstreamUrl);
  return { pool: new Pool(url.origin), path: `${url.pathname}/chat/completions` };
}

export async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function serveProxy(
  upstream: Upstream,
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): void {
  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      response.writeHead(502).end();
    });
  });
  server.keepAliveTimeout = 60_000;

  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
  });

  process.on("SIGTERM", () => {
    server.closeAllConnections();
    server.close(() => {
      void upstream.pool.close().then(() => process.exit(0));
    });
  });
}
