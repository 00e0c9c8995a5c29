/**
 * The schemas of OpenAI's description that Sibyl answers with: the conformance tests validate
 * Sibyl's responses against them, and the refresh script reports changes to them (and to every
 * schema they reach).
 */
export const SERVED_SHAPES: readonly { component: string; servedAs: string }[] = [
  {
    component: "CreateChatCompletionResponse",
    servedAs: "POST /v1/chat/completions; batch output bodies",
  },
  {
    component: "CreateChatCompletionStreamResponse",
    servedAs: "POST /v1/chat/completions, stream chunks",
  },
  {
    component: "CreateCompletionResponse",
    servedAs: "POST /v1/completions, and its stream chunks",
  },
  { component: "Response", servedAs: "POST /v1/responses" },
  { component: "ResponseStreamEvent", servedAs: "POST /v1/responses, stream events" },
  { component: "OpenAIFile", servedAs: "POST /v1/files, GET /v1/files/{id}" },
  { component: "ListFilesResponse", servedAs: "GET /v1/files" },
  { component: "DeleteFileResponse", servedAs: "DELETE /v1/files/{id}" },
  { component: "Batch", servedAs: "POST /v1/batches, GET /v1/batches/{id}, POST …/cancel" },
  { component: "ListBatchesResponse", servedAs: "GET /v1/batches" },
  { component: "Model", servedAs: "GET /v1/models/{id}" },
  { component: "ListModelsResponse", servedAs: "GET /v1/models" },
  {
    component: "UsageResponse",
    servedAs: "GET /v1/organization/usage/completions, GET /v1/organization/costs",
  },
  { component: "ErrorResponse", servedAs: "every error body; batch error lines' bodies" },
];
