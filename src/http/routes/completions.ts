import { Type } from "@sinclair/typebox";
import {
  type ChatCompletionBody,
  ChatCompletionRequestSchema,
  type CompletionBody,
  CompletionRequestSchema,
} from "../../completions/schema.js";
import type { Services } from "../../services.js";
import { admitCaller } from "../admit-caller.js";
import type { App } from "../app-instance.js";
import { ErrorResponse, withErrors } from "../schemas/common.js";
import { ChatCompletionResponseSchema, CompletionResponseSchema } from "../schemas/completions.js";
import { sendEventStream } from "../sse.js";

const errors = {
  400: Type.Ref(ErrorResponse),
  402: Type.Ref(ErrorResponse),
  403: Type.Ref(ErrorResponse),
  404: Type.Ref(ErrorResponse),
  502: Type.Ref(ErrorResponse),
  504: Type.Ref(ErrorResponse),
};

export function registerCompletionRoutes(app: App, services: Services): void {
  app.post<{ Body: ChatCompletionBody }>(
    "/chat/completions",
    {
      schema: {
        summary: "Create a chat completion",
        description:
          "OpenAI-compatible chat completion with forecasting extensions (research, answer_type, reasoning_effort, prediction_date). With `stream: true` the reply is sent as server-sent events.",
        tags: ["completions"],
        body: Type.Ref(ChatCompletionRequestSchema),
        response: withErrors({ 200: Type.Ref(ChatCompletionResponseSchema), ...errors }),
      },
    },
    async (request, reply) => {
      const caller = await admitCaller(services, request, reply);
      const body = request.body;
      if (body.stream) {
        const chunks = await services.completions.streamChat(caller, body);
        return sendEventStream(
          request,
          reply,
          chunks,
          reply.getHeaders() as Record<string, string>,
        );
      }
      return services.completions.chat(caller, body);
    },
  );

  app.post<{ Body: CompletionBody }>(
    "/completions",
    {
      schema: {
        summary: "Create a text completion",
        description:
          "OpenAI-compatible text completion with forecasting extensions (research, answer_type, reasoning_effort). With `stream: true` the reply is sent as server-sent events.",
        tags: ["completions"],
        body: Type.Ref(CompletionRequestSchema),
        response: withErrors({ 200: Type.Ref(CompletionResponseSchema), ...errors }),
      },
    },
    async (request, reply) => {
      const caller = await admitCaller(services, request, reply);
      const body = request.body;
      if (body.stream) {
        const chunks = await services.completions.streamText(caller, body);
        return sendEventStream(
          request,
          reply,
          chunks,
          reply.getHeaders() as Record<string, string>,
        );
      }
      return services.completions.text(caller, body);
    },
  );
}
