import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

interface Progress {
  response: ServerResponse;
  bytes: number;
  since: number;
}

/** Connections cut here for a stalled body: their request is logged as a 408, not a 499. */
const cutForStall = new WeakSet<Socket>();

export function wasCutForStall(socket: Socket): boolean {
  return cutForStall.has(socket);
}

/**
 * Cuts a request whose body brings no byte for `stallMs` (a body shorter than its
 * Content-Length, an unfinished chunked body, `Expect: 100-continue` with nothing after it, an
 * upload whose client went quiet) with the 408 of a request timeout, so a slow client cannot
 * hold a connection. An upload that keeps moving is never cut, however long it takes. One sweep
 * checks every request still arriving; a request leaves the list once its body is in.
 */
export function cutStalledBodies(app: FastifyInstance, stallMs: number): void {
  const arriving = new Map<IncomingMessage, Progress>();
  const sweep = setInterval(
    () => {
      const now = performance.now();
      for (const [request, progress] of arriving) {
        if (request.complete || request.destroyed) {
          arriving.delete(request);
          continue;
        }
        const bytes = request.socket.bytesRead;
        if (bytes !== progress.bytes) {
          progress.bytes = bytes;
          progress.since = now;
        } else if (now - progress.since >= stallMs) {
          arriving.delete(request);
          // Answered before its body came (a refusal): the answer is out, the connection goes.
          if (progress.response.writableFinished) {
            request.socket.destroy();
            continue;
          }
          cutForStall.add(request.socket);
          // Answered as Node's own request timeout is (client-errors.ts): a 408 after any
          // answers owed to earlier requests, then the connection closed.
          const timeout = Object.assign(new Error("request body stalled"), {
            code: "ERR_HTTP_REQUEST_TIMEOUT",
          });
          app.server.emit("clientError", timeout, request.socket);
        }
      }
    },
    Math.max(20, Math.min(1_000, stallMs / 4)),
  );
  sweep.unref();
  app.addHook("onClose", (_instance, done) => {
    clearInterval(sweep);
    done();
  });
  app.addHook("onRequest", (request, reply, done) => {
    const raw = request.raw;
    if (!raw.complete) {
      arriving.set(raw, {
        response: reply.raw,
        bytes: raw.socket.bytesRead,
        since: performance.now(),
      });
    }
    done();
  });
  app.addHook("onResponse", (request, _reply, done) => {
    // A request answered before its body came stays watched: its connection waits for the rest.
    if (request.raw.complete) arriving.delete(request.raw);
    done();
  });
}
