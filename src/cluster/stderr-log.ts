import type { ClusterLog } from "./postgres-cluster.js";

/** Error lines as JSON on stderr, for what happens below the HTTP layer's logger. */
export const stderrClusterLog: ClusterLog = {
  error(details, message) {
    const fields = Object.fromEntries(
      Object.entries(details).map(([key, value]) => [
        key,
        value instanceof Error ? { message: value.message, code: errorCode(value) } : value,
      ]),
    );
    process.stderr.write(
      `${JSON.stringify({ level: "error", time: Date.now(), msg: message, ...fields })}\n`,
    );
  },
};

function errorCode(error: Error): unknown {
  return (error as { code?: unknown }).code;
}
