import { Type } from "@sinclair/typebox";
import { EnsembleResultSchema } from "../../completions/ensemble/schema.js";
import {
  type ResponseCreateBody,
  ResponseCreateRequestSchema,
  ResponseInputItemSchema,
} from "../../responses/schema.js";
import { createResponse, streamResponse } from "../../responses/service.js";
import type { Services } from "../../services.js";
import { unixSeconds } from "../../util/clock.js";
import { admitCaller } from "../admit-caller.js";
import type { App } from "../app-instance.js";
import { ErrorResponse, Nullable, withErrors } from "../schemas/common.js";
import { ForecastReadingSchema, ResearchReportSchema } from "../schemas/completions.js";
import { sendNamedEventStream } from "../sse.js";

const ItemStatus = Type.Union([
  Type.Literal("in_progress"),
  Type.Literal("completed"),
  Type.Literal("incomplete"),
]);

const UrlCitation = Type.Object({
  type: Type.Literal("url_citation"),
  url: Type.String(),
  title: Type.String(),
  start_index: Type.Integer(),
  end_index: Type.Integer(),
});

const MessageItem = Type.Object({
  type: Type.Literal("message"),
  id: Type.String(),
  role: Type.Literal("assistant"),
  status: ItemStatus,
  content: Type.Array(
    Type.Object({
      type: Type.Literal("output_text"),
      text: Type.String({
        description: "the reply, with the answer tags at its end when answer_type was set",
      }),
      annotations: Type.Array(UrlCitation),
      logprobs: Type.Array(Type.Unknown(), { maxItems: 0 }),
    }),
  ),
});

const ReasoningItem = Type.Object(
  {
    type: Type.Literal("reasoning"),
    id: Type.String(),
    status: ItemStatus,
    summary: Type.Array(Type.Object({ type: Type.Literal("summary_text"), text: Type.String() })),
  },
  { description: "the model's thinking, when it returned any" },
);

export const ResponseUsageSchema = Type.Object(
  {
    input_tokens: Type.Integer(),
    input_tokens_details: Type.Object({
      cached_tokens: Type.Integer(),
      cache_write_tokens: Type.Integer({ description: "always 0: Sibyl writes no prompt cache" }),
    }),
    output_tokens: Type.Integer(),
    output_tokens_details: Type.Object({ reasoning_tokens: Type.Integer() }),
    total_tokens: Type.Integer(),
    cost_usd: Type.Number(),
    inference_cost_usd: Type.Number(),
    research_cost_usd: Type.Optional(Type.Number()),
    classification_cost_usd: Type.Optional(Type.Number()),
  },
  { $id: "ResponseUsage" },
);

export const ResponseObjectSchema = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal("response"),
    created_at: Type.Integer(),
    status: Type.Union([
      Type.Literal("in_progress"),
      Type.Literal("completed"),
      Type.Literal("incomplete"),
      Type.Literal("failed"),
    ]),
    background: Type.Boolean(),
    error: Nullable(Type.Object({ code: Nullable(Type.String()), message: Type.String() })),
    incomplete_details: Nullable(Type.Object({ reason: Type.String() })),
    instructions: Nullable(Type.String()),
    max_output_tokens: Nullable(Type.Integer()),
    model: Type.String(),
    output: Type.Array(Type.Union([ReasoningItem, MessageItem])),
    parallel_tool_calls: Type.Boolean(),
    previous_response_id: Type.Null(),
    reasoning: Type.Object({ effort: Nullable(Type.String()), summary: Nullable(Type.String()) }),
    service_tier: Type.String(),
    store: Type.Literal(false, { description: "nothing is stored: always false" }),
    temperature: Nullable(Type.Number()),
    text: Type.Object({ format: Type.Object({ type: Type.Literal("text") }) }),
    tool_choice: Type.String(),
    tools: Type.Array(Type.Unknown(), { maxItems: 0 }),
    top_p: Nullable(Type.Number()),
    truncation: Type.Literal("disabled"),
    usage: Nullable(Type.Ref(ResponseUsageSchema)),
    user: Nullable(Type.String()),
    metadata: Type.Record(Type.String(), Type.String()),
    ensemble: Type.Optional(EnsembleResultSchema),
    research: Type.Optional(Type.Ref(ResearchReportSchema)),
    forecast: Type.Optional(ForecastReadingSchema),
  },
  { $id: "ResponseObject" },
);

/** Schemas with an `$id`, added at the root beside the shared ones. */
export const RESPONSE_SCHEMAS = [
  ResponseInputItemSchema,
  ResponseCreateRequestSchema,
  ResponseUsageSchema,
  ResponseObjectSchema,
];

const errors = {
  400: Type.Ref(ErrorResponse),
  402: Type.Ref(ErrorResponse),
  403: Type.Ref(ErrorResponse),
  404: Type.Ref(ErrorResponse),
  502: Type.Ref(ErrorResponse),
  504: Type.Ref(ErrorResponse),
};

export function registerResponseRoutes(app: App, services: Services): void {
  app.post<{ Body: ResponseCreateBody }>(
    "/responses",
    {
      schema: {
        summary: "Create a model response",
        description:
          "OpenAI's Responses API for text, run as a chat completion: the same models, prices and forecasting extensions (answer_type, prediction_date, research, ensemble), with the cost fields in `usage`; an ensemble's samples are in the response's `ensemble`, as on chat completions. Nothing is stored, whatever `store` says. Tools, file and image inputs, background mode, previous_response_id, conversations and prompt templates answer 400. With `stream: true` the reply is OpenAI's Responses event stream.",
        tags: ["responses"],
        body: Type.Ref(ResponseCreateRequestSchema),
        response: withErrors({ 200: Type.Ref(ResponseObjectSchema), ...errors }),
      },
    },
    async (request, reply) => {
      const caller = await admitCaller(services, request, reply);
      const body = request.body;
      if (!body.stream) return createResponse(services.completions, caller, body);
      const stream = await streamResponse(
        services.completions,
        caller,
        body,
        unixSeconds(services.clock),
      );
      return sendNamedEventStream(
        request,
        reply,
        stream.events(),
        reply.getHeaders() as Record<string, string>,
        (error) => stream.failure(error),
      );
    },
  );
}
