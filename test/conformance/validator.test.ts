import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  loadVendoredDocument,
  type OpenApiDocument,
  readSource,
  sha256,
  VENDORED_DIR,
  VENDORED_SPEC,
} from "../../scripts/openai-openapi/document.js";
import { SERVED_SHAPES } from "../../scripts/openai-openapi/served-shapes.js";
import { batchLineProblems } from "./support/batch-lines.js";
import { TEXT_COMPLETION_CHUNK } from "./support/derived-schemas.js";
import { OpenAISchemas, openAISchemas } from "./support/openai-schemas.js";
import type { Extension } from "./support/sibyl-extensions.js";
import { SPEC_ERRATA } from "./support/spec-errata.js";

const schemas = openAISchemas();
type Json = Record<string, unknown>;

const CHAT: Json = {
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "m",
  choices: [
    {
      index: 0,
      message: { role: "assistant", content: "Yes.", refusal: null },
      logprobs: null,
      finish_reason: "stop",
    },
  ],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};

const RESPONSE: Json = {
  id: "resp_1",
  object: "response",
  created_at: 1,
  status: "completed",
  error: null,
  incomplete_details: null,
  instructions: null,
  model: "m",
  output: [
    {
      type: "message",
      id: "msg_1",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: "Yes.", annotations: [], logprobs: [] }],
    },
  ],
  parallel_tool_calls: true,
  metadata: {},
  tool_choice: "auto",
  tools: [],
  temperature: null,
  top_p: null,
  usage: {
    input_tokens: 1,
    input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
    output_tokens: 1,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 2,
  },
};

const FILE: Json = {
  id: "file-1",
  object: "file",
  bytes: 1,
  created_at: 1,
  filename: "plot.svg",
  purpose: "evaluation",
  status: "processed",
};

