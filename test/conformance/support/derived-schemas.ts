/**
 * Shapes OpenAI serves but its description does not name, derived from the schemas it does
 * publish. Each derivation fails loudly when the schema it starts from changes shape, so a new
 * description cannot quietly turn it into a check of nothing.
 */
import type { SpecSchema } from "../../../scripts/openai-openapi/document.js";
import { schemaAt } from "./schema-at.js";

/**
 * A text completion stream chunk. OpenAI documents the stream of /completions only as "the same
 * as CreateCompletionResponse", and its stream sends those objects with `finish_reason: null`
 * until a choice's last chunk (the chat stream's schema allows exactly that). So: that schema,
 * with `finish_reason` nullable.
 */
export const TEXT_COMPLETION_CHUNK = "Derived.CreateCompletionStreamChunk";

export function derivedSchemas(schemas: Record<string, SpecSchema>): Record<string, SpecSchema> {
  if (TEXT_COMPLETION_CHUNK in schemas) {
    throw new Error(`OpenAI's description now has ${TEXT_COMPLETION_CHUNK}: use it instead`);
  }
  const chunk = structuredClone(schemas.CreateCompletionResponse);
  const choice = schemaAt(chunk, ["properties", "choices", "items", "properties"]);
  const finish = choice?.finish_reason;
  if (!choice || finish === undefined) {
    throw new Error("CreateCompletionResponse has no choices[].finish_reason any more");
  }
  choice.finish_reason = { anyOf: [finish, { type: "null" }] };
  return { [TEXT_COMPLETION_CHUNK]: chunk as SpecSchema };
}
