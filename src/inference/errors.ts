/**
 * Why an upstream call failed:
 * - `rejected`: the model server answered 4xx (passed through with its status and message)
 * - `unavailable`: unreachable, connection reset, 5xx, malformed reply
 * - `timeout`: no headers or body in time
 * - `aborted`: our caller cancelled
 */
export type UpstreamFailure = "rejected" | "unavailable" | "timeout" | "aborted";

export class UpstreamError extends Error {
  constructor(
    readonly failure: UpstreamFailure,
    message: string,
    /** The upstream HTTP status, when there was one. */
    readonly upstreamStatus: number | null = null,
  ) {
    super(message);
    this.name = "UpstreamError";
  }
}
