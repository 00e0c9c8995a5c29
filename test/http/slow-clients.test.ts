import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/polling.js";
import { parseResponses, rawExchange } from "../support/raw-http.js";
import { startTestServer, type TestServer } from "../support/server.js";

/*
 * A client that sends a request head and then too little body, or none, used to keep its
 * connection for up to 10 minutes, and one client could open as many connections as it liked.
 * Here a body that brings no byte for half a second (30 s by default) is cut with a 408, while
 * an upload that keeps moving takes as long as it needs.
 */
const STALL_MS = 500;

const CHAT = JSON.stringify({
  model: "sibyl-baseline",
  messages: [{ role: "user", content: "Will it rain tomorrow?" }],
});

describe("a request body that stalls", () => {
  let server: TestServer;
  let apiKey: string;
  const written: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({
      app: { bodyStallMs: STALL_MS },
      logger: { level: "info", stream: { write: (line: string) => written.push(line) } },
    });
    ({ apiKey } = await server.createOrg());
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The log lines written since `before`, once the request's access line is among them. */
  const logLinesUntilCompleted = (before: number) =>
    eventually(async () => {
      const lines = written
        .slice(before)
        .map((line) => JSON.parse(line) as { msg: string; status?: number; level: number });
      return lines.some((line) => line.msg === "request completed") ? lines : undefined;
    });

  const head = (path: string, lines: string[]) =>
    [`POST ${path} HTTP/1.1`, "Host: x", `Authorization: Bearer ${apiKey}`, ...lines, "", ""].join(
      "\r\n",
    );
  const boundary = "b0undary";
  const form = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="purpose"',
    "",
    "batch",
    `--${boundary}`,
    'Content-Disposition: form-data; name="file"; filename="input.jsonl"',
    "Content-Type: application/jsonl",
    "",
    '{"custom_id":"1","method":"POST","url":"/v1/chat/completions","body":{"model":"sibyl-baseline","messages":[{"role":"user","content":"Q"}]}}',
    `--${boundary}--`,
    "",
  ].join("\r\n");

  it.each<[string, () => string]>([
    [
      "shorter than its Content-Length",
      () =>
        head("/v1/chat/completions", ["Content-Type: application/json", "Content-Length: 500"]) +
        CHAT.slice(0, 40),
    ],
    [
      "chunked and never finished",
      () =>
        `${head("/v1/chat/completions", ["Content-Type: application/json", "Transfer-Encoding: chunked"])}${(20).toString(16)}\r\n${CHAT.slice(0, 20)}\r\n`,
    ],
    [
      "announced with Expect: 100-continue and never sent",
      () =>
        head("/v1/chat/completions", [
          "Content-Type: application/json",
          `Content-Length: ${CHAT.length}`,
          "Expect: 100-continue",
        ]),
    ],
    [
      "an upload cut off part-way",
      () =>
        head("/v1/files", [
          `Content-Type: multipart/form-data; boundary=${boundary}`,
          `Content-Length: ${form.length}`,
        ]) + form.slice(0, 120),
    ],
    [
      "with no byte of body at all",
      () => head("/v1/responses", ["Content-Type: application/json", "Content-Length: 100"]),
    ],
  ])("is cut with a 408 when it is %s", async (_label, raw) => {
    const before = written.length;
    const exchange = await rawExchange(server.url, [raw()], { timeoutMs: 10_000 });
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.elapsedMs).toBeGreaterThanOrEqual(STALL_MS - 50);
    expect(exchange.elapsedMs).toBeLessThan(STALL_MS + 2_000);
    const answer = exchange.responses.find((response) => response.status !== 100);
    expect(answer?.status).toBe(408);
    expect(JSON.parse(answer?.body ?? "{}").error.code).toBe("request_timeout");
    const lines = await logLinesUntilCompleted(before);
    expect(lines.find((line) => line.msg === "request completed")?.status).toBe(408);
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
  });

  it("lets a body that keeps moving take many times the stall limit", async () => {
    const { hostname, port } = new URL(server.url);
    const socket = net.connect(Number(port), hostname);
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    const received: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    const started = Date.now();
    socket.write(
      head("/v1/chat/completions", [
        "Content-Type: application/json",
        `Content-Length: ${CHAT.length}`,
        "Connection: close",
      ]),
    );
    // A byte every fifth of the stall limit: the body takes about 4 s in all.
    const pieces = CHAT.match(/.{1,4}/g) ?? [];
    for (const piece of pieces) {
      await sleep(STALL_MS / 5);
      socket.write(piece);
    }
    await new Promise<void>((resolve) => socket.once("close", () => resolve()));
    expect(Date.now() - started).toBeGreaterThan(4 * STALL_MS);
    const [answer] = parseResponses(Buffer.concat(received));
    expect(answer?.status).toBe(200);
  });

  it("closes the connection of a request refused before its body came, once the body stalls", async () => {
    // No key: the 401 goes out at once, and the connection waits for the announced body.
    const raw =
      "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{";
    const exchange = await rawExchange(server.url, [raw], { timeoutMs: 10_000 });
    expect(exchange.responses.map((response) => response.status)).toEqual([401]);
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.elapsedMs).toBeLessThan(STALL_MS + 2_000);
  });
});

describe("connections per client address", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ config: { server: { max_connections_per_address: 4 } } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("refuses a connection past the limit with a 429 and serves again once one closes", async () => {
    const { hostname, port } = new URL(server.url);
    const held = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const socket = net.connect(Number(port), hostname);
        await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
        return socket;
      }),
    );
    const refused = await rawExchange(server.url, ["GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"]);
    expect(refused.responses.map((response) => response.status)).toEqual([429]);
    expect(JSON.parse(refused.responses[0]?.body ?? "{}").error.code).toBe("too_many_connections");
    expect(refused.closedByServer).toBe(true);
    const closed = held.map(
      (socket) => new Promise<void>((resolve) => socket.once("close", () => resolve())),
    );
    for (const socket of held) socket.destroy();
    await Promise.all(closed);
    await sleep(50);
    const served = await rawExchange(server.url, ["GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"], {
      responses: 1,
    });
    expect(served.responses.map((response) => response.status)).toEqual([200]);
  });
});
