import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ErrorBody, ValidationDetail } from "../../src/error-responses.js";
import { buildValidationApp } from "../support/validation-app.js";

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildValidationApp(64 * 1024);
});

afterAll(async () => {
  await app?.close();
});

interface Sent {
  status: number;
  body: ErrorBody & Record<string, unknown>;
}

async function post(payload: string | undefined, url = "/items", contentType = "application/json") {
  const response = await app.inject({
    method: "POST",
    url,
    payload,
    headers: payload === undefined ? {} : { "content-type": contentType },
  });
  return { status: response.statusCode, body: response.json() } as Sent;
}

/** A 422 in FastAPI's shape that also carries the OpenAI-style `error` object. */
function expect422(sent: Sent): ValidationDetail[] {
  expect(sent.status).toBe(422);
  expect(Object.keys(sent.body).sort()).toEqual(["detail", "error"]);
  expect(sent.body.error.type).toBe("invalid_request_error");
  expect(sent.body.error.code).toBe("validation_error");
  const detail = sent.body.detail as ValidationDetail[];
  expect(detail.length).toBeGreaterThan(0);
  for (const item of detail) {
    expect(Array.isArray(item.loc)).toBe(true);
    expect(typeof item.msg).toBe("string");
    expect(typeof item.type).toBe("string");
    expect(Object.hasOwn(item, "input")).toBe(true);
  }
  const first = detail[0] as ValidationDetail;
  expect(sent.body.error.message).toContain(
    first.type === "json_invalid"
      ? `Request body is not valid JSON: ${first.ctx?.error} at line ${first.ctx?.line}, column ${first.ctx?.column}`
      : `${first.loc.join(".")}: ${first.msg}`,
  );
  return detail;
}

describe("malformed and missing bodies", () => {
  it("reports a JSON syntax error as json_invalid at its position", async () => {
    const detail = expect422(await post('{"name": "x",}'));
    expect(detail).toEqual([
      {
        loc: ["body", 13],
        msg: "JSON decode error",
        type: "json_invalid",
        input: {},
        ctx: {
          error: "a trailing comma before '}' is not allowed in JSON",
          line: 1,
          column: 14,
        },
      },
    ]);
  });

  it("places a truncated body's error at its end", async () => {
    const detail = expect422(await post('{"name": '));
    expect(detail[0]).toMatchObject({ loc: ["body", 9], type: "json_invalid" });
  });

  it.each([
    ["an empty JSON body", ""],
    ["a blank JSON body", "  \n "],
    ["no body at all", undefined],
  ])("reports %s as a missing body", async (_label, payload) => {
    expect(expect422(await post(payload))).toEqual([
      { loc: ["body"], msg: "Field required", type: "missing", input: null },
    ]);
  });

  it.each([
    ["null", null],
    ["[]", []],
    ['"text"', "text"],
    ["42", 42],
  ])("reports the JSON value %s where an object belongs as dict_type", async (payload, input) => {
    expect(expect422(await post(payload))).toEqual([
      {
        loc: ["body"],
        msg: "Input should be a valid dictionary or object",
        type: "dict_type",
        input,
      },
    ]);
  });
});

