/**
 * Sibyl's floor: a chat completions route on the benchmark's own server that does everything
 * Sibyl does before and after the completion pipeline (routing, JSON body parsing and schema
 * validation, API key authentication, the rate limit, response serialization, every global hook)
 * and answers a fixed reply instead of running it: no hold, no upstream call, no settlement.
 * The distance from the Fastify proxy (fastify-proxy-process.ts) to this route is what Sibyl's
 * HTTP layer costs on its own; no change to the pipeline can take Sibyl past it.
 */
import type { App } from "../src/app.js";
import type { Services } from "../src/services.js";

export const FLOOR_PATH = "/bench-floor/v1/chat/completions";

const fixedReply = {
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
        thinking: null,
      },
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

/** Adds the floor route, from the build the server runs (`build`: its dist/ folder URL). */
export async function addFloorRoute(app: App, services: Services, build: URL): Promise<void> {
  const fromBuild = <T>(file: string) => import(new URL(file, build).href) as Promise<T>;
  const { Type } = await import("@sinclair/typebox");
  const { registerBearerAuth } =
    await fromBuild<typeof import("../src/http/auth.js")>("http/auth.js");
  const { admitCaller } =
    await fromBuild<typeof import("../src/http/admit-caller.js")>("http/admit-caller.js");
  const { ChatCompletionRequestSchema } =
    await fromBuild<typeof import("../src/completions/schema.js")>("completions/schema.js");
  const { ChatCompletionResponseSchema } = await fromBuild<
    typeof import("../src/http/schemas/completions.js")
  >("http/schemas/completions.js");
  await app.register(
    async (scope) => {
      registerBearerAuth(scope, services.apiKeys);
      scope.post(
        "/chat/completions",
        {
          schema: {
            body: Type.Ref(ChatCompletionRequestSchema),
            response: { 200: Type.Ref(ChatCompletionResponseSchema) },
          },
        },
        async (request, reply) => {
          await admitCaller(services, request, reply);
          return fixedReply;
        },
      );
    },
    { prefix: FLOOR_PATH.replace(/\/chat\/completions$/, "") },
  );
}
