import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectErrorResponse, request, V1_PREFIXES } from "../support/http.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";

let server: TestServer;
let org: TestOrg;

const MODELS = [
  { id: "sibyl-baseline", provider: "baseline" },
  {
    id: "Qwen/Qwen3-8B",
    provider: "openai",
    base_url: "http://127.0.0.1:9/v1",
    api_key_env: "UPSTREAM_SECRET_ENV",
    upstream_model: "internal-upstream-name",
    name: "Qwen 3 8B",
    description: "A hosted model",
    owned_by: "qwen",
    created: 1_700_000_000,
    context_length: 32768,
    max_completion_tokens: 8192,
    pricing: { prompt: "0.0000002", completion: "0.0000008" },
  },
  { id: "ft:small:acme:v1@2", provider: "openai", base_url: "http://127.0.0.1:9/v1" },
];

const MODEL_KEYS = [
  "context_length",
  "created",
  "description",
  "id",
  "max_completion_tokens",
  "name",
  "object",
  "owned_by",
  "pricing",
];

beforeAll(async () => {
  server = await startTestServer({ config: { models: MODELS } });
  org = await server.createOrg();
});

afterAll(async () => {
  await server?.close();
});

describe.each(V1_PREFIXES)("models under %s", (prefix) => {
  it("lists every configured model in order, in the OpenAI list shape", async () => {
    const response = await request(server.url, `${prefix}/models`, { apiKey: org.apiKey });
    expect(response.status).toBe(200);
    const body = response.body as { object: string; data: Record<string, unknown>[] };
    expect(Object.keys(body).sort()).toEqual(["data", "object"]);
    expect(body.object).toBe("list");
    expect(body.data.map((m) => m.id)).toEqual(MODELS.map((m) => m.id));
    for (const model of body.data) expect(Object.keys(model).sort()).toEqual(MODEL_KEYS);
    expect(body.data[1]).toEqual({
      id: "Qwen/Qwen3-8B",
      object: "model",
      created: 1_700_000_000,
      owned_by: "qwen",
      name: "Qwen 3 8B",
      description: "A hosted model",
      context_length: 32768,
      max_completion_tokens: 8192,
      pricing: { prompt: "0.0000002", completion: "0.0000008" },
    });
  });

  it("fills the interface defaults for fields left out of the configuration", async () => {
    const response = await request(server.url, `${prefix}/models/ft:small:acme:v1@2`, {
      apiKey: org.apiKey,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: "ft:small:acme:v1@2",
      object: "model",
      created: 0,
      owned_by: "sibyl",
      name: "",
      description: "",
      context_length: 0,
      max_completion_tokens: 0,
      pricing: { prompt: "0", completion: "0" },
    });
  });

  it("describes the built-in baseline", async () => {
    const response = await request(server.url, `${prefix}/models/sibyl-baseline`, {
      apiKey: org.apiKey,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: "sibyl-baseline",
      object: "model",
      pricing: { prompt: "0", completion: "0" },
    });
  });

  it("never shows upstream addresses, credentials or names", async () => {
    for (const path of ["/models", "/models/Qwen%2FQwen3-8B"]) {
      const response = await request(server.url, `${prefix}${path}`, { apiKey: org.apiKey });
      const text = JSON.stringify(response.body);
      expect(response.status).toBe(200);
      for (const secret of ["127.0.0.1:9", "UPSTREAM_SECRET_ENV", "internal-upstream-name"]) {
        expect(text).not.toContain(secret);
      }
    }
  });

  it.each(["Qwen%2FQwen3-8B", "Qwen/Qwen3-8B"])(
    "retrieves a model whose id holds a slash, sent as %s",
    async (id) => {
      const response = await request(server.url, `${prefix}/models/${id}`, {
        apiKey: org.apiKey,
      });
      expect(response.status).toBe(200);
      expect((response.body as { id: string }).id).toBe("Qwen/Qwen3-8B");
    },
  );

  it.each(["nope", "sibyl-baseline-2", "SIBYL-BASELINE", "..%2F..%2Fetc", "%00", "a/b/c"])(
    "answers 404 model_not_found for the unknown id %s",
    async (id) => {
      const response = await request(server.url, `${prefix}/models/${id}`, {
        apiKey: org.apiKey,
      });
      expectErrorResponse(response, {
        status: 404,
        code: "model_not_found",
        type: "invalid_request_error",
        param: "model_id",
      });
      expect((response.body as { error: { message: string } }).error.message).toContain(
        "does not exist",
      );
    },
  );
});
