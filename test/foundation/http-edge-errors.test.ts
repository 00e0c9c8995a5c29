import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.js";
import { type RawResponse, rawExchange } from "../support/raw-http.js";
import { expectErrorResponse, type JsonResponse, request } from "./support/http.js";

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

describe("errors raised before a route runs", () => {
  let server: AppServer;
  let apiKey: string;

  beforeAll(async () => {
    server = await startAppServer({});
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

  it("answers a body over the limit, announced by Content-Length, without waiting for it", async () => {
    const head = [
      "POST /v1/chat/completions HTTP/1.1",
      "Host: x",
      `Authorization: Bearer ${apiKey}`,
      "Content-Type: application/json",
      `Content-Length: ${17 * 1024 * 1024}`,
      "",
      "",
    ].join("\r\n");
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
  it("answers a request arriving on an open connection with a 503 in the error shape", async () => {
    const server = await startAppServer({});
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

    expect(responses.map((response) => response.status)).toEqual([200, 503]);
    const refused = asJson(responses[1]);
    expectSibylError(refused, 503, "shutting_down");
    expect(refused.headers.get("connection")).toBe("close");
  });
});
