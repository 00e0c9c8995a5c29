import http from "node:http";
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadEvaluationFile } from "../support/evaluation-uploads.js";
import { expectErrorResponse, type JsonResponse, request } from "../support/http.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { parseResponses, type RawResponse, rawExchange } from "../support/raw-http.js";
import { startTestServer, type TestServer } from "../support/server.js";

function asJson(response: RawResponse | undefined): JsonResponse {
  if (!response) throw new Error("no response arrived");
  return {
    status: response.status,
    headers: new Headers(response.headers),
    body: JSON.parse(response.body),
  };
}

/** Sibyl's error shape, and no trace of the framework's own error codes. */
function expectSibylError(response: JsonResponse, status: number, code: string): void {
  expectErrorResponse(response, { status, code });
  expect(JSON.stringify(response.body)).not.toContain("FST_");
}

const form = (parts: string[], boundary = "b0undary") =>
  `${parts.map((part) => `--${boundary}\r\n${part}\r\n`).join("")}--${boundary}--\r\n`;
const field = (name: string, value: string, headers = "") =>
  `Content-Disposition: form-data; name="${name}"\r\n${headers}\r\n${value}`;
const file = (name: string) =>
  `Content-Disposition: form-data; name="${name}"; filename="a.jsonl"\r\nContent-Type: application/jsonl\r\n\r\n{"custom_id":"1"}`;

/**
 * Writes `raw` and half-closes the connection, as some clients do once their request is sent,
 * then collects what comes back until the server closes the connection or time is up.
 */
async function sendThenHalfClose(
  baseUrl: string,
  raw: string,
): Promise<{ responses: RawResponse[]; closedByServer: boolean }> {
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect(Number(port), hostname);
  const received: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => received.push(chunk));
  socket.on("error", () => undefined);
  const closedByServer = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 5_000);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(true);
    });
    socket.end(raw);
  });
  socket.destroy();
  return { responses: parseResponses(Buffer.concat(received)), closedByServer };
}

const GZIP_CHUNKED = [
  "POST /v1/chat/completions HTTP/1.1",
  "Host: x",
  "Content-Type: application/json",
  "Transfer-Encoding: gzip, chunked",
  "",
  "2\r\n{}\r\n0\r\n\r\n",
].join("\r\n");

