import type { OpenApiContract } from "../../support/openapi-contract.js";
import type { FuzzRequest, FuzzResponse } from "./fuzz-request.js";

/**
 * Ids of another organization's objects, which the caller may only ever see echoed back: once a
 * request has named one (a batch created from another organization's file), answers about that
 * request may name it too.
 */
export class ForeignIds {
  private readonly named = new Set<string>();

  constructor(readonly ids: string[]) {}

  noteRequest(request: FuzzRequest): void {
    const sent = `${request.path} ${request.body ?? ""}`;
    for (const id of this.ids) if (sent.includes(id)) this.named.add(id);
  }

  /** Ids in `text` that no request of the caller has named. */
  unexplainedIn(text: string): string[] {
    return this.ids.filter((id) => text.includes(id) && !this.named.has(id));
  }
}

export interface CheckContext {
  contract: OpenApiContract;
  foreignIds: ForeignIds;
}

const ERROR_RESPONSE = { $ref: "#/components/schemas/ErrorResponse" };

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** An error answer: JSON in Sibyl's shape, `error: {message, type, param, code}` and `detail`. */
function errorShapeProblems(response: FuzzResponse, contract: OpenApiContract): string[] {
  if (!response.contentType.startsWith("application/json")) {
    return [
      `error answered as '${response.contentType}', not JSON: ${response.text.slice(0, 200)}`,
    ];
  }
  const body = parsed(response.text);
  if (!body.ok) return [`error body is not JSON: ${response.text.slice(0, 200)}`];
  const problems = contract.schemaProblems(ERROR_RESPONSE, body.value);
  const message = (body.value as { error?: { message?: unknown } }).error?.message;
  if (message === "") problems.push("error.message is empty");
  return problems.map((problem) => `error body ${problem}: ${response.text.slice(0, 300)}`);
}

/** Server-sent events: JSON chunks, errors in Sibyl's shape, and always `data: [DONE]` last. */
function streamProblems(text: string, contract: OpenApiContract): string[] {
  const events = text
    .split("\n\n")
    .map((event) => event.trim())
    .filter((event) => event !== "" && !event.startsWith(":"));
  const problems: string[] = [];
  if (events.at(-1) !== "data: [DONE]") problems.push("stream does not end with data: [DONE]");
  for (const event of events.slice(0, -1)) {
    const chunk = parsed(event.replace(/^data: /, ""));
    if (!event.startsWith("data: ") || !chunk.ok) {
      problems.push(`stream event is not a JSON data line: ${event.slice(0, 200)}`);
      continue;
    }
    if ((chunk.value as { error?: unknown }).error !== undefined) {
      const shape = contract.schemaProblems(ERROR_RESPONSE, {
        detail: "",
        ...(chunk.value as object),
      });
      problems.push(...shape.map((problem) => `stream error event ${problem}`));
    }
  }
  return problems;
}

/** The events that may end a Responses stream (an `error` event comes before `response.failed`). */
const RESPONSE_STREAM_ENDS = new Set([
  "response.completed",
  "response.incomplete",
  "response.failed",
]);

/**
 * Named server-sent events, as OpenAI's Responses stream sends them: `event: {type}` and a JSON
 * `data` line of that type, numbered in order, ending with the response's final state; no
 * `[DONE]`.
 */
function namedStreamProblems(text: string): string[] {
  const events = text
    .split("\n\n")
    .map((event) => event.trim())
    .filter((event) => event !== "" && !event.startsWith(":"));
  const problems: string[] = [];
  let last = "";
  events.forEach((event, index) => {
    const [nameLine = "", dataLine = "", ...rest] = event.split("\n");
    const name = nameLine.replace(/^event: /, "");
    const data = parsed(dataLine.replace(/^data: /, ""));
    const value = data.ok ? (data.value as { type?: unknown; sequence_number?: unknown }) : null;
    if (!nameLine.startsWith("event: ") || !dataLine.startsWith("data: ") || rest.length > 0) {
      problems.push(`stream event is not an event and a data line: ${event.slice(0, 200)}`);
    } else if (!value || value.type !== name) {
      problems.push(`stream event's data is not a JSON '${name}' event: ${event.slice(0, 200)}`);
    } else if (value.sequence_number !== index) {
      problems.push(`stream event ${index} is numbered ${String(value.sequence_number)}`);
    }
    last = name;
  });
  if (!RESPONSE_STREAM_ENDS.has(last))
    problems.push(`stream ends with '${last}', not a final state`);
  return problems;
}

/** Every promise one answer breaks; empty when it keeps them all. */
export function responseViolations(
  request: FuzzRequest,
  response: FuzzResponse,
  context: CheckContext,
): string[] {
  const problems: string[] = [];
  if (response.status >= 500) problems.push(`answered ${response.status}`);
  if (response.text.includes("FST_")) problems.push("body names a Fastify error code (FST_…)");
  for (const id of context.foreignIds.unexplainedIn(response.text)) {
    problems.push(`body names another organization's object ${id}`);
  }
  const pathSegments = request.path.split(/[/?]/);
  for (const id of context.foreignIds.ids.filter((id) => pathSegments.includes(id))) {
    if (response.status < 300) problems.push(`served another organization's object ${id}`);
  }
  if (request.method === "HEAD") return problems;
  if (response.status >= 400) problems.push(...errorShapeProblems(response, context.contract));
  if (response.contentType.startsWith("text/event-stream")) {
    const named = /\/responses$/.test(request.path.split("?")[0] ?? "");
    problems.push(
      ...(named
        ? namedStreamProblems(response.text)
        : streamProblems(response.text, context.contract)),
    );
  }
  const path = request.path.split("?")[0] ?? "";
  const template = context.contract.templateOf(request.method, path);
  if (response.status < 300 && template && response.contentType.startsWith("application/json")) {
    const body = parsed(response.text);
    const observed = { ...response, body: body.ok ? body.value : response.text };
    problems.push(...context.contract.responseProblems(request.method, template, observed));
  }
  return problems;
}

/** A chunked body put back together (a malformed one is returned as it came). */
function dechunk(body: string): string {
  let rest = body;
  let joined = "";
  for (;;) {
    const lineEnd = rest.indexOf("\r\n");
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (lineEnd < 0 || Number.isNaN(size)) return body;
    if (size === 0) return joined;
    joined += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

/** The status, content type and body of the first final answer on a raw connection. */
export function rawResponse(text: string): FuzzResponse | null {
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
  if (status === undefined) return null;
  const headEnd = text.indexOf("\r\n\r\n");
  // An interim answer (100 Continue) comes first and has no body.
  if (status.startsWith("1")) return rawResponse(text.slice(headEnd + 4));
  const head = text.slice(0, headEnd);
  const body = text.slice(headEnd + 4);
  const contentType = /^content-type:\s*(.*)$/im.exec(head)?.[1]?.trim() ?? "";
  const length = /^content-length:\s*(\d+)$/im.exec(head)?.[1];
  const chunked = /^transfer-encoding:\s*chunked$/im.test(head);
  return {
    status: Number(status),
    contentType,
    text: chunked
      ? dechunk(body)
      : body.slice(0, length === undefined ? undefined : Number(length)),
  };
}