describe("field rules", () => {
  it("reports a missing required field", async () => {
    expect(expect422(await post("{}"))).toEqual([
      { loc: ["body", "name"], msg: "Field required", type: "missing", input: {} },
    ]);
  });

  it("reports every wrong type, one entry each, without coercing body values", async () => {
    const detail = expect422(await post('{"name": 5, "count": "3", "flag": "true"}'));
    expect(detail).toEqual(
      expect.arrayContaining([
        {
          loc: ["body", "name"],
          msg: "Input should be a valid string",
          type: "string_type",
          input: 5,
        },
        {
          loc: ["body", "count"],
          msg: "Input should be a valid integer",
          type: "int_type",
          input: "3",
        },
        {
          loc: ["body", "flag"],
          msg: "Input should be a valid boolean",
          type: "bool_type",
          input: "true",
        },
      ]),
    );
    expect(detail).toHaveLength(3);
    expect(expect422(await post('{"name": "x", "count": 1.5}'))[0]).toMatchObject({
      type: "int_type",
      input: 1.5,
    });
  });

  it("folds a nullable number to one float_type entry", async () => {
    expect(expect422(await post('{"name": "x", "temperature": "hot"}'))).toEqual([
      {
        loc: ["body", "temperature"],
        msg: "Input should be a valid number",
        type: "float_type",
        input: "hot",
      },
    ]);
  });

  it.each([
    ['{"name": "x", "temperature": 2.5}', "less_than_equal", { le: 2 }, 2.5],
    ['{"name": "x", "temperature": -0.1}', "greater_than_equal", { ge: 0 }, -0.1],
    ['{"name": "x", "count": 0}', "greater_than", { gt: 0 }, 0],
  ])("reports the bound broken by %s with its ctx", async (payload, type, ctx, input) => {
    const [detail] = expect422(await post(payload));
    expect(detail).toMatchObject({ type, ctx, input });
    expect(detail?.msg).toMatch(/^Input should be (less|greater) than/);
  });

  it("accepts the bounds themselves and null for a nullable field", async () => {
    for (const temperature of [0, 2, null]) {
      const sent = await post(JSON.stringify({ name: "x", temperature }));
      expect(sent.status).toBe(200);
    }
  });

  it("forbids extra fields where the schema closes the object", async () => {
    expect(expect422(await post('{"name": "x", "colour": "red"}'))).toEqual([
      {
        loc: ["body", "colour"],
        msg: "Extra inputs are not permitted",
        type: "extra_forbidden",
        input: "red",
      },
    ]);
  });

  it("locates problems inside arrays of objects by index", async () => {
    const detail = expect422(
      await post('{"name": "x", "messages": [{"role": "user", "content": "hi"}, {"role": 1}]}'),
    );
    expect(detail).toEqual(
      expect.arrayContaining([
        {
          loc: ["body", "messages", 1, "role"],
          msg: "Input should be a valid string",
          type: "string_type",
          input: 1,
        },
        {
          loc: ["body", "messages", 1, "content"],
          msg: "Field required",
          type: "missing",
          input: { role: 1 },
        },
      ]),
    );
  });

  it("reports list and string lengths with their limits", async () => {
    expect(expect422(await post('{"name": "x", "messages": []}'))[0]).toMatchObject({
      loc: ["body", "messages"],
      type: "too_short",
      ctx: { min_length: 1 },
    });
    expect(expect422(await post('{"name": ""}'))[0]).toMatchObject({
      loc: ["body", "name"],
      type: "string_too_short",
      ctx: { min_length: 1 },
    });
  });

  it("folds a string-or-list union to its real problem", async () => {
    const tooMany = expect422(await post('{"name": "x", "stop": ["a", "b", "c", "d", "e"]}'));
    expect(tooMany).toEqual([
      {
        loc: ["body", "stop"],
        msg: "List should have at most 4 items",
        type: "too_long",
        input: ["a", "b", "c", "d", "e"],
        ctx: { max_length: 4 },
      },
    ]);
    const wrongType = expect422(await post('{"name": "x", "stop": 5}'));
    expect(wrongType).toEqual([
      {
        loc: ["body", "stop"],
        msg: "Input should be a valid string",
        type: "string_type",
        input: 5,
      },
    ]);
  });

  it("names the allowed values of enums and literals", async () => {
    expect(expect422(await post('{"name": "x", "role": "bot"}'))[0]).toMatchObject({
      loc: ["body", "role"],
      type: "enum",
      input: "bot",
      msg: 'Input should be "user" or "assistant"',
    });
    expect(expect422(await post('{"name": "x", "mode": "slow"}'))[0]).toMatchObject({
      type: "literal_error",
      ctx: { expected: '"fast"' },
    });
  });

  it("checks string formats", async () => {
    expect(expect422(await post('{"name": "x", "email": "not-an-address"}'))[0]).toMatchObject({
      loc: ["body", "email"],
      type: "value_error",
      ctx: { format: "email" },
    });
  });
});

