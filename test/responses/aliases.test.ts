import { compileErrors, validate } from "@readme/openapi-parser";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type CompletionsEnv,
  MODEL,
  sdkClient,
  startCompletionsEnv,
} from "../completions/support/env.js";
import { sibylUsage } from "../completions/support/sibyl-types.js";
import { post } from "../completions/support/sse.js";
import { request } from "../support/http.js";

let env: CompletionsEnv;

/** Ten seconds into a one-minute rate-limit window: the requests below never straddle two. */
const NOW = Date.UTC(2025, 5, 2, 12, 0, 10);

beforeAll(async () => {
  env = await startCompletionsEnv({ requestsPerMinute: 4, clock: { now: () => NOW } });
});
afterEach(() => env.fake.reset());
afterAll(async () => {
  await env.close();
});

const FORESIGHT = ["/api/public/v1/openai", "/v1/openai"] as const;

describe.each(FORESIGHT)("a Foresight client at %s", (prefix) => {
  it("runs chat completions with the extensions, as at /v1/compat", async () => {
    const org = await env.org("10");
    env.fake.enqueue({ contents: ["Thinking it through... Probability: 64%"] });
    const completion = await sdkClient(env.server.url, org.apiKey, prefix).chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "Will it rain in Paris tomorrow?" }],
      // @ts-expect-error Sibyl's extension field, sent in the body by the SDK
      answer_type: "binary",
    });
    expect(completion.choices[0]?.message.content).toMatch(/<answer>0\.64<\/answer>$/);
    expect(sibylUsage(completion.usage).cost_usd).toBeGreaterThan(0);
  });

  it("lists the models and creates responses", async () => {
    const org = await env.org("10");
    const client = sdkClient(env.server.url, org.apiKey, prefix);
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toContain(MODEL);
    env.fake.enqueue({ contents: ["Yes."] });
    const response = await client.responses.create({ model: MODEL, input: "Q" });
    expect(response.output_text).toBe("Yes.");
  });

  it("answers errors exactly as /v1/compat does", async () => {
    const { apiKey } = await env.org("10");
    const body = { model: "no-such-model", messages: [{ role: "user", content: "Q" }] };
    const alias = await post(env.server.url, `${prefix}/chat/completions`, apiKey, body);
    const compat = await post(env.server.url, "/v1/compat/chat/completions", apiKey, body);
    expect(alias.status).toBe(404);
    expect(await alias.json()).toEqual(await compat.json());
    const anonymous = await request(env.server.url, `${prefix}/models`);
    expect(anonymous.status).toBe(401);
  });
});

describe("the aliases' limits", () => {
  it("count against the same per-organization rate limit as /v1", async () => {
    const org = await env.org("10");
    const statuses: number[] = [];
    for (const prefix of ["/v1", ...FORESIGHT, "/v1/compat", "/v1/openai"]) {
      const response = await post(env.server.url, `${prefix}/responses`, org.apiKey, {
        model: MODEL,
        input: "Q",
      });
      statuses.push(response.status);
      await response.text();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });
});

describe("/openapi.json", () => {
  it("documents the Responses operation once per documented prefix and no alias path", async () => {
    const response = await request(env.server.url, "/openapi.json");
    const document = response.body as {
      info: { description: string };
      paths: Record<string, Record<string, { requestBody?: unknown; responses: object }>>;
      components: { schemas: Record<string, unknown> };
    };
    for (const prefix of ["/v1", "/v1/compat"]) {
      const operation = document.paths[`${prefix}/responses`]?.post;
      expect(operation?.requestBody).toMatchObject({
        content: {
          "application/json": { schema: { $ref: "#/components/schemas/ResponseCreateRequest" } },
        },
      });
      expect(Object.keys(operation?.responses ?? {})).toEqual(
        expect.arrayContaining(["200", "400", "401", "402", "422", "429"]),
      );
    }
    expect(document.components.schemas.ResponseObject).toBeDefined();
    const paths = Object.keys(document.paths);
    expect(
      paths.filter((path) => path.startsWith("/api/") || path.startsWith("/v1/openai")),
    ).toEqual([]);
    expect(document.info.description).toContain("/api/public/v1/openai");
    const copy = structuredClone(document) as unknown as Parameters<typeof validate>[0];
    const result = await validate(copy);
    expect(result.valid ? "valid" : compileErrors(result)).toBe("valid");
  });
});
