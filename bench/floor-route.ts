/**
 * Sibyl's floors: chat completions routes on the benchmark's own server that does everything
 * Sibyl does before and after the completion pipeline (routing, JSON body parsing and schema
 * validation, API key authentication, the rate limit, response serialization, every global hook)
 * and answers a fixed reply instead of running it: no hold, no upstream call, no settlement.
 * The distance from the Fastify proxy (fastify-proxy-process.ts) to this route is what Sibyl's
 * HTTP layer costs on its own; no change to the pipeline can take Sibyl past it.
 *
 * The forwarding floor does the same and then what any gateway that reads what it passes on must
 * do: sends the validated body to the model server over an undici pool, parses the reply and
 * answers it, still with no hold, settlement, usage record or answer step. It bounds what Sibyl
 * could reach with every step of its pipeline free.
 */
import type { App } from "../src/app.js";
import type { ChatCompletionResponse } from "../src/completions/types.js";
import type { Services } from "../src/services.js";

export const FLOOR_PATH = "/bench-floor/v1/chat/completions";
export const FORWARDING_FLOOR_PATH = "/bench-forward/v1/chat/completions";

// Typed as the pipeline's reply, so a field the response schema comes to require fails the type
// check here instead of turning every floor response into a 500.
const fixedReply: ChatCompletionResponse = {
  id: "chatcmpl-floor",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "bench-model",
  choices: [
    {
      index: 0,
      message: {
        role: "assistant",
        content: "Probability: 35%. Base rates favour no.",
        refusal: null,
        thinking: null,
      },
      logprobs: null,
      finish_reason: "stop",
    },
  ],
  usage: {
    prompt_tokens: 42,
    completion_tokens: 12,
    total_tokens: 54,
    cost_usd: 0.000018,
    inference_cost_usd: 0.000018,
    completion_tokens_details: { reasoning_tokens: 0 },
  },
};

/**
 * Adds both floor routes, from the build the server runs (`build`: its dist/ folder URL); the
 * forwarding one sends to the model server at `upstreamUrl`.
 */
export async function addFloorRoutes(
  app: App,
  services: Services,
  build: URL,
  upstreamUrl: string,
): Promise<void> {
  const fromBuild = <T>(file: string) => import(new URL(file, build).href) as Promise<T>;
  const { Type } = await import("@sinclair/typebox");
  const { Pool } = await import("undici");
  const { registerBearerAuth } =
    await fromBuild<typeof import("../src/http/auth.js")>("http/auth.js");
  const { admitCaller } =
    await fromBuild<typeof import("../src/http/admit-caller.js")>("http/admit-caller.js");
  const { ChatCompletionRequestSchema } =
    await fromBuild<typeof import("../src/completions/schema.js")>("completions/schema.js");
  const { ChatCompletionResponseSchema } = await fromBuild<
    typeof import("../src/http/schemas/completions.js")
  >("http/schemas/completions.js");
  const body = Type.Ref(ChatCompletionRequestSchema);
  const upstream = new URL(upstreamUrl);
  const pool = new Pool(upstream.origin);
  const upstreamPath = `${upstream.pathname.replace(/\/$/, "")}/chat/completions`;
  app.addHook("onClose", () => pool.close());

  await app.register(
    async (scope) => {
      registerBearerAuth(scope, services.apiKeys);
      scope.post(
        "/chat/completions",
        { schema: { body, response: { 200: Type.Ref(ChatCompletionResponseSchema) } } },
        async (request, reply) => {
          await admitCaller(services, request, reply);
          return fixedReply;
        },
      );
    },
    { prefix: prefixOf(FLOOR_PATH) },
  );
  await app.register(
    async (scope) => {
      registerBearerAuth(scope, services.apiKeys);
      scope.post("/chat/completions", { schema: { body } }, async (request, reply) => {
        await admitCaller(services, request, reply);
        const answer = await pool.request({
          path: upstreamPath,
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(request.body),
        });
        return answer.body.json();
      });
    },
    { prefix: prefixOf(FORWARDING_FLOOR_PATH) },
  );
}

function prefixOf(path: string): string {
  return path.replace(/\/chat\/completions$/, "");
}
