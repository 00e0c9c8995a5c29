import type { SpecSchema } from "../../../scripts/openai-openapi/document.js";
import { schemaAt } from "./schema-at.js";

/**
 * What Sibyl adds at one place of an OpenAI schema (a component, then the path inside it):
 * properties, or values of an enum.
 */
export type Extension =
  | {
      component: string;
      path: string[];
      fields: string[];
      /** What the fields hold, when OpenAI's description has a schema for it; anything otherwise. */
      schema?: unknown;
    }
  | { component: string; path: string[]; values: string[] };

const CHOICE = ["properties", "choices", "items"];
const COST_FIELDS = [
  "cost_usd",
  "inference_cost_usd",
  "research_cost_usd",
  "classification_cost_usd",
];

/**
 * Sibyl's documented extensions (docs/api.md, answers.md, research.md, batches.md), each at the
 * only place it is allowed: anywhere else, a property OpenAI's schema does not define fails.
 */
export const SIBYL_EXTENSIONS: readonly Extension[] = [
  { component: "CompletionUsage", path: [], fields: COST_FIELDS },
  { component: "ResponseUsage", path: [], fields: COST_FIELDS },
  // The model's thinking, whole and streamed.
  { component: "ChatCompletionResponseMessage", path: [], fields: ["thinking"] },
  { component: "ChatCompletionStreamResponseDelta", path: [], fields: ["thinking"] },
  // A streamed choice's citations, on its last chunk, as a whole message has them.
  {
    component: "ChatCompletionStreamResponseDelta",
    path: [],
    fields: ["annotations"],
    schema: { $ref: "#/components/schemas/ChatCompletionResponseMessage/properties/annotations" },
  },
  // An ensemble's samples, the sources research gave the model, how an answer was read.
  { component: "CreateChatCompletionResponse", path: [], fields: ["ensemble", "research"] },
  { component: "CreateChatCompletionResponse", path: CHOICE, fields: ["forecast"] },
  { component: "CreateChatCompletionStreamResponse", path: [], fields: ["research"] },
  { component: "CreateChatCompletionStreamResponse", path: CHOICE, fields: ["forecast"] },
  { component: "CreateCompletionResponse", path: CHOICE, fields: ["forecast"] },
  { component: "Response", path: [], fields: ["ensemble", "research", "forecast"] },
  // OpenAI's servers send `store` on a response too, though its description leaves it out;
  // Sibyl's says false (docs/api.md: nothing is stored).
  { component: "Response", path: [], fields: ["store"] },
  // OpenAI's servers nest the error of an `error` event as well, and its SDKs read it there.
  { component: "ResponseErrorEvent", path: [], fields: ["error"] },
  { component: "Batch", path: [], fields: ["cost_usd"] },
  {
    component: "Model",
    path: [],
    fields: [
      "name",
      "description",
      "context_length",
      "max_completion_tokens",
      "pricing",
      "knowledge_cutoff",
    ],
  },
  // A day's usage in dollars; costs grouped by model, which only usage records carry.
  { component: "UsageCompletionsResult", path: [], fields: ["cost_usd"] },
  { component: "CostsResult", path: [], fields: ["model"] },
  // Files a backtest keeps on the server (docs/evaluation.md). The one value Sibyl sends outside
  // an enum of OpenAI's: a client that checks enums strictly fails to read these files, and a
  // file list holding them.
  { component: "OpenAIFile", path: ["properties", "purpose"], values: ["evaluation"] },
  // FastAPI-style problems beside OpenAI's error.
  { component: "ErrorResponse", path: [], fields: ["detail"] },
  // A payment's 402: RFC 9457 problem details (docs/payments.md), with the MPP draft's challengeId.
  { component: "ErrorResponse", path: [], fields: ["type", "title", "status", "challengeId"] },
];

/**
 * The schemas with each extension's fields defined (as anything, unless a schema is named) and
 * values allowed at its place. A place OpenAI's description no longer has fails loudly; a field
 * OpenAI comes to define is checked as OpenAI defines it.
 */
export function withExtensions(
  schemas: Record<string, SpecSchema>,
  extensions: readonly Extension[] = SIBYL_EXTENSIONS,
): Record<string, SpecSchema> {
  const extended = { ...schemas };
  for (const extension of extensions) {
    const { component, path } = extension;
    const schema = structuredClone(extended[component]);
    const place = schemaAt(schema, path);
    const where = [component, ...path].join("/");
    if (!schema || !place) throw new Error(`OpenAI's description has no ${where} any more`);
    if ("values" in extension) {
      if (!Array.isArray(place.enum)) throw new Error(`${where} is no enum any more`);
      place.enum = [...new Set([...place.enum, ...extension.values])];
    } else {
      const properties = (place.properties ?? {}) as Record<string, unknown>;
      for (const field of extension.fields) properties[field] ??= extension.schema ?? true;
      place.properties = properties;
    }
    extended[component] = schema;
  }
  return extended;
}
