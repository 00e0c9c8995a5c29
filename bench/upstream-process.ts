/**
 * A minimal OpenAI-compatible model server for the benchmark: answers every chat completion at
 * once with the same small reply and usage, so what is measured is the path in front of it.
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

const server = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    response.writeHead(200, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(reply),
    });
    response.end(reply);
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
