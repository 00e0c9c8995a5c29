import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { countChatTokens, countTextTokens } from "../../src/inference/tokens.js";

/**
 * A fake OpenAI-compatible model server on loopback, speaking the wire protocol of vLLM and
 * OpenAI (JSON replies; SSE with the role in the first delta, a usage chunk when asked, and
 * `data: [DONE]`). Tests script each call's behaviour and inspect the recorded requests.
 */

export type ReasoningField = "reasoning_content" | "reasoning";

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  reasoning_tokens?: number;
}

export interface FakeBehaviour {
  /** Reply of choice i is `contents[i % contents.length]`; default "Echo: <last user message or prompt>". */
  contents?: string[];
  /** Reasoning sent with every choice, under the given field name. */
  reasoning?: { field: ReasoningField; text: string };
  /** Reported usage; null reports none; default is computed from the request and reply. */
  usage?: FakeUsage | null;
  /** Sent as `usage` verbatim, overriding `usage`: for counts no sane server would report. */
  rawUsage?: unknown;
  /** Default "stop". */
  finishReason?: string;
  /** Answer with this status instead of a completion when it is not 2xx. */
  status?: number;
  /** Body for an error status: objects go out as JSON, strings as plain text. */
  errorBody?: unknown;
  /** Extra response headers, e.g. `retry-after`. */
  headers?: Record<string, string>;
  headersDelayMs?: number;
  /** Answer only once this settles. */
  gate?: Promise<void>;
  /** Pause before each stream chunk. */
  chunkDelayMs?: number;
  /** Stream: after this many data chunks, send nothing more and keep the connection open. */
  stallAfterChunks?: number;
  /** Close the connection without answering. */
  dropConnection?: boolean;
  /** Stream or raw reply: after this many data chunks, fail as `failWith` says (raw: always drop). */
  failAfterChunks?: number;
  /** "error-event" (default) sends `data: {"error": …}` then `[DONE]`; "drop" closes the connection. */
  failWith?: "error-event" | "drop";
  /** Send these bytes verbatim (with `chunkDelayMs` between writes) instead of a generated reply. */
  raw?: RawReply;
  /** Label a generated 2xx reply with this content type instead of the right one. */
  contentType?: string;
}

/** A verbatim reply; byte chunks can split a character or a line anywhere. */
export interface RawReply {
  contentType: string;
  chunks: (string | Uint8Array)[];
}

/** completed: fully answered · aborted: the client closed first · dropped: the fake closed it. */
export type RequestOutcome = "completed" | "aborted" | "dropped";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
  outcome: RequestOutcome | "pending";
  settled: Promise<RequestOutcome>;
  /** Stream `data:` chunks written, `[DONE]` excluded. */
  chunksSent: number;
}

export interface FakeUpstream {
  /** Base URL including `/v1`. */
  url: string;
  requests: RecordedRequest[];
  /** Behaviours for the next calls, in order; the default applies once they are used up. */
  enqueue(...behaviours: FakeBehaviour[]): void;
  /**
   * Picks a call's behaviour from its JSON body when nothing is queued, so calls sent at once
   * get their own replies in any order; `undefined` falls back to the default.
   */
  setResponder(pick: ((body: unknown) => FakeBehaviour | undefined) | null): void;
  setDefault(behaviour: FakeBehaviour): void;
  /** Forgets requests, queued behaviours and the default. */
  reset(): void;
  close(): Promise<void>;
}

interface ParsedInput {
  kind: "chat" | "text";
  /** One per prompt (a chat has one). */
  prompts: string[];
  promptTokens: number;
  n: number;
  includeUsage: boolean;
  stream: boolean;
  model: string;
}

interface ChoiceReply {
  index: number;
  content: string;
  reasoning: string | null;
}

