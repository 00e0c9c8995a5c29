import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { errorBody } from "./errors.js";
import { redactUrl } from "./redact-url.js";
import { unknownTransferCoding } from "./transfer-coding.js";

/** Levels at which the access line is written; skipped otherwise, its fields never built. */
const LOGS_INFO = new Set(["info", "debug", "trace"]);

/**
 * The hooks every request passes through: its id echoed, the refusals due before routing (the
 * server shutting down, a transfer coding Node cannot undo) and one access line when it ends.
 * One hook per stage, in callback style: an async hook costs every request a promise and a
 * microtask.
 */
export function registerRequestHooks(app: FastifyInstance): void {
  // Closing sweeps idle keep-alive connections once. A response still running then (a streamed
  // file download, a completion) would leave its connection open, and close waiting, until the
  // client or the 72 s keep-alive timeout ends it; sweep again as each such response finishes.
  let closing = false;
  // A response that starts once closing has begun says `Connection: close`, so its client sends
  // nothing more on the connection: a request written as the server closes it would fail with a
  // reset the client cannot tell from a crash (and would not retry if it is a POST).
  const connections = new Set<Socket>();
  const lastResponse = new WeakMap<Socket, ServerResponse>();
  app.server.on("connection", (socket: Socket) => {
    connections.add(socket);
    socket.once("close", () => connections.delete(socket));
  });
  app.addHook("preClose", async () => {
    closing = true;
    for (const socket of connections) {
      const response = lastResponse.get(socket);
      if (response && !response.headersSent) response.setHeader("connection", "close");
    }
  });
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    lastResponse.set(request.raw.socket, reply.raw);
    if (closing) {
      reply
        .status(503)
        .header("connection", "close")
        .send(
          errorBody(
            "The server is shutting down; retry the request.",
            "api_error",
            "shutting_down",
          ),
        );
      return;
    }
    done(unknownTransferCoding(request) ?? undefined);
  });
  app.addHook("onResponse", (request, reply, done) => {
    writeAccessLine(request, reply);
    if (closing) app.server.closeIdleConnections();
    done();
  });
}

/** The one access line of a request, at info level. */
export function writeAccessLine(request: FastifyRequest, reply: FastifyReply): void {
  if (!LOGS_INFO.has(request.log.level)) return;
  request.log.info(
    {
      method: request.method,
      url: redactUrl(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
      organization: request.principal?.organizationId,
    },
    "request completed",
  );
}
