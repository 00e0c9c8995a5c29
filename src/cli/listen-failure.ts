import { CommandFailure } from "./command.js";

/**
 * What to do when the server cannot listen, in one line naming the address and the setting that
 * changes it; null for an error that is not about the address.
 */
export function listenFailure(error: unknown, host: string, port: number): CommandFailure | null {
  const code = (error as { code?: unknown }).code;
  if (code === "EADDRINUSE") {
    return new CommandFailure(
      `port ${port} on ${host} is already in use: stop what listens there, or choose another port with --port N or SIBYL_PORT=N (server.port in the configuration)`,
    );
  }
  if (code === "EACCES") {
    return new CommandFailure(
      `not allowed to listen on port ${port} on ${host}: choose a port above 1023 with --port N or SIBYL_PORT=N`,
    );
  }
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return new CommandFailure(
      `cannot listen on host "${host}", which is not an address of this machine: choose another with --host H or SIBYL_HOST=H (server.host in the configuration)`,
    );
  }
  return null;
}
