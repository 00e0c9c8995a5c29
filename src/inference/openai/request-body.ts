import type { InferenceRequest } from "../provider.js";

type WireBody = Record<string, unknown>;

/** Path below the deployment's base URL for this kind of input. */
export function endpointPath(request: InferenceRequest): string {
  return request.input.kind === "chat" ? "/chat/completions" : "/completions";
}

/** The JSON body for the upstream; sampling parameters pass through as given. */
export function buildRequestBody(
  request: InferenceRequest,
  upstreamModel: string,
  stream: boolean,
): WireBody {
  // Built field by field, in the order sent: the body is made for every upstream call.
  const body: WireBody = { model: upstreamModel };
  if (request.input.kind === "chat") body.messages = request.input.messages;
  else body.prompt = request.input.prompt;
  // Null and undefined mean "server default", so they are left out rather than sent as null.
  for (const [name, value] of Object.entries(request.params)) {
    if (value !== null && value !== undefined) body[name] = value;
  }
  if (request.responseFormat) body.response_format = request.responseFormat;
  body.stream = stream;
  if (stream) body.stream_options = { include_usage: true };
  return body;
}
