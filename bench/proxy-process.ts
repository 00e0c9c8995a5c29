/**
 * The least any HTTP hop in front of the model server can cost: Fastify passing the request body
 * to the model server over an undici pool and its JSON reply back, with no authentication,
 * database, tokenizer or accounting. Measured beside Sibyl, it shows how much of Sibyl's distance
 * from the model server's own rate is the extra hop itself, on the machine at hand.
 * Argument: `{"upstreamUrl": …}`. Prints `{"url"}` once it listens.
 */
import Fastify from "fastify";
import { Pool } from "undici";

const { upstreamUrl } = JSON.parse(process.argv[2] ?? "{}") as { upstreamUrl: string };
const upstream = new URL(upstreamUrl);
const pool = new Pool(upstream.origin);
const app = Fastify({ logger: false });

app.post("/v1/chat/completions", async (request) => {
  const response = await pool.request({
    path: `${upstream.pathname}/chat/completions`,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(request.body),
  });
  return response.body.json();
});

const url = await app.listen({ host: "127.0.0.1", port: 0 });
process.stdout.write(`${JSON.stringify({ url })}\n`);

process.on("SIGTERM", () => {
  void (async () => {
    app.server.closeAllConnections();
    await app.close();
    await pool.close();
    process.exit(0);
  })();
});
