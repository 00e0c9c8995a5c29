/**
 * The least any HTTP hop in front of the model server can cost: a `node:http` server passing the
 * request body to the model server over an undici pool and its reply back, with no parsing,
 * authentication, database, tokenizer or accounting. Measured beside Sibyl, it shows how much of
 * Sibyl's distance from the model server's own rate is the extra hop itself, on the machine at
 * hand. Argument: `{"upstreamUrl": …}`. Prints `{"url"}` once it listens.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";

const { upstreamUrl } = JSON.parse(process.argv[2] ?? "{}") as { upstreamUrl: string };
const upstream = new URL(upstreamUrl);
const pool = new Pool(upstream.origin);
const path = `${upstream.pathname}/chat/completions`;

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const server = createServer((request, response) => {
  void (async () => {
    try {
      const answer = await pool.request({
        path,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: await bodyOf(request),
      });
      const reply = Buffer.from(await answer.body.arrayBuffer());
      response.writeHead(answer.statusCode, {
        "content-type": "application/json",
        "content-length": reply.length,
      });
      response.end(reply);
    } catch {
      response.writeHead(502).end();
    }
  })();
});
server.keepAliveTimeout = 60_000;

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});

process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => {
    void pool.close().then(() => process.exit(0));
  });
});
