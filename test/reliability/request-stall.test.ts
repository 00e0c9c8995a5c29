import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prose } from "../support/large-texts.js";
import { longestLoopHoldMs } from "../support/loop-stall.js";
import { parseResponses, type RawResponse } from "../support/raw-http.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";

/*
 * No request may hold the event loop for more than 50 ms: every other request waits behind it.
 * The server runs in this process, and the longest the loop is held (in the main thread's CPU
 * time, see loop-stall.ts) is measured while one request is answered. The client's part is a
 * socket write of bytes prepared beforehand, and the model server runs in its own process. Each
 * request is measured three times and the shortest hold judged: the first run of new code is
 * slower (and builds the tokenizer's vocabulary, which `sibyl serve` builds before it listens).
 */

const STALL_BOUND_MS = 50;
const ATTEMPTS = 3;
const BIG_MODEL = "big-context";

/** A model server in its own process that answers every chat completion at once. */
const UPSTREAM_SOURCE = `
const reply = JSON.stringify({ id: "c", object: "chat.completion", created: 1, model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: "Probability: 40%" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
const server = require("node:http").createServer((request, response) => {
  request.resume();
  request.on("end", () => response.writeHead(200, { "content-type": "application/json" }).end(reply));
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

let upstream: ChildProcess;
let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  upstream = spawn(process.execPath, ["-e", UPSTREAM_SOURCE], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve) =>
    upstream.stdout?.once("data", (data: Buffer) => resolve(data.toString().trim())),
  );
  server = await startTestServer({
    config: {
      models: [
        {
          id: BIG_MODEL,
          provider: "openai",
          base_url: `http://127.0.0.1:${port}/v1`,
          context_length: 10_000_000,
          max_completion_tokens: 64,
        },
      ],
    },
  });
  org = await server.createOrg("1000");
});

afterAll(async () => {
  await server?.close();
  upstream?.kill();
});

/** Sends one request as prepared bytes and returns its answer and the loop's longest stall. */
async function stallOf(path: string, body: Buffer): Promise<{ response: RawResponse; ms: number }> {
  const { port } = new URL(server.url);
  const head = Buffer.from(
    `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${org.apiKey}\r\n` +
      `content-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`,
  );
  const socket = net.connect(Number(port), "127.0.0.1");
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  const received: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => received.push(chunk));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  // Made before the measure: the client's own copy of the request is not the server's work.
  const request = Buffer.concat([head, body]);
  const ms = await longestLoopHoldMs(async () => {
    socket.write(request);
    await closed;
  });
  const [response] = parseResponses(Buffer.concat(received));
  if (!response) throw new Error("no response");
  return { response, ms };
}

async function shortestStall(path: string, body: string) {
  const bytes = Buffer.from(body);
  const runs = [];
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) runs.push(await stallOf(path, bytes));
  return { responses: runs.map((run) => run.response), ms: Math.min(...runs.map((run) => run.ms)) };
}

describe("no request holds the event loop for more than 50 ms", () => {
  it("refuses a chat of 100,000 tiny messages at once", async () => {
    const body = JSON.stringify({
      model: BIG_MODEL,
      messages: Array.from({ length: 100_000 }, () => ({ role: "user", content: "hi" })),
    });
    const { responses, ms } = await shortestStall("/v1/chat/completions", body);
    for (const response of responses) {
      expect(response.status).toBe(413);
      expect(JSON.parse(response.body).error.code).toBe("request_too_large");
    }
    expect(ms).toBeLessThan(STALL_BOUND_MS);
  });

  it("refuses four million numbers at once", async () => {
    const body = JSON.stringify({
      model: BIG_MODEL,
      prompt: Array.from({ length: 4_000_000 }, () => 1),
    });
    const { responses, ms } = await shortestStall("/v1/completions", body);
    for (const response of responses) expect(response.status).toBe(413);
    expect(ms).toBeLessThan(STALL_BOUND_MS);
  });

  it("answers a 5 MB prompt on /v1/responses", async () => {
    const body = JSON.stringify({ model: BIG_MODEL, input: prose(5_000_000) });
    const { responses, ms } = await shortestStall("/v1/responses", body);
    for (const response of responses) expect(response.status).toBe(200);
    expect(ms).toBeLessThan(STALL_BOUND_MS);
  });

  it("answers a chat just within the value budget", async () => {
    // Three values a message: 16,000 messages are 48,000 values, under the 50,000 allowed.
    const body = JSON.stringify({
      model: BIG_MODEL,
      messages: Array.from({ length: 16_000 }, (_, index) => ({
        role: index % 2 === 0 ? "user" : "assistant",
        content: `Turn ${index} of a long conversation.`,
      })),
    });
    const { responses, ms } = await shortestStall("/v1/chat/completions", body);
    for (const response of responses) expect(response.status, response.body).toBe(200);
    expect(ms).toBeLessThan(STALL_BOUND_MS);
  });
});
