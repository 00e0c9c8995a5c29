import type { Socket } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";
import { describeFailure, type ErrorBody, errorBody } from "../error-responses.js";

/**
 * Sends an already-started completion stream as OpenAI server-sent events: `data: {chunk}` lines,
 * an error as `data: {"error": …}`, and always `data: [DONE]` at the end.
 */
export async function sendEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  chunks: AsyncIterable<object>,
  headers: Record<string, string>,
): Promise<void> {
  const raw = startEventStream(request, reply, headers);
  try {
    for await (const chunk of chunks) {
      if (raw.destroyed) break;
      raw.write(`data: ${JSON.stringify(chunk)}\n\n`);
    }
  } catch (error) {
    const failure = streamFailure(request, error);
    if (!raw.destroyed) raw.write(`data: ${JSON.stringify({ error: failure })}\n\n`);
  }
  if (!raw.destroyed) raw.end("data: [DONE]\n\n");
}

/** Takes the response over from Fastify and sends the headers of an event stream. */
function startEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  headers: Record<string, string>,
): FastifyReply["raw"] {
  reply.hijack();
  // Object.assign, not a spread: see prepareCompletion (completions/plan.ts).
  reply.raw.writeHead(
    200,
    Object.assign({}, headers, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
      "x-request-id": request.id,
    }),
  );
  return reply.raw;
}

/** The OpenAI error object a failed stream ends with; a failure not in the catalogue is logged. */
function streamFailure(request: FastifyRequest, error: unknown): ErrorBody["error"] {
  const failure = describeFailure(error);
  if (!failure) request.log.error({ err: error }, "stream failed");
  return (failure?.body ?? errorBody("Internal server error.", "api_error", "internal_error"))
    .error;
}

/** Each connection's departure signal, made when its first completion asks for it. */
const departures = new WeakMap<Socket, AbortSignal>();

/**
 * An AbortSignal that fires when the client goes away: its connection closes, or it ends its
 * side of the connection. A client that only half-closed cannot be told apart from one that
 * left, so its work stops too; it still gets the answer.
 *
 * One signal serves every request of a connection. On HTTP/1.1 a reply that closes before it
 * is finished closes its connection, so the connection's end is each request's end; and an
 * AbortSignal takes Node 20 several microseconds to make, a cost kept-alive connections then
 * pay once. Its users listen through `whenAborted` (util/abort-listeners.ts), or remove their
 * listeners when done (undici's request).
 */
export function clientGone(request: FastifyRequest): AbortSignal {
  const { socket } = request.raw;
  let signal = departures.get(socket);
  if (signal === undefined) {
    const controller = new AbortController();
    const abort = () => controller.abort();
    if (socket.readableEnded || socket.destroyed) abort();
    else {
      socket.once("end", abort);
      socket.once("close", abort);
    }
    signal = controller.signal;
    departures.set(socket, signal);
  }
  return signal;
}

/** One event of a stream whose events are named, such as OpenAI's Responses stream. */
export interface NamedEvent {
  type: string;
}

/**
 * Sends an already-started stream of named server-sent events: `event: {type}` and
 * `data: {event}` for each. A failure ends the stream with the events `closing` makes of its
 * OpenAI error object. There is no `[DONE]`.
 */
export async function sendNamedEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  events: AsyncIterable<NamedEvent>,
  headers: Record<string, string>,
  closing: (error: ErrorBody["error"]) => NamedEvent[],
): Promise<void> {
  const raw = startEventStream(request, reply, headers);
  const write = (event: NamedEvent) =>
    raw.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  try {
    for await (const event of events) {
      if (raw.destroyed) break;
      write(event);
    }
  } catch (error) {
    const failure = streamFailure(request, error);
    if (!raw.destroyed) for (const event of closing(failure)) write(event);
  }
  if (!raw.destroyed) raw.end();
}