/** A copy of the body with one change made at a path (`undefined` deletes). */
function changed(body: Json, at: (string | number)[], value: unknown): Json {
  const copy = structuredClone(body);
  let parent: Record<string | number, unknown> = copy;
  for (const key of at.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = at.at(-1) as string | number;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return copy;
}

describe("the validator rejects what OpenAI's schema forbids", () => {
  it("accepts the well-formed bodies the cases below break, and Sibyl's extensions in place", () => {
    expect(schemas.problems("CreateChatCompletionResponse", CHAT)).toEqual([]);
    const extended = structuredClone(CHAT) as Json & { choices: Json[] };
    Object.assign(extended.usage as Json, { cost_usd: 0.1, inference_cost_usd: 0.1 });
    Object.assign(extended.choices[0] as Json, { forecast: { answer_type: "binary" } });
    Object.assign((extended.choices[0] as Json).message as Json, { thinking: "Base rates first." });
    expect(
      schemas.problems("CreateChatCompletionResponse", { ...extended, ensemble: {}, research: {} }),
    ).toEqual([]);
    expect(schemas.problems("Response", RESPONSE)).toEqual([]);
    expect(schemas.problems("OpenAIFile", FILE)).toEqual([]);
  });

  const broken: [string, string, Json][] = [
    ["no choices", "CreateChatCompletionResponse", changed(CHAT, ["choices"], undefined)],
    [
      "a choice without logprobs",
      "CreateChatCompletionResponse",
      changed(CHAT, ["choices", 0, "logprobs"], undefined),
    ],
    [
      "a message without refusal",
      "CreateChatCompletionResponse",
      changed(CHAT, ["choices", 0, "message", "refusal"], undefined),
    ],
    ["created as a string", "CreateChatCompletionResponse", changed(CHAT, ["created"], "1")],
    ["an undocumented field", "CreateChatCompletionResponse", changed(CHAT, ["surprise"], 1)],
    [
      "an extension away from its place (cost_usd on a choice)",
      "CreateChatCompletionResponse",
      changed(CHAT, ["choices", 0, "cost_usd"], 0.1),
    ],
    [
      "thinking on a Responses output message",
      "Response",
      changed(RESPONSE, ["output", 0, "thinking"], "Base rates first."),
    ],
    [
      "an undocumented usage detail",
      "Response",
      changed(RESPONSE, ["usage", "input_tokens_details", "cache_read_tokens"], 0),
    ],
    [
      "an unknown finish_reason",
      "CreateChatCompletionResponse",
      changed(CHAT, ["choices", 0, "finish_reason"], "abort"),
    ],
    [
      "a null finish_reason outside a stream",
      "CreateChatCompletionResponse",
      changed(CHAT, ["choices", 0, "finish_reason"], null),
    ],
    [
      "the wrong object",
      "CreateChatCompletionResponse",
      changed(CHAT, ["object"], "chat.completions"),
    ],
    [
      "a citation without its span",
      "CreateChatCompletionResponse",
      changed(
        CHAT,
        ["choices", 0, "message", "annotations"],
        [{ type: "url_citation", url_citation: { url: "https://a.example", title: "A" } }],
      ),
    ],
    [
      "usage without cache_write_tokens",
      "Response",
      changed(RESPONSE, ["usage", "input_tokens_details", "cache_write_tokens"], undefined),
    ],
    [
      "an output item of an unknown type",
      "Response",
      changed(RESPONSE, ["output", 0, "type"], "telepathy"),
    ],
    [
      "output_text without annotations",
      "Response",
      changed(RESPONSE, ["output", 0, "content", 0, "annotations"], undefined),
    ],
    ["tools: null (required by an allOf part)", "Response", changed(RESPONSE, ["tools"], null)],
    [
      "a failed response's own error code",
      "Response",
      changed(RESPONSE, ["error"], { code: "upstream_unavailable", message: "x" }),
    ],
    ["an unknown status", "Response", changed(RESPONSE, ["status"], "paused")],
    [
      "an unknown stream event",
      "ResponseStreamEvent",
      { type: "response.banana", sequence_number: 0 },
    ],
    [
      "a text delta without logprobs",
      "ResponseStreamEvent",
      {
        type: "response.output_text.delta",
        sequence_number: 1,
        item_id: "msg_1",
        output_index: 0,
        content_index: 0,
        delta: "Y",
      },
    ],
    [
      "a stream chunk's finish_reason of the wrong type",
      "CreateChatCompletionStreamResponse",
      {
        id: "c",
        object: "chat.completion.chunk",
        created: 1,
        model: "m",
        choices: [{ index: 0, delta: {}, finish_reason: 5 }],
      },
    ],
    [
      "a text chunk without logprobs",
      TEXT_COMPLETION_CHUNK,
      {
        id: "c",
        object: "text_completion",
        created: 1,
        model: "m",
        choices: [{ index: 0, text: "a", finish_reason: null }],
      },
    ],
    [
      "a batch in an unknown status",
      "Batch",
      {
        id: "b",
        object: "batch",
        endpoint: "/v1/chat/completions",
        input_file_id: "f",
        completion_window: "24h",
        status: "paused",
        created_at: 1,
      },
    ],
    ["an error without param", "ErrorResponse", { error: { message: "m", type: "t", code: null } }],
    ["a model without owned_by", "Model", { id: "m", object: "model", created: 1 }],
    [
      "a file of a purpose neither OpenAI nor Sibyl has",
      "OpenAIFile",
      { ...FILE, purpose: "backtest" },
    ],
    [
      "a file list without has_more",
      "ListFilesResponse",
      { object: "list", data: [], first_id: "a", last_id: "b" },
    ],
  ];
  for (const [name, component, body] of broken) {
    it(`rejects ${name}`, () => {
      expect(schemas.problems(component, body)).not.toEqual([]);
    });
  }
});

describe("the batch line check rejects what OpenAI's Batch guide forbids", () => {
  const OUTPUT: Json = {
    id: "batch_req_1",
    custom_id: "a",
    response: { status_code: 200, request_id: "req_1", body: CHAT },
    error: null,
  };
  const CANCELLED: Json = {
    id: "batch_req_2",
    custom_id: "b",
    response: null,
    error: { code: "batch_cancelled", message: "The batch was cancelled." },
  };
  const REFUSED = changed(OUTPUT, ["response"], {
    status_code: 400,
    request_id: "req_2",
    body: { error: { message: "m", type: "invalid_request_error", param: null, code: null } },
  });

  it("accepts an output line, a refused line and a line that never ran", () => {
    expect(batchLineProblems(schemas, OUTPUT)).toEqual([]);
    expect(batchLineProblems(schemas, REFUSED)).toEqual([]);
    expect(batchLineProblems(schemas, CANCELLED)).toEqual([]);
  });

  const broken: [string, Json][] = [
    ["no custom_id", changed(OUTPUT, ["custom_id"], undefined)],
    ["an id that is not a string", changed(OUTPUT, ["id"], 1)],
    ["neither response nor error", changed(OUTPUT, ["response"], null)],
    ["both response and error", changed(OUTPUT, ["error"], { code: "x", message: "y" })],
    ["a line field OpenAI does not send", changed(OUTPUT, ["cost_usd"], 0.1)],
    ["a status code as a string", changed(OUTPUT, ["response", "status_code"], "200")],
    ["no request_id", changed(OUTPUT, ["response", "request_id"], undefined)],
    [
      "a body without logprobs",
      changed(OUTPUT, ["response", "body", "choices", 0, "logprobs"], undefined),
    ],
    ["an error body that is not an error", changed(REFUSED, ["response", "body"], CHAT)],
    ["an error without message", changed(CANCELLED, ["error", "message"], undefined)],
    ["an error with a field more", changed(CANCELLED, ["error", "param"], null)],
  ];
  for (const [name, line] of broken) {
    it(`rejects ${name}`, () => {
      expect(batchLineProblems(schemas, line)).not.toEqual([]);
    });
  }
});

describe("how the description is read", () => {
  it("lets an optional property be null, as OpenAI's servers send it", () => {
    expect(schemas.problems("Response", { ...RESPONSE, user: null, usage: null })).toEqual([]);
    expect(schemas.problems("Response", { ...RESPONSE, user: 5 })).not.toEqual([]);
  });

  it("reads 3.0-style nullable as null allowed", () => {
    const chunk = { id: "c", object: "chat.completion.chunk", created: 1, model: "m" };
    const choice = { index: 0, delta: { content: "a" }, logprobs: null, finish_reason: null };
    expect(
      schemas.problems("CreateChatCompletionStreamResponse", { ...chunk, choices: [choice] }),
    ).toEqual([]);
  });

  it("reads a text chunk's finish_reason as nullable, and nothing else of it", () => {
    const chunk = { id: "c", object: "text_completion", created: 1, model: "m" };
    const choice = { index: 0, text: "a", logprobs: null, finish_reason: null };
    expect(schemas.problems(TEXT_COMPLETION_CHUNK, { ...chunk, choices: [choice] })).toEqual([]);
    expect(
      schemas.problems("CreateCompletionResponse", { ...chunk, choices: [choice] }),
    ).not.toEqual([]);
  });

  /** A tiny description exercising one rule at a time. */
  const tiny = (components: Json, extensions: Extension[] = []) =>
    new OpenAISchemas(
      { openapi: "3.1.0", paths: {}, components: { schemas: components } } as OpenApiDocument,
      { errata: false, derived: false, extensions },
    );

  it("reads 3.0-style nullable as null allowed, where it is written and nowhere else", () => {
    const nullable = tiny({
      N: {
        type: "object",
        required: ["a", "b"],
        properties: { a: { type: "string", nullable: true }, b: { type: "string" } },
      },
    });
    expect(nullable.problems("N", { a: null, b: "x" })).toEqual([]);
    expect(nullable.problems("N", { a: "x", b: "x" })).toEqual([]);
    expect(nullable.problems("N", { a: "x", b: null })).not.toEqual([]);
    expect(nullable.problems("N", { a: 1, b: "x" })).not.toEqual([]);
  });

  it("reads a oneOf without discriminator as anyOf: overlapping variants pass, no variant fails", () => {
    const open = tiny({
      U: {
        oneOf: [
          { type: "object", properties: { a: { type: "string" } } },
          { type: "object", properties: { b: { type: "integer" } } },
        ],
      },
    });
    expect(open.problems("U", { a: "x" })).toEqual([]);
    expect(open.problems("U", { a: "x", b: 1 })).toEqual([]);
    expect(open.problems("U", "x")).not.toEqual([]);
  });

  it("decides a discriminated union by its tag: unknown tags fail, shared tags try each variant", () => {
    const tagged = tiny({
      A: {
        type: "object",
        required: ["type", "a"],
        properties: { type: { enum: ["x"] }, a: { type: "string" } },
      },
      B: {
        type: "object",
        required: ["type", "b"],
        properties: { type: { const: "x" }, b: { type: "integer" } },
      },
      C: {
        type: "object",
        required: ["type", "c"],
        properties: { type: { enum: ["y"] }, c: { type: "boolean" } },
      },
      U: {
        oneOf: [
          { $ref: "#/components/schemas/A" },
          { $ref: "#/components/schemas/B" },
          { $ref: "#/components/schemas/C" },
        ],
        discriminator: { propertyName: "type" },
      },
    });
    expect(tagged.problems("U", { type: "x", a: "s" })).toEqual([]);
    expect(tagged.problems("U", { type: "x", b: 1 })).toEqual([]);
    expect(tagged.problems("U", { type: "y", c: true })).toEqual([]);
    expect(tagged.problems("U", { type: "y", a: "s" })).not.toEqual([]);
    expect(tagged.problems("U", { type: "z", a: "s" })).not.toEqual([]);
    expect(tagged.problems("U", { a: "s" })).not.toEqual([]);
  });

  it("fails any property the schema does not define for its place, through $ref, allOf and anyOf", () => {
    const closed = tiny({
      Usage: { type: "object", properties: { total_tokens: { type: "integer" } } },
      Named: { type: "object", properties: { name: { type: "string" } } },
      Reply: {
        allOf: [
          { $ref: "#/components/schemas/Named" },
          {
            type: "object",
            properties: {
              usage: { $ref: "#/components/schemas/Usage" },
              part: {
                anyOf: [
                  { type: "object", properties: { text: { type: "string" } } },
                  { type: "object", properties: { number: { type: "integer" } } },
                ],
              },
              parameters: { type: "object" },
            },
          },
        ],
      },
    });
    const reply = {
      name: "a",
      usage: { total_tokens: 1 },
      part: { number: 2 },
      parameters: { anything: { at: "all" } },
    };
    expect(closed.problems("Reply", reply)).toEqual([]);
    expect(closed.problems("Reply", { ...reply, surprise: 1 })).not.toEqual([]);
    expect(
      closed.problems("Reply", { ...reply, usage: { total_tokens: 1, surprise: 1 } }),
    ).not.toEqual([]);
    expect(closed.problems("Reply", { ...reply, part: { number: 2, surprise: 1 } })).not.toEqual(
      [],
    );
  });

  it("allows Sibyl's documented extensions at their places, and nowhere else", () => {
    const extended = tiny(
      {
        Usage: { type: "object", properties: { total_tokens: { type: "integer" } } },
        Reply: {
          type: "object",
          properties: {
            usage: { $ref: "#/components/schemas/Usage" },
            choices: { type: "array", items: { type: "object", properties: { text: {} } } },
          },
        },
      },
      [
        { component: "Usage", path: [], fields: ["cost_usd"] },
        {
          component: "Reply",
          path: ["properties", "choices", "items"],
          fields: ["forecast"],
          schema: { type: "object" },
        },
      ],
    );
    const reply = {
      usage: { total_tokens: 1, cost_usd: 0.1 },
      choices: [{ text: "a", forecast: { read_by: "tag" } }],
    };
    expect(extended.problems("Reply", reply)).toEqual([]);
    expect(extended.problems("Reply", { ...reply, cost_usd: 0.1 })).not.toEqual([]);
    expect(
      extended.problems("Reply", { ...reply, choices: [{ text: "a", forecast: 0.5 }] }),
    ).not.toEqual([]);
    expect(() => tiny({}, [{ component: "Usage", path: [], fields: ["cost_usd"] }])).toThrow(
      /no Usage any more/,
    );
  });

  it("keeps each erratum only while the published description still disagrees", () => {
    const published = new OpenAISchemas(loadVendoredDocument(), { errata: false });
    for (const { component, properties } of SPEC_ERRATA) {
      const base = schemas.document.components.schemas[component];
      expect(base, component).toBeDefined();
      const body = {
        object: "list",
        data: [],
        has_more: false,
        ...Object.fromEntries(properties.map((name) => [name, null])),
      };
      expect(schemas.problems(component, body)).toEqual([]);
      expect(
        published.problems(component, body),
        `${component} erratum no longer needed`,
      ).not.toEqual([]);
    }
  });
});

describe("the vendored description", () => {
  it("is the file source.json names, with OpenAI's licence beside it", () => {
    const source = readSource();
    expect(sha256(readFileSync(VENDORED_SPEC, "utf8"))).toBe(source.sha256);
    expect(source.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(readFileSync(path.join(VENDORED_DIR, "LICENSE"), "utf8")).toMatch(
      /MIT License[\s\S]*OpenAI/,
    );
    expect(schemas.document.openapi).toMatch(/^3\.1\./);
  });

  it("names every shape Sibyl serves, and each compiles", () => {
    for (const { component } of SERVED_SHAPES) {
      expect(existsSync(VENDORED_SPEC)).toBe(true);
      expect(schemas.document.components.schemas[component], component).toBeDefined();
      expect(() => schemas.problems(component, {})).not.toThrow();
    }
  });
});
