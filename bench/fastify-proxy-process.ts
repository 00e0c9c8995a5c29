/**
 * The bare proxy (proxy-process.ts) written on Fastify, Sibyl's framework: one route that
 * passes the body, unparsed, to the model server over an undici pool and its reply back, with
 * no logger, hooks, schemas or anything of Sibyl's. Beside the bare proxy it shows what the
 * framework itself costs, so that the rest of the distance to Sibyl is known to be Sibyl's own
 * work. Argument: `{"upstreamUrl": …}`. Prints `{"url"}` once it listens.
 */
import Fastify from "fastify";
import { Pool } from "undici";

const { upstreamUrl } = JSON.parse(process.argv[2] ?? "{}") as { upstreamUrl: string };
const upstream = new URL(upstreamUrl);
const pool = new Pool(upstream.origin);
const path = `${upstream.pathname}/chat/completions`;

const app = Fastify({ logger: false });
app.removeContentTypeParser("application/json");
app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) =>
  done(null, body),
);
app.post("/v1/chat/completions", async (request, reply) => {
  try {
    const answer = await pool.request({
      path,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: request.body as Buffer,
    });
    const body = Buffer.from(await answer.body.arrayBuffer());
    return reply.status(answer.statusCode).header("content-type", "application/json").send(body);
  } catch {
    return reply.status(502).send();
  }
});
app.server.keepAliveTimeout = 60_000;

const url = await app.listen({ host: "127.0.0.1", port: 0 });
process.stdout.write(`${JSON.stringify({ url })}\n`);

process.on("SIGTERM", () => {
  app.server.closeAllConnections();
  void app
    .close()
    .then(() => pool.close())
    .then(() => process.exit(0));
});
