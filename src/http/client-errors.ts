import { type ServerResponse, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { ConnectionError, FastifyInstance } from "fastify";
import { fromServiceError, type ResolvedError } from "../error-responses.js";
import { invalidRequest, ServiceError } from "../errors.js";
import { newId } from "../util/ids.js";

/**
 * How long a connection stays half-closed after its error response. Closing it outright while
 * the client is still sending would reset the connection, and the client could lose the answer.
 */
const CLOSE_GRACE_MS = 1_000;

/** The catalogue error a connection-level failure (one Node raises before any route) stands for. */
function failureOf(error: ConnectionError): ServiceError {
  switch (error.code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new ServiceError("request_timeout", "The request was not received in time.", {
        code: "request_timeout",
      });
    case "HPE_HEADER_OVERFLOW":
      return new ServiceError("headers_too_large", "Request headers are too large.", {
        code: "request_headers_too_large",
      });
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return new ServiceError("too_large", "Chunk extensions are too large.", {
        code: "request_too_large",
      });
    default:
      return invalidRequest("Malformed HTTP request.", "malformed_http_request");
  }
}

/**
 * Whether the failed request is a HEAD, read from the bytes Node was parsing: the start of the
 * packet or what follows the last complete head in it (requests may be pipelined). An answer to
 * HEAD carries no body; a client reads any it gets as garbage before the next response.
 */
function failedRequestIsHead(error: ConnectionError): boolean {
  const packet = (error as ConnectionError & { rawPacket?: Buffer }).rawPacket;
  if (!packet) return false;
  const lastHeadEnd = packet.lastIndexOf("\r\n\r\n");
  const start = lastHeadEnd === -1 ? 0 : lastHeadEnd + 4;
  // A head cut inside the packet ends it; the failed request is the one before.
  const requestStart = start === packet.length ? previousRequestStart(packet, lastHeadEnd) : start;
  return packet.toString("latin1", requestStart, requestStart + 5) === "HEAD ";
}

function previousRequestStart(packet: Buffer, headEnd: number): number {
  const before = packet.lastIndexOf("\r\n\r\n", headEnd - 1);
  return before === -1 ? 0 : before + 4;
}

function rawResponse(
  { status, headers, body }: ResolvedError,
  requestId: string,
  withBody: boolean,
): string {
  const json = JSON.stringify(body);
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}`,
    `x-request-id: ${requestId}`,
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(json)}`,
    "Connection: close",
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join("\r\n")}\r\n\r\n${withBody ? json : ""}`;
}

/** Connections whose error answer is written or waiting: Node may report one more than once. */
const answering = new WeakSet<Socket>();

/** The response this connection is writing, if any. */
function responseInFlight(socket: Socket): ServerResponse | null {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? null;
}

/**
 * Runs `then` once the connection has written every response it owes to requests that came
 * before the failed one (a client may pipeline several, or send its next request the moment it
 * has read an answer the server is still finishing), so answers keep the order of requests.
 * A response whose request is still arriving is the failed request's own: the error answers
 * that request instead, unless the response has begun, and then the connection is closed, as it
 * is should an earlier response end unfinished.
 */
function afterResponsesInFlight(socket: Socket, then: () => void): void {
  const inFlight = responseInFlight(socket);
  if (!inFlight?.req.complete) {
    if (inFlight?.headersSent) socket.destroy();
    else then();
    return;
  }
  // Node's own listener, added when the response was created, runs first: it hands the
  // connection to the next response waiting, or leaves it free.
  inFlight.once("finish", () => afterResponsesInFlight(socket, then));
  inFlight.once("close", () => {
    if (!inFlight.writableFinished) socket.destroy();
  });
}

/** Writes the error answer and half-closes the connection, destroying it after a grace period. */
function closeWith(socket: Socket, answer: string): void {
  if (socket.destroyed || socket.writableEnded) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(answer);
  const cut = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
  cut.unref();
  socket.once("close", () => clearTimeout(cut));
}

/**
 * Answers malformed HTTP, oversized headers and request timeouts in the error shape every other
 * failure has, after the answers still owed to earlier requests on the connection, then closes
 * the connection.
 */
export function answerClientError(
  this: FastifyInstance,
  error: ConnectionError,
  socket: Socket,
): void {
  if (error.code === "ECONNRESET" || socket.destroyed || socket.writableEnded) return;
  if (answering.has(socket)) return;
  // Bytes after a request that asked to close the connection. RFC 9112 §9.6: answer that request
  // and ignore the rest; Node closes the connection once the answer is sent.
  if (error.code === "HPE_CLOSED_CONNECTION" && responseInFlight(socket)) return;
  answering.add(socket);
  const requestId = newId("req_", 20);
  // The error carries the raw request bytes, credentials included: log its code only.
  this.log.debug({ reqId: requestId, code: error.code }, "client error");
  const answer = rawResponse(
    fromServiceError(failureOf(error)),
    requestId,
    !failedRequestIsHead(error),
  );
  afterResponsesInFlight(socket, () => closeWith(socket, answer));
}
