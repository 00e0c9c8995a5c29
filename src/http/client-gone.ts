import type { FastifyReply, FastifyRequest } from "fastify";

/** nginx's "client closed request", the status of the catalogue's `client_closed`. */
export const CLIENT_CLOSED_STATUS = 499;

/**
 * Whether the request failed because its client left while its body was still arriving. Node
 * reports that as `ECONNRESET` ("aborted"), the very code of a lost database connection, so the
 * failure is judged by where it came from, not by its code: the request's own connection is
 * gone and its body unfinished (an upload may meet a database failure mid-body, but then its
 * client is still there to be told).
 */
export function clientLeftMidBody(request: FastifyRequest): boolean {
  const raw = request.raw;
  return !raw.complete && (raw.destroyed || raw.socket.destroyed);
}

/**
 * Ends a request whose connection is gone mid-body: no answer can reach it, so Fastify's
 * response hooks, which wait for an answer to be written, would never run. It is recorded here
 * instead (`record`: the access line and the metrics) with `status`: 499 when the client left.
 */
export function endClientGone(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  record: readonly ((request: FastifyRequest, reply: FastifyReply) => void)[],
): void {
  reply.hijack();
  reply.code(status);
  for (const write of record) write(request, reply);
  reply.raw.destroy();
}