type Json = Record<string, unknown>;

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const queue: FakeBehaviour[] = [];
  let defaultBehaviour: FakeBehaviour = {};
  let responder: ((body: unknown) => FakeBehaviour | undefined) | null = null;
  const requests: RecordedRequest[] = [];

  const server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const record = recordRequest(req, res, text);
    requests.push(record);
    const behaviour = queue.shift() ?? responder?.(record.body) ?? defaultBehaviour;

    if (behaviour.headersDelayMs) await sleep(behaviour.headersDelayMs);
    if (behaviour.gate) await behaviour.gate;
    if (record.outcome !== "pending") return;
    if (behaviour.dropConnection) {
      record.outcome = "dropped";
      res.destroy();
      return;
    }
    if (behaviour.status && (behaviour.status < 200 || behaviour.status >= 300)) {
      sendError(res, behaviour.status, behaviour.errorBody, behaviour.headers);
      return;
    }
    if (behaviour.raw) {
      await sendRaw(res, record, behaviour.raw, behaviour);
      return;
    }
    const route = routeOf(req.method ?? "GET", req.url ?? "/");
    if (route === "models") {
      sendJson(res, 200, { object: "list", data: [{ id: "fake-model", object: "model" }] });
      return;
    }
    if (route === null) {
      sendError(res, 404, { error: { message: `no route for ${req.url}`, code: 404 } });
      return;
    }
    const input = parseInput(route, record.body);
    if (typeof input === "string") {
      sendError(res, 400, { error: { message: input, type: "invalid_request_error" } });
      return;
    }
    const replies = replyChoices(input, behaviour);
    const usage = usageOf(input, replies, behaviour);
    if (input.stream) {
      await streamReply(res, record, input, replies, usage, behaviour);
    } else {
      const headers = behaviour.contentType
        ? { ...behaviour.headers, "content-type": behaviour.contentType }
        : behaviour.headers;
      sendJson(res, 200, completionBody(input, replies, usage, behaviour), headers);
    }
  }

  function recordRequest(req: IncomingMessage, res: ServerResponse, text: string) {
    let settle: (outcome: RequestOutcome) => void = () => {};
    const record: RecordedRequest = {
      method: req.method ?? "GET",
      path: req.url ?? "/",
      headers: req.headers,
      body: parseJson(text),
      outcome: "pending",
      settled: new Promise<RequestOutcome>((resolve) => {
        settle = resolve;
      }),
      chunksSent: 0,
    };
    res.on("close", () => {
      const outcome =
        record.outcome === "pending"
          ? res.writableFinished
            ? "completed"
            : "aborted"
          : record.outcome;
      record.outcome = outcome;
      settle(outcome);
    });
    return record;
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...behaviours) => {
      queue.push(...behaviours);
    },
    setResponder: (pick) => {
      responder = pick;
    },
    setDefault: (behaviour) => {
      defaultBehaviour = behaviour;
    },
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      responder = null;
      defaultBehaviour = {};
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function streamReply(
  res: ServerResponse,
  record: RecordedRequest,
  input: ParsedInput,
  replies: ChoiceReply[],
  usage: unknown,
  behaviour: FakeBehaviour,
): Promise<void> {
  res.writeHead(200, {
    "content-type": behaviour.contentType ?? "text/event-stream",
    "cache-control": "no-cache",
    ...behaviour.headers,
  });
  res.flushHeaders();
  const envelope = chunkEnvelope(input);
  const chunks = interleave(replies.map((reply) => choiceChunks(input, reply, behaviour)));
  const payloads: Json[] = chunks.map((choice) => ({
    ...envelope,
    choices: [choice],
    ...(input.includeUsage ? { usage: null } : {}),
  }));
  if (input.includeUsage && usage !== null) payloads.push({ ...envelope, choices: [], usage });

  for (const payload of payloads) {
    if (record.chunksSent === behaviour.stallAfterChunks) return;
    if (record.chunksSent === behaviour.failAfterChunks) {
      failStream(res, record, behaviour.failWith ?? "error-event");
      return;
    }
    if (behaviour.chunkDelayMs) await sleep(behaviour.chunkDelayMs);
    if (record.outcome !== "pending") return;
    await writeFlushed(res, `data: ${JSON.stringify(payload)}\n\n`);
    record.chunksSent += 1;
  }
  res.end("data: [DONE]\n\n");
}

