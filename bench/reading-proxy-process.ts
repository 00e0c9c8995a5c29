/**
 * The least any gateway that reads what it bills must add to the bare proxy (proxy-process.ts):
 * a `node:http` server that checks the bearer key (SHA-256 against a map), parses the request
 * body and writes it anew to the model server over an undici pool, parses the reply, adds its
 * token usage to an in-memory tally and writes the reply anew. No framework, schema, rate limit,
 * hold, database or answer step. Whatever Sibyl does beyond that must fit between this row and
 * its target. Argument: `{"upstreamUrl": …, "apiKey": …}`. Prints `{"url"}` once it listens.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";

const { upstreamUrl, apiKey } = JSON.parse(process.argv[2] ?? "{}") as {
  upstreamUrl: string;
  apiKey: string;
};
const upstream = new URL(upstreamUrl);
const pool = new Pool(upstream.origin);
const path = `${upstream.pathname}/chat/completions`;
const digestOf = (key: string) => createHash("sha256").update(key).digest("hex");
const keyOwners = new Map([[digestOf(apiKey), "benchmark"]]);
const tokensByOwner = new Map<string, number>();

interface Reply {
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

async function textOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const server = createServer((request, response) => {
  void (async () => {
    try {
      const owner = keyOwners.get(digestOf((request.headers.authorization ?? "").slice(7)));
      if (!owner) {
        response.writeHead(401).end();
        return;
      }
      const body: unknown = JSON.parse(await textOf(request));
      const answer = await pool.request({
        path,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const reply = (await answer.body.json()) as Reply;
      const tokens = (reply.usage?.prompt_tokens ?? 0) + (reply.usage?.completion_tokens ?? 0);
      tokensByOwner.set(owner, (tokensByOwner.get(owner) ?? 0) + tokens);
      const text = JSON.stringify(reply);
      response.writeHead(answer.statusCode, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(text),
      });
      response.end(text);
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
