/**
 * The least any gateway that reads what it bills must add to the bare proxy (proxy-process.ts):
 * a `node:http` server that checks the bearer key (SHA-256 against a map), parses the request
 * body and writes it anew to the model server over an undici pool, parses the reply, adds its
 * token usage to an in-memory tally and writes the reply anew. No framework, schema, rate limit,
 * hold, database or answer step. Whatever Sibyl does beyond that must fit between this row and
 * its target. Argument: `{"upstreamUrl": …, "apiKey": …}`. Prints `{"url"}` once it listens.
 */
import { createHash } from "node:crypto";
import { bodyOf, serveProxy, upstreamOf } from "./proxy-server.js";

const { upstreamUrl, apiKey } = JSON.parse(process.argv[2] ?? "{}") as {
  upstreamUrl: string;
  apiKey: string;
};
const upstream = upstreamOf(upstreamUrl);
const digestOf = (key: string) => createHash("sha256").update(key).digest("hex");
const keyOwners = new Map([[digestOf(apiKey), "benchmark"]]);
const tokensByOwner = new Map<string, number>();

interface Reply {
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

serveProxy(upstream, async (request, response) => {
  const owner = keyOwners.get(digestOf((request.headers.authorization ?? "").slice(7)));
  if (!owner) {
    response.writeHead(401).end();
    return;
  }
  const body: unknown = JSON.parse((await bodyOf(request)).toString("utf8"));
  const answer = await upstream.pool.request({
    path: upstream.path,
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
});