async function sendRaw(
  res: ServerResponse,
  record: RecordedRequest,
  raw: RawReply,
  behaviour: FakeBehaviour,
): Promise<void> {
  res.writeHead(200, { "content-type": raw.contentType });
  res.flushHeaders();
  for (const chunk of raw.chunks) {
    if (record.chunksSent === behaviour.failAfterChunks) {
      failStream(res, record, "drop");
      return;
    }
    if (behaviour.chunkDelayMs) await sleep(behaviour.chunkDelayMs);
    if (record.outcome !== "pending") return;
    await writeFlushed(res, chunk);
    record.chunksSent += 1;
  }
  res.end();
}

function failStream(res: ServerResponse, record: RecordedRequest, mode: "error-event" | "drop") {
  if (mode === "drop") {
    record.outcome = "dropped";
    res.destroy();
    return;
  }
  const error = {
    message: "fake upstream failed mid-stream",
    type: "InternalServerError",
    code: 500,
  };
  res.write(`data: ${JSON.stringify({ error })}\n\n`);
  res.end("data: [DONE]\n\n");
}

/** The stream deltas of one choice: role first (chat), reasoning, content, then the finish. */
function choiceChunks(input: ParsedInput, reply: ChoiceReply, behaviour: FakeBehaviour): Json[] {
  const finishReason = behaviour.finishReason ?? "stop";
  if (input.kind === "text") {
    return [
      ...words(reply.content).map((text) => textChoice(reply.index, text, null)),
      textChoice(reply.index, "", finishReason),
    ];
  }
  const field = behaviour.reasoning?.field ?? "reasoning_content";
  const delta = (content: Json, finish: string | null = null): Json => ({
    index: reply.index,
    delta: content,
    logprobs: null,
    finish_reason: finish,
  });
  return [
    delta({ role: "assistant", content: "" }),
    ...words(reply.reasoning ?? "").map((text) => delta({ [field]: text })),
    ...words(reply.content).map((text) => delta({ content: text })),
    delta({}, finishReason),
  ];
}

function textChoice(index: number, text: string, finishReason: string | null): Json {
  return { index, text, logprobs: null, finish_reason: finishReason };
}

function completionBody(
  input: ParsedInput,
  replies: ChoiceReply[],
  usage: unknown,
  behaviour: FakeBehaviour,
): Json {
  const finishReason = behaviour.finishReason ?? "stop";
  const choices = replies.map((reply) => {
    if (input.kind === "text") return textChoice(reply.index, reply.content, finishReason);
    const message: Json = { role: "assistant", content: reply.content };
    if (reply.reasoning !== null && behaviour.reasoning) {
      message[behaviour.reasoning.field] = reply.reasoning;
    }
    return { index: reply.index, message, logprobs: null, finish_reason: finishReason };
  });
  return {
    id: `${input.kind === "chat" ? "chatcmpl" : "cmpl"}-fake`,
    object: input.kind === "chat" ? "chat.completion" : "text_completion",
    created: Math.floor(Date.now() / 1000),
    model: input.model,
    choices,
    ...(usage === null ? {} : { usage }),
  };
}

function chunkEnvelope(input: ParsedInput): Json {
  return {
    id: `${input.kind === "chat" ? "chatcmpl" : "cmpl"}-fake`,
    object: input.kind === "chat" ? "chat.completion.chunk" : "text_completion",
    created: Math.floor(Date.now() / 1000),
    model: input.model,
  };
}

/** Choices for prompt p are numbered p*n … p*n+n-1, as OpenAI does. */
function replyChoices(input: ParsedInput, behaviour: FakeBehaviour): ChoiceReply[] {
  return input.prompts.flatMap((prompt, promptIndex) =>
    Array.from({ length: input.n }, (_, j) => {
      const index = promptIndex * input.n + j;
      const scripted = behaviour.contents?.[index % behaviour.contents.length];
      return {
        index,
        content: scripted ?? `Echo: ${prompt}`,
        reasoning: behaviour.reasoning?.text ?? null,
      };
    }),
  );
}

