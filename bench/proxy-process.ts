/**
 * The least any HTTP hop in front of the model server can cost: a `node:http` server passing the
 * request body to the model server over an undici pool and its reply back, with no parsing,
 * authentication, database, tokenizer or accounting. Measured beside Sibyl, it shows how much of
 * Sibyl's distance from the model server's own rate is the extra hop itself, on the machine at
 * hand. Argument: `{"upstreamUrl": …}`. Prints `{"url"}` once it listens.
 */
import { bodyOf, serveProxy, upstreamOf } from "./proxy-server.js";

const { upstreamUrl } = JSON.parse(process.argv[2] ?? "{}") as { upstreamUrl: string };
const upstream = upstreamOf(upstreamUrl);

serveProxy(upstream, async (request, response) => {
  const answer = await upstream.pool.request({
    path: upstream.path,
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
});
