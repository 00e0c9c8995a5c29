import type { InferenceRequest, SamplingParams } from "../provider.js";

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
  const input =
    request.input.kind === "chat"
      ? { messages: request.input.messages }
      : { prompt: request.input.prompt };
  const body: WireBody = {
    model: upstreamModel,
    ...input,
    ...presentParams(request.params),
    stream,
  };
  if (stream) body.stream_options = { include_usage: true };
  return body;
}

/** Null and undefined mean "server default", so they are left out rather than sent as null. */
function presentParams(params: SamplingParams): WireBody {
  return Object.fromEntries(
    Object.entries(params).filter(([, value]) => value !== null && value !== undefined),
  );
}