function usageOf(input: ParsedInput, replies: ChoiceReply[], behaviour: FakeBehaviour): unknown {
  if (behaviour.rawUsage !== undefined) return behaviour.rawUsage;
  if (behaviour.usage === null) return null;
  const scripted = behaviour.usage;
  const reasoningTokens =
    scripted?.reasoning_tokens ??
    (behaviour.reasoning
      ? replies.reduce((sum, reply) => sum + countTextTokens(reply.reasoning ?? ""), 0)
      : undefined);
  const promptTokens = scripted?.prompt_tokens ?? input.promptTokens;
  const completionTokens =
    scripted?.completion_tokens ??
    replies.reduce((sum, reply) => sum + countTextTokens(reply.content), 0) +
      (reasoningTokens ?? 0);
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    ...(reasoningTokens === undefined
      ? {}
      : { completion_tokens_details: { reasoning_tokens: reasoningTokens } }),
  };
}

function routeOf(method: string, url: string): "chat" | "text" | "models" | null {
  const path = url.split("?")[0];
  if (method === "POST" && path === "/v1/chat/completions") return "chat";
  if (method === "POST" && path === "/v1/completions") return "text";
  if (method === "GET" && path === "/v1/models") return "models";
  return null;
}

/** The request as the fake understands it, or an error message for a 400. */
function parseInput(kind: "chat" | "text", body: unknown): ParsedInput | string {
  if (typeof body !== "object" || body === null) return "body must be a JSON object";
  const request = body as Json;
  const n = typeof request.n === "number" ? request.n : 1;
  const streamOptions = request.stream_options as Json | undefined;
  const common = {
    n,
    stream: request.stream === true,
    includeUsage: streamOptions?.include_usage === true,
    model: typeof request.model === "string" ? request.model : "fake-model",
  };
  if (kind === "chat") {
    if (!Array.isArray(request.messages)) return "messages is required";
    const messages = request.messages as {
      role: "system" | "user" | "assistant";
      content: string;
    }[];
    const lastUser = messages.findLast((message) => message.role === "user")?.content ?? "";
    return { kind, prompts: [lastUser], promptTokens: countChatTokens(messages), ...common };
  }
  const prompt = request.prompt;
  const prompts = typeof prompt === "string" ? [prompt] : Array.isArray(prompt) ? prompt : null;
  if (prompts === null || !prompts.every((p) => typeof p === "string")) {
    return "prompt must be a string or an array of strings";
  }
  const promptTokens = prompts.reduce((sum, p) => sum + countTextTokens(p), 0);
  return { kind, prompts, promptTokens, ...common };
}

/** Round-robin across choices, as servers generating n sequences in parallel send them. */
function interleave(perChoice: Json[][]): Json[] {
  const merged: Json[] = [];
  const longest = Math.max(0, ...perChoice.map((chunks) => chunks.length));
  for (let position = 0; position < longest; position += 1) {
    for (const chunks of perChoice) {
      const chunk = chunks[position];
      if (chunk) merged.push(chunk);
    }
  }
  return merged;
}

function words(text: string): string[] {
  return text.match(/\s*\S+\s*|\s+/g) ?? [];
}

/** Resolves once the chunk left the process, so a later drop cannot swallow it. */
function writeFlushed(res: ServerResponse, chunk: string | Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    res.write(chunk, () => resolve());
  });
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function sendError(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (typeof body === "string") {
    res.writeHead(status, { "content-type": "text/plain", ...headers });
    res.end(body);
    return;
  }
  const fallback = {
    error: { message: `fake upstream error ${status}`, type: "server_error", code: status },
  };
  sendJson(res, status, body ?? fallback, headers);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
