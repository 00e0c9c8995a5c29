/**
 * Fields Sibyl adds to OpenAI's shapes, as documented in docs/ (api.md, answers.md, research.md,
 * batches.md): allowed additions wherever OpenAI's schema would otherwise forbid them. OpenAI's
 * schemas for the shapes Sibyl serves allow unknown properties, so these matter only if a new
 * description closes one; a field not listed here still fails there.
 */
export const EXTENSION_FIELDS: readonly string[] = [
  // usage (chat, text, Responses)
  "cost_usd",
  "inference_cost_usd",
  "research_cost_usd",
  "classification_cost_usd",
  // chat message and stream delta: the model's reasoning
  "thinking",
  // chat completion and Responses object: an ensemble's samples
  "ensemble",
  // error bodies: FastAPI-style problems
  "detail",
  // models: catalogue details and prices
  "name",
  "description",
  "context_length",
  "max_completion_tokens",
  "pricing",
  "knowledge_cutoff",
];