describe("errors raised before a route runs", () => {
  let server: TestServer;
  let apiKey: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ apiKey } = await server.createOrg());
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each([
    ["a garbage request line", "GARBAGE\r\n\r\n", 400, "malformed_http_request"],
    [
      "an unknown method",
      "BREW /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
      400,
      "malformed_http_request",
    ],
    [
      "a header name with a space",
      "GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n",
      400,
      "malformed_http_request",
    ],
    [
      "both Content-Length and Transfer-Encoding",
      "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}",
      400,
      "malformed_http_request",
    ],
    [
      "oversized headers",
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: ${"a".repeat(20_000)}\r\n\r\n`,
      431,
      "request_headers_too_large",
    ],
  ])(
    "answers %s in the error shape and closes the connection",
    async (_label, raw, status, code) => {
      const exchange = await rawExchange(server.url, [raw], { timeoutMs: 5_000 });
      expect(exchange.closedByServer).toBe(true);
      expect(exchange.elapsedMs).toBeLessThan(3_000);
      expect(exchange.responses).toHaveLength(1);
      const response = asJson(exchange.responses[0]);
      expectSibylError(response, status, code);
      expect(response.headers.get("connection")).toBe("close");
      expect(response.headers.get("x-request-id")).toMatch(/^req_[A-Za-z0-9]{20}$/);
    },
  );

  it.each([
    [
      "oversized headers",
      `GET /v1/files/${"a".repeat(20_000)}/content HTTP/1.1\r\nHost: x\r\n\r\n`,
      431,
    ],
    ["a garbage request line", "GARBAGE\r\n\r\n", 400],
  ])(
    "answers the requests sent before %s first, in order, then the error",
    async (_label, bad, status) => {
      const models = `GET /v1/models HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\n\r\n`;
      // One write: Node reads the bad request while the answers before it are still being made.
      const exchange = await rawExchange(server.url, [`${models}${models}${bad}`], {
        timeoutMs: 5_000,
      });
      expect(exchange.responses.map((response) => response.status)).toEqual([200, 200, status]);
      expect(JSON.parse(exchange.responses[0]?.body ?? "").object).toBe("list");
      expect(exchange.closedByServer).toBe(true);
    },
  );

  it.each([
    ["an over-long query", (path: string) => `${path}?q=${"a".repeat(20_000)}`],
    ["an over-long path", (path: string) => `${path}/${"a".repeat(70_000)}`],
  ])(
    "answers HEAD with %s with a 431 and no body, as Node's client reads it",
    async (_label, url) => {
      for (const path of ["/healthz", "/v1/models", "/dashboard"]) {
        const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const { hostname, port } = new URL(server.url);
          const sent = http.request({ host: hostname, port, path: url(path), method: "HEAD" });
          sent.on("response", (response) => {
            let body = "";
            response.on("data", (chunk: Buffer) => {
              body += chunk.toString();
            });
            // The client fails on bytes after a HEAD answer: "Data after `Connection: close`".
            response.socket.once("close", () =>
              resolve({ status: response.statusCode ?? 0, body }),
            );
          });
          sent.on("error", reject);
          sent.end();
        });
        expect(answer).toEqual({ status: 431, body: "" });
      }
      const get = await rawExchange(server.url, [
        `GET /healthz?q=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      ]);
      expectSibylError(asJson(get.responses[0]), 431, "request_headers_too_large");
    },
  );

  it("answers a HEAD pipelined behind a GET without a body, and the GET in full", async () => {
    const { hostname, port } = new URL(server.url);
    const socket = net.connect(Number(port), hostname);
    const received: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    socket.on("error", () => undefined);
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.write(
      `GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nHEAD /healthz?q=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    await closed;
    const raw = Buffer.concat(received).toString("latin1");
    const [first] = parseResponses(Buffer.from(raw, "latin1"));
    expect(first?.status).toBe(200);
    const second = raw.slice(raw.indexOf("HTTP/1.1 431"));
    expect(second.startsWith("HTTP/1.1 431 ")).toBe(true);
    // The head ends the connection's bytes: no body follows it.
    expect(second.indexOf("\r\n\r\n")).toBe(second.length - 4);
  });

  /** The head of an authenticated JSON chat completion, its body framed by `framing`. */
  const chatHead = (framing: string) =>
    [
      "POST /v1/chat/completions HTTP/1.1",
      "Host: x",
      `Authorization: Bearer ${apiKey}`,
      "Content-Type: application/json",
      framing,
      "",
      "",
    ].join("\r\n");

  it("answers a chunked body whose framing breaks off mid-way at once, in the error shape", async () => {
    const head = chatHead("Transfer-Encoding: chunked");
    // The route is already reading this body when the parser meets the broken chunk size.
    const exchange = await rawExchange(server.url, [`${head}2\r\n{"\r\n`, "zz\r\n\r\n"], {
      pauseMs: 100,
      timeoutMs: 5_000,
    });
    expect(exchange.elapsedMs).toBeLessThan(3_000);
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.responses).toHaveLength(1);
    expectSibylError(asJson(exchange.responses[0]), 400, "malformed_http_request");
  });

  it("finishes a download already being sent before it answers a bad request sent after it", async () => {
    const size = 16 * 1024 * 1024;
    // Its own organization: the upload tests below expect no files.
    const owner = await server.createOrg();
    const id = await uploadEvaluationFile(server.url, owner, "x".repeat(size), "report.html");
    const { hostname, port } = new URL(server.url);
    const socket = net.connect(Number(port), hostname);
    const received: Buffer[] = [];
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.on("error", () => undefined);
    // Not reading yet: the download's headers go out and its body backs up, unfinished.
    socket.pause();
    socket.write(
      `GET /v1/files/${id}/content HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${owner.apiKey}\r\n\r\n`,
    );
    await sleep(200);
    socket.write(`GET /v1/files/${"a".repeat(20_000)}/content HTTP/1.1\r\nHost: x\r\n\r\n`);
    await sleep(200);
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    socket.resume();
    await closed;
    const responses = parseResponses(Buffer.concat(received));
    expect(responses.map((response) => response.status)).toEqual([200, 431]);
    expect(responses[0]?.body.length).toBe(size);
  });

  it("answers a body in a transfer coding other than chunked with a 400", async () => {
    const raw = GZIP_CHUNKED.replace("Host: x", `Host: x\r\nAuthorization: Bearer ${apiKey}`);
    const exchange = await rawExchange(server.url, [raw], { responses: 1 });
    expectSibylError(asJson(exchange.responses[0]), 400, "unsupported_transfer_encoding");
  });

  it("answers a request that asks to close the connection, and ignores what follows it", async () => {
    const models = `GET /v1/models HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\n`;
    const exchange = await rawExchange(server.url, [
      `${models}Connection: close\r\n\r\n${models}\r\n`,
    ]);
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.responses.map((response) => response.status)).toEqual([200]);
    expect(exchange.responses[0]?.headers.connection).toBe("close");
  });

  it("answers a body over the limit, announced by Content-Length, without waiting for it", async () => {
    const head = chatHead(`Content-Length: ${17 * 1024 * 1024}`);
    const exchange = await rawExchange(server.url, [head], { responses: 1 });
    expectSibylError(asJson(exchange.responses[0]), 413, "request_too_large");
  });

  it("answers a body without a Content-Type", async () => {
    const raw = [
      "POST /v1/chat/completions HTTP/1.1",
      "Host: x",
      `Authorization: Bearer ${apiKey}`,
      "Content-Length: 2",
      "",
      "{}",
    ].join("\r\n");
    const exchange = await rawExchange(server.url, [raw], { responses: 1 });
    expectSibylError(asJson(exchange.responses[0]), 415, "unsupported_media_type");
  });

  const longId = "f".repeat(150);
  it.each([
    [
      "an XML body",
      "POST",
      "/v1/chat/completions",
      "<x/>",
      "application/xml",
      415,
      "unsupported_media_type",
    ],
    [
      "an empty JSON body",
      "POST",
      "/v1/chat/completions",
      "",
      "application/json",
      422,
      "validation_error",
    ],
    [
      "a text body to the upload route",
      "POST",
      "/v1/files",
      "x",
      "text/plain",
      415,
      "unsupported_media_type",
    ],
    ["a broken URL escape", "GET", "/v1/models/%E0%A4%A", undefined, undefined, 400, "invalid_url"],
    ["an unknown route", "GET", "/v1/nothing-here", undefined, undefined, 404, "route_not_found"],
    ["a method the route lacks", "PUT", "/v1/models", undefined, undefined, 404, "route_not_found"],
    [
      "an id too long for the router",
      "GET",
      `/v1/files/${longId}`,
      undefined,
      undefined,
      404,
      "not_found",
    ],
    [
      "an id too long, on /v1/compat",
      "GET",
      `/v1/compat/batches/${longId}`,
      undefined,
      undefined,
      404,
      "not_found",
    ],
  ])("answers %s in the error shape", async (_label, method, path, body, type, status, code) => {
    const response = await request(server.url, path, {
      method,
      apiKey,
      ...(body === undefined ? {} : { body }),
      ...(type === undefined ? {} : { headers: { "content-type": type } }),
    });
    expectSibylError(response, status, code);
  });

  it.each([
    [
      "two files",
      form([field("purpose", "batch"), file("file"), file("file")]),
      "invalid_file_field",
    ],
    [
      "too many fields",
      form([...Array.from({ length: 17 }, (_, i) => field(`f${i}`, "x")), file("file")]),
      "too_many_form_fields",
    ],
    [
      "a field named after an Object property",
      form([field("purpose", "batch"), field("constructor", "x"), file("file")]),
      "invalid_form_field",
    ],
    [
      "a JSON field that is not JSON",
      form([field("purpose", "{", "Content-Type: application/json\r\n"), file("file")]),
      "invalid_form_field",
    ],
  ])("answers an upload with %s in the error shape", async (_label, body, code) => {
    const response = await request(server.url, "/v1/files", {
      method: "POST",
      apiKey,
      headers: { "content-type": "multipart/form-data; boundary=b0undary" },
      body,
    });
    expectSibylError(response, 400, code);
    const listed = await request(server.url, "/v1/files", { apiKey });
    expect((listed.body as { data: unknown[] }).data).toEqual([]);
  });
});

