import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorBody, fromServiceError, validationBody } from "../../src/error-responses.js";
import { type ErrorKind, ServiceError } from "../../src/errors.js";
import { rawExchange } from "../support/raw-http.js";
import {
  BASELINE,
  type ConformanceEnv,
  call,
  IMPATIENT_MODEL,
  type Json,
  MODEL,
  startConformanceEnv,
} from "./support/env.js";
import { openAISchemas } from "./support/openai-schemas.js";

const schemas = openAISchemas();
const CHAT = { model: MODEL, messages: [{ role: "user", content: "Will it rain?" }] };

/** Every kind of the error catalogue: the compiler insists a new kind is listed here. */
const KINDS = Object.keys({
  invalid_request: true,
  unprocessable: true,
  unauthorized: true,
  forbidden: true,
  insufficient_credits: true,
  not_found: true,
  conflict: true,
  too_large: true,
  rate_limited: true,
  unsupported_media_type: true,
  upstream_rejected: true,
  upstream_unavailable: true,
  upstream_busy: true,
  upstream_timeout: true,
  request_timeout: true,
  headers_too_large: true,
  unavailable: true,
  client_closed: true,
} satisfies Record<ErrorKind, true>) as ErrorKind[];

describe("error bodies match OpenAI's ErrorResponse", () => {
  it("for every kind of the catalogue, validation problems and the internal error", () => {
    for (const kind of KINDS) {
      const { body } = fromServiceError(new ServiceError(kind, `a ${kind} failure`));
      schemas.assertConforms("ErrorResponse", body, kind);
    }
    const problem = { loc: ["body", "model"], msg: "Field required", type: "missing", input: null };
    schemas.assertConforms("ErrorResponse", validationBody([problem]), "validation");
    schemas.assertConforms(
      "ErrorResponse",
      errorBody("Internal server error.", "api_error", "internal_error"),
      "internal error",
    );
  });

  describe("as a real server sends them", () => {
    let env: ConformanceEnv;
    let limited: ConformanceEnv;
    let apiKey: string;
    const statuses = new Set<number>();

    beforeAll(async () => {
      [env, limited] = await Promise.all([
        startConformanceEnv(),
        // Also the server that cuts a stalled body: no other request here sends a slow one.
        startConformanceEnv({ requestsPerMinute: 1, bodyStallSeconds: 1 }),
      ]);
      apiKey = (await env.org("5")).apiKey;
    });
    afterAll(async () => {
      await Promise.all([env?.close(), limited?.close()]);
    });

    async function expectError(
      status: number,
      response: Promise<{ status: number; text: string; json: () => Json }>,
    ): Promise<Json> {
      const { status: got, text, json } = await response;
      expect(got, text).toBe(status);
      statuses.add(got);
      schemas.assertConforms("ErrorResponse", json(), `${status} body`);
      return json();
    }

    it("400: a request Sibyl does not serve", async () => {
      await expectError(
        400,
        call(env, "POST", "/v1/completions", apiKey, { model: MODEL, prompt: "x", research: true }),
      );
      await expectError(
        400,
        call(env, "POST", "/v1/responses", apiKey, {
          model: MODEL,
          input: "x",
          tools: [{ type: "web_search" }],
        }),
      );
    });

    it("401: no key, an unknown key", async () => {
      await expectError(401, call(env, "POST", "/v1/chat/completions", null, CHAT));
      await expectError(401, call(env, "GET", "/v1/models", "sk-unknown"));
    });

    it("402: no credits", async () => {
      const { apiKey: broke } = await env.org("0");
      await expectError(402, call(env, "POST", "/v1/chat/completions", broke, CHAT));
      await expectError(
        402,
        call(env, "POST", "/v1/responses", broke, { model: MODEL, input: "x" }),
      );
    });

    it("403: an inference key on the key administration", async () => {
      const created = await call(env, "POST", "/v1/organization/api_keys", apiKey, {
        name: "inference only",
        scope: "inference",
      });
      expect(created.status, created.text).toBe(200);
      const inference = String(created.json().value);
      await expectError(403, call(env, "GET", "/v1/organization/api_keys", inference));
    });

    it("404: unknown model, file, batch and path", async () => {
      await expectError(
        404,
        call(env, "POST", "/v1/chat/completions", apiKey, { ...CHAT, model: "no-such-model" }),
      );
      await expectError(404, call(env, "GET", "/v1/files/file-nope", apiKey));
      await expectError(404, call(env, "GET", "/v1/batches/batch_nope", apiKey));
      await expectError(404, call(env, "GET", "/v1/nothing-here", apiKey));
    });

    it("409: cancelling a finished batch", async () => {
      const form = new FormData();
      form.set("purpose", "batch");
      const line = {
        custom_id: "a",
        method: "POST",
        url: "/v1/chat/completions",
        body: { ...CHAT, model: BASELINE },
      };
      form.set("file", new Blob([`${JSON.stringify(line)}\n`]), "in.jsonl");
      const upload = await fetch(`${env.url}/v1/files`, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}` },
        body: form,
      });
      const file = (await upload.json()) as Json;
      const created = await call(env, "POST", "/v1/batches", apiKey, {
        input_file_id: file.id,
        endpoint: "/v1/chat/completions",
        completion_window: "24h",
      });
      const id = String(created.json().id);
      for (let tries = 0; tries < 400; tries += 1) {
        if ((await call(env, "GET", `/v1/batches/${id}`, apiKey)).json().status === "completed")
          break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await expectError(409, call(env, "POST", `/v1/batches/${id}/cancel`, apiKey));
    });

    it("413: a body over the limit", async () => {
      const huge = { ...CHAT, messages: [{ role: "user", content: "x".repeat(17 * 1024 * 1024) }] };
      await expectError(413, call(env, "POST", "/v1/chat/completions", apiKey, huge));
    });

    it("415: an upload that is not a form", async () => {
      await expectError(415, call(env, "POST", "/v1/files", apiKey, { purpose: "batch" }));
    });

    it("422: a missing field, a wrong type, malformed JSON", async () => {
      const missing = await expectError(
        422,
        call(env, "POST", "/v1/chat/completions", apiKey, { model: MODEL }),
      );
      expect(Array.isArray(missing.detail)).toBe(true);
      await expectError(
        422,
        call(env, "POST", "/v1/responses", apiKey, { model: MODEL, input: 5 }),
      );
      await expectError(422, call(env, "POST", "/v1/chat/completions", apiKey, "{not json"));
    });

    /** An answer Node's HTTP layer makes before any route runs, read off the socket. */
    async function expectRawError(
      target: ConformanceEnv,
      status: number,
      raw: string,
    ): Promise<void> {
      const exchange = await rawExchange(target.url, [raw], { timeoutMs: 8_000 });
      const answer = exchange.responses.find((response) => response.status !== 100);
      expect(answer?.status, answer?.body).toBe(status);
      statuses.add(status);
      schemas.assertConforms("ErrorResponse", JSON.parse(answer?.body ?? ""), `${status} body`);
    }

    it("400, 408 and 431 from the HTTP layer: a malformed request, a stalled body, huge headers", async () => {
      await expectRawError(env, 400, "GARBAGE\r\n\r\n");
      await expectRawError(
        env,
        431,
        `GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Padding: ${"a".repeat(20_000)}\r\n\r\n`,
      );
      const { apiKey: key } = await limited.org("5");
      await expectRawError(
        limited,
        408,
        [
          "POST /v1/chat/completions HTTP/1.1",
          "Host: x",
          `Authorization: Bearer ${key}`,
          "Content-Type: application/json",
          "Content-Length: 100",
          "",
          '{"model":',
        ].join("\r\n"),
      );
    });

    it("429: over the rate limit", async () => {
      const { apiKey: key } = await limited.org("5");
      limited.fake.setDefault({ contents: ["Fine."] });
      expect((await call(limited, "POST", "/v1/chat/completions", key, CHAT)).status).toBe(200);
      await expectError(429, call(limited, "POST", "/v1/chat/completions", key, CHAT));
    });

    it("502, 503 and 504: the model server fails, is overloaded, or is too slow", async () => {
      env.fake.setDefault({ status: 500 });
      await expectError(502, call(env, "POST", "/v1/chat/completions", apiKey, CHAT));
      env.fake.setDefault({ status: 429, headers: { "retry-after": "0" } });
      await expectError(503, call(env, "POST", "/v1/chat/completions", apiKey, CHAT));
      env.fake.setDefault({ headersDelayMs: 2_000 });
      await expectError(
        504,
        call(env, "POST", "/v1/chat/completions", apiKey, { ...CHAT, model: IMPATIENT_MODEL }),
      );
      env.fake.reset();
    });

    it("an error in the middle of a chat or text stream", async () => {
      env.fake.setDefault({ contents: ["One two three four."], failAfterChunks: 2 });
      const requests = [
        ["/v1/chat/completions", CHAT],
        ["/v1/completions", { model: MODEL, prompt: "Will it rain?" }],
      ] as const;
      for (const [path, body] of requests) {
        const response = await call(env, "POST", path, apiKey, { ...body, stream: true });
        const events = response.text.split("\n\n").filter((block) => block.startsWith("data: {"));
        const failure = JSON.parse(events.at(-1)?.slice("data: ".length) ?? "{}") as Json;
        expect(failure.error, path).toBeTypeOf("object");
        schemas.assertConforms("ErrorResponse", failure, `${path} stream error event`);
      }
      env.fake.reset();
    });

    it("covered every status a client can receive", () => {
      expect([...statuses].sort((a, b) => a - b)).toEqual([
        400, 401, 402, 403, 404, 408, 409, 413, 415, 422, 429, 431, 502, 503, 504,
      ]);
    });
  });
});