describe("query string and path", () => {
  it("coerces query text to the schema's types and fills defaults", async () => {
    const coerced = await app.inject({
      method: "POST",
      url: "/items?limit=5&include=true&after=abc",
      payload: { name: "x" },
    });
    expect(coerced.json()).toEqual({
      body: { name: "x" },
      query: { limit: 5, include: true, after: "abc" },
    });
    const defaults = await app.inject({ method: "POST", url: "/items", payload: { name: "x" } });
    expect(defaults.json()).toMatchObject({ query: { limit: 20 } });
  });

  it("reports query problems under loc query", async () => {
    const notNumber = await app.inject({
      method: "POST",
      url: "/items?limit=abc",
      payload: { name: "x" },
    });
    expect(expect422({ status: notNumber.statusCode, body: notNumber.json() })).toEqual([
      {
        loc: ["query", "limit"],
        msg: "Input should be a valid integer",
        type: "int_type",
        input: "abc",
      },
    ]);
    const tooBig = await app.inject({
      method: "POST",
      url: "/items?limit=500",
      payload: { name: "x" },
    });
    expect(expect422({ status: tooBig.statusCode, body: tooBig.json() })[0]).toMatchObject({
      loc: ["query", "limit"],
      type: "less_than_equal",
      ctx: { le: 100 },
    });
  });

  it("coerces and checks path parameters under loc path", async () => {
    expect((await app.inject({ url: "/items/7" })).json()).toEqual({ params: { item_id: 7 } });
    const bad = await app.inject({ url: "/items/abc" });
    expect(expect422({ status: bad.statusCode, body: bad.json() })).toEqual([
      {
        loc: ["path", "item_id"],
        msg: "Input should be a valid integer",
        type: "int_type",
        input: "abc",
      },
    ]);
  });
});

describe("body parsing safety", () => {
  it.each([
    '{"name": "x", "__proto__": {"polluted": true}}',
    '{"name": "x", "\\u005f_proto__": {"polluted": true}}',
    '{"name": "x", "nested": [{"__proto__": {"polluted": true}}]}',
    '{"name": "x", "constructor": {"prototype": {"polluted": true}}}',
  ])("refuses the prototype-poisoning body %s", async (payload) => {
    const sent = await post(payload, "/open");
    expect(sent.status).toBe(400);
    expect(sent.body.error).toMatchObject({
      type: "invalid_request_error",
      code: "forbidden_json_key",
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("accepts those words as values and harmless keys", async () => {
    const sent = await post(
      '{"name": "__proto__", "constructor": "x", "proto": {"prototype": 1}}',
      "/open",
    );
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ plainPrototype: true });
  });

  it("refuses bodies nested too deep to serialize again", async () => {
    const deep = `{"name": "x", "extra": ${"[".repeat(300)}${"]".repeat(300)}}`;
    const sent = await post(deep, "/open");
    expect(sent.status).toBe(400);
    expect(sent.body.error).toMatchObject({ code: "json_too_deep" });
    const fine = `{"name": "x", "extra": ${"[".repeat(200)}${"]".repeat(200)}}`;
    expect((await post(fine, "/open")).status).toBe(200);
  });

  it("answers 413 in the error shape for a body over the limit", async () => {
    const sent = await post(JSON.stringify({ name: "x".repeat(70 * 1024) }));
    expect(sent.status).toBe(413);
    expect(sent.body.error).toMatchObject({ code: "request_too_large" });
  });

  it("answers 415 in the error shape for a media type it cannot read", async () => {
    const sent = await post("<name>x</name>", "/items", "application/xml");
    expect(sent.status).toBe(415);
    expect(sent.body.error).toMatchObject({ code: "unsupported_media_type" });
  });
});