describe("a server that is shutting down", () => {
  it("ends the connection with the response in progress: Connection: close, nothing pipelined after it is run", async () => {
    const server = await startTestServer();
    const { apiKey } = await server.createOrg();
    const body = form([field("purpose", "batch"), file("file")]);
    const upload = [
      "POST /v1/files HTTP/1.1",
      "Host: x",
      `Authorization: Bearer ${apiKey}`,
      "Content-Type: multipart/form-data; boundary=b0undary",
      `Content-Length: ${Buffer.byteLength(body)}`,
      "",
      body.slice(0, 40),
    ].join("\r\n");
    // The upload is still arriving when close() begins; the request pipelined behind it comes after.
    const exchange = rawExchange(
      server.url,
      [upload, `${body.slice(40)}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`],
      { pauseMs: 300, responses: 2 },
    );
    await sleep(150);
    const closing = server.app.close();
    const { responses } = await exchange;
    await closing;
    await server.close();

    // RFC 9112 §9.6: after a response saying `close` the server runs nothing more from the
    // connection, and the client knows it may send what was left unanswered again elsewhere.
    expect(responses.map((response) => response.status)).toEqual([200]);
    expect(responses[0]?.headers.connection).toBe("close");
  });

  it("answers a request whose head was still arriving with a 503 in the error shape", async () => {
    const server = await startTestServer();
    const { apiKey } = await server.createOrg();
    // Part of the head is in when close() begins, so the connection is not idle and stays open
    // for the rest; by then the server is closing and refuses the request.
    const exchange = rawExchange(
      server.url,
      ["GET /v1/models HTTP/1.1\r\nHost: x\r\n", `Authorization: Bearer ${apiKey}\r\n\r\n`],
      { pauseMs: 300, responses: 1 },
    );
    await sleep(150);
    const closing = server.app.close();
    const { responses } = await exchange;
    await closing;
    await server.close();

    expect(responses.map((response) => response.status)).toEqual([503]);
    const refused = asJson(responses[0]);
    expectSibylError(refused, 503, "shutting_down");
    expect(refused.headers.get("connection")).toBe("close");
  });
});

