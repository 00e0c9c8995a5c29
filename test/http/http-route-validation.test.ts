import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ErrorBody, ValidationDetail } from "../../src/error-responses.js";
import { request, V1_PREFIXES } from "../support/http.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg("1");
});

afterAll(async () => {
  await server?.close();
});

const USER = [{ role: "user", content: "Will it rain tomorrow?" }];

describe.each(V1_PREFIXES)("chat completion request validation under %s", (prefix) => {
  async function send(body: string | undefined): Promise<ValidationDetail[]> {
    const response = await request(server.url, `${prefix}/chat/completions`, {
      method: "POST",
      apiKey: org.apiKey,
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body }),
    });
    expect(response.status).toBe(422);
    const payload = response.body as ErrorBody;
    expect(payload.error).toMatchObject({
      type: "invalid_request_error",
      code: "validation_error",
      message: expect.any(String),
    });
    expect(Array.isArray(payload.detail)).toBe(true);
    return payload.detail as ValidationDetail[];
  }

  it("reports malformed JSON as json_invalid with its position", async () => {
    expect(await send('{"model": "sibyl-baseline",')).toEqual([
      {
        loc: ["body", 27],
        msg: "JSON decode error",
        type: "json_invalid",
        input: {},
        ctx: {
          error: "the body ends where a property name was expected (1 unclosed: missing '}')",
          line: 1,
          column: 28,
        },
      },
    ]);
  });

  it("reports an empty body as missing", async () => {
    expect(await send("")).toEqual([
      { loc: ["body"], msg: "Field required", type: "missing", input: null },
    ]);
  });

  it("reports missing required fields", async () => {
    const detail = await send("{}");
    expect(detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ["body", "model"], type: "missing" }),
        expect.objectContaining({ loc: ["body", "messages"], type: "missing" }),
      ]),
    );
  });

  it("reports a temperature of the wrong type and out of range", async () => {
    const wrongType = await send(
      JSON.stringify({ model: "sibyl-baseline", messages: USER, temperature: "hot" }),
    );
    expect(wrongType).toEqual([
      {
        loc: ["body", "temperature"],
        msg: "Input should be a valid number",
        type: "float_type",
        input: "hot",
      },
    ]);
    const tooHigh = await send(
      JSON.stringify({ model: "sibyl-baseline", messages: USER, temperature: 2.5 }),
    );
    expect(tooHigh).toEqual([
      {
        loc: ["body", "temperature"],
        msg: "Input should be less than or equal to 2",
        type: "less_than_equal",
        input: 2.5,
        ctx: { le: 2 },
      },
    ]);
  });

  it("locates a bad message role by index", async () => {
    const detail = await send(
      JSON.stringify({
        model: "sibyl-baseline",
        messages: [...USER, { role: "robot", content: "beep" }],
      }),
    );
    expect(detail).toHaveLength(1);
    expect(detail[0]).toMatchObject({ loc: ["body", "messages", 1, "role"], input: "robot" });
  });

  it("allows at most four stop sequences", async () => {
    const detail = await send(
      JSON.stringify({ model: "sibyl-baseline", messages: USER, stop: ["a", "b", "c", "d", "e"] }),
    );
    expect(detail).toEqual([
      expect.objectContaining({
        loc: ["body", "stop"],
        type: "too_long",
        ctx: { max_length: 4 },
      }),
    ]);
  });
});
