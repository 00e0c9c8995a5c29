/**
 * The error catalogue. Services throw these; the HTTP layer alone turns a kind into a status
 * code and an OpenAI-style body, so nothing below it knows HTTP.
 */
export type ErrorKind =
  | "invalid_request"
  | "unprocessable"
  | "unauthorized"
  | "forbidden"
  | "insufficient_credits"
  | "not_found"
  | "conflict"
  | "too_large"
  | "rate_limited"
  | "unsupported_media_type"
  | "upstream_rejected"
  | "upstream_unavailable"
  | "upstream_busy"
  | "upstream_timeout"
  | "request_timeout"
  | "headers_too_large"
  | "unavailable"
  | "client_closed";

export interface ServiceErrorOptions {
  code?: string;
  param?: string | null;
  /** Upstream status passed through for `upstream_rejected`. */
  status?: number;
  headers?: Record<string, string>;
}

export class ServiceError extends Error {
  readonly code: string;
  readonly param: string | null;
  readonly status: number | undefined;
  readonly headers: Record<string, string>;

  constructor(
    readonly kind: ErrorKind,
    message: string,
    options: ServiceErrorOptions = {},
  ) {
    super(message);
    this.name = "ServiceError";
    this.code = options.code ?? kind;
    this.param = options.param ?? null;
    this.status = options.status;
    this.headers = options.headers ?? {};
  }
}

export const notFound = (what: string, id: string, param: string | null = null) =>
  new ServiceError("not_found", `No ${what} found with id '${id}'.`, {
    code: `${what.replaceAll(" ", "_")}_not_found`,
    param,
  });

/** The organization cannot hold what a piece of work may cost. */
export class InsufficientCredits extends ServiceError {
  constructor(
    /** The hold that did not fit, in nano-dollars: a top-up of this much lets the work run. */
    readonly requestNanos: number,
    explained: { message: string; headers: Record<string, string> } = {
      message: "Insufficient credits: top up the organization's balance to continue.",
      headers: {},
    },
  ) {
    super("insufficient_credits", explained.message, {
      code: "insufficient_credits",
      headers: explained.headers,
    });
  }
}

export const insufficientCredits = (requestNanos: number) => new InsufficientCredits(requestNanos);

export const invalidRequest = (message: string, code: string, param: string | null = null) =>
  new ServiceError("invalid_request", message, { code, param });

/** A well-formed request whose value the resource cannot take (an outcome of the wrong type). */
export class UnprocessableValue extends ServiceError {
  constructor(
    message: string,
    code: string,
    param: string,
    /** The value refused, echoed in the 422's `detail`. */
    readonly input: unknown,
  ) {
    super("unprocessable", message, { code, param });
  }
}

export const unprocessable = (message: string, code: string, param: string, input: unknown) =>
  new UnprocessableValue(message, code, param, input);
