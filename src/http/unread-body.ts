import type { IncomingMessage } from "node:http";

/** How long the rest of a body its answer did not need may keep arriving before the cut. */
const DRAIN_GRACE_MS = 5_000;

/**
 * An answer sent before its request body was read to the end (an upload refused part-way) leaves
 * the rest of that body on the connection, unread: Node no longer discards it once a handler has
 * read some, so every later request on the keep-alive connection would wait behind it forever.
 * Reads the rest and drops it; a body still arriving after the grace loses its connection.
 */
export function drainUnreadBody(request: IncomingMessage): void {
  if (request.complete || request.destroyed) return;
  const cut = setTimeout(() => request.socket.destroy(), DRAIN_GRACE_MS);
  cut.unref();
  const stop = () => clearTimeout(cut);
  request.once("end", stop);
  request.once("close", stop);
  request.resume();
}
