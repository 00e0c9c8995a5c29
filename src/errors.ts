/**
 * The error catalogue. Services throw these; the HTTP layer alone turns a kind into a status
 * code and an OpenAI-style body, so nothing below it knows HTTP.
 */
export type ErrorKind =
  | "invalid_request"
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

export const insufficientCredits = () =>
  new ServiceError(
    "insufficient_credits",
    "Insufficient credits: top up the organization's balance to continue.",
    { code: "insufficient_credits" },
  );

export const invalidRequest = (message: string, code: string, param: string | null = null) =>
  new ServiceError("invalid_request", message, { code, param });
