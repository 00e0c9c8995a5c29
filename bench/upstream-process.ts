/**
 * A minimal OpenAI-compatible model server for the benchmark: answers every chat completion at
 * with the same small reply and usage, so what is measured is the path in front of it.
 * Argument: `{"delayMs": n}` (default 0) holds each reply that long, like a model generating.
 * Prints `{"url": …}` once it listens.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const reply = JSON.stringify({
  id: "chatcmpl-bench",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "bench-upstream",
  choices: [
    {
      index: 0,
      message: { role: "assistant", content: "Probability: 35%. Base rates favour no." },
      logprobs: null,
      finish_reason: "stop",
    },
  ],
  usage: { prompt_tokens: 42, completion_tokens: 12, total_tokens: 54 },
});

const { delayMs = 0 } = JSON.parse(process.argv[2] ?? "{}") as { delayMs?: number };

const server = createServer((request, response) => {
  const answer = () => {
    response.writeHead(200, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(reply),
    });
    response.end(reply);
  };
  request.resume();
  request.on("end", () => {
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  });
});
server.keepAliveTimeout = 60_000;

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/v1` })}\n`);
});

process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
