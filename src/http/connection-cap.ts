import type { Server } from "node:http";
import type { Socket } from "node:net";
import { fromServiceError } from "../error-responses.js";
import { ServiceError } from "../errors.js";

/**
 * Caps the connections one client address holds open at `limit` (0: none): a client past it
 * gets a 429 and its new connection closed, so one slow or greedy client cannot take every
 * socket the server has. Behind a reverse proxy every client shares the proxy's address: raise
 * the limit there, or set 0 and cap at the proxy.
 */
export function capConnectionsPerAddress(server: Server, limit: number): void {
  if (limit <= 0) return;
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    const count = (open.get(address) ?? 0) + 1;
    if (count > limit) {
      refuse(socket, limit);
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

function refuse(socket: Socket, limit: number): void {
  const { status, body } = fromServiceError(
    new ServiceError(
      "rate_limited",
      `Too many open connections from this address (at most ${limit}); reuse or close one.`,
      { code: "too_many_connections" },
    ),
  );
  const json = JSON.stringify(body);
  socket.end(
    [
      `HTTP/1.1 ${status} Too Many Requests`,
      "Content-Type: application/json; charset=utf-8",
      `Content-Length: ${Buffer.byteLength(json)}`,
      "Retry-After: 1",
      "Connection: close",
      "",
      json,
    ].join("\r\n"),
  );
  const cut = setTimeout(() => socket.destroy(), 1_000);
  cut.unref();
  socket.once("close", () => clearTimeout(cut));
}
