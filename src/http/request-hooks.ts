import type { FastifyInstance } from "fastify";
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
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
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
    if (LOGS_INFO.has(request.log.level)) {
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
    if (closing) app.server.closeIdleConnections();
    done();
  });
}