describe("a request whose client half-closes the connection once it is sent", () => {
  // On PostgreSQL every answer waits on the database, so none is written before the client's
  // half-close arrives.
  let database: TestDatabase;
  let server: TestServer;
  let apiKey: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startTestServer({ databaseUrl: database.url });
    ({ apiKey } = await server.createOrg());
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  const get = (target: string, headers = "") =>
    `GET ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\n${headers}\r\n`;

  it.each([
    ["in origin form", () => get("/v1/models")],
    ["in absolute form", () => get(`${server.url}/v1/models`)],
    ["in absolute form naming another host", () => get("http://elsewhere.example/v1/models")],
    ["with a #fragment", () => get("/v1/models#x")],
    [
      "asking to upgrade to a WebSocket",
      () => get("/v1/models", "Upgrade: websocket\r\nConnection: Upgrade\r\n"),
    ],
  ])("serves a GET %s, then closes", async (_label, raw) => {
    const exchange = await sendThenHalfClose(server.url, raw());
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.responses.map((response) => response.status)).toEqual([200]);
    const body = JSON.parse(exchange.responses[0]?.body ?? "{}") as { data: { id: string }[] };
    expect(body.data.map((model) => model.id)).toContain("sibyl-baseline");
  });

  it.each([
    [
      "without a key, in absolute form",
      () => `GET ${server.url}/v1/models HTTP/1.1\r\nHost: x\r\n\r\n`,
      401,
      "invalid_api_key",
    ],
    [
      "in a transfer coding other than chunked",
      () => GZIP_CHUNKED.replace("Host: x", `Host: x\r\nAuthorization: Bearer ${apiKey}`),
      400,
      "unsupported_transfer_encoding",
    ],
  ])("answers a request %s in the error shape", async (_label, raw, status, code) => {
    const exchange = await sendThenHalfClose(server.url, raw());
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.responses).toHaveLength(1);
    expectSibylError(asJson(exchange.responses[0]), status, code);
  });
});
