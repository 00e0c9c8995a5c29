import { type ErrorKind, ServiceError, UnprocessableValue } from "./errors.js";
import { UpstreamError } from "./inference/errors.js";

/** A FastAPI-shaped validation problem: where (`loc`), what (`msg`, `type`) and the input. */
export interface ValidationDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

export interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
  detail: ValidationDetail[] | string;
}

const STATUS: Record<ErrorKind, number> = {
  invalid_request: 400,
  unprocessable: 422,
  unauthorized: 401,
  forbidden: 403,
  insufficient_credits: 402,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  upstream_rejected: 400,
  upstream_unavailable: 502,
  upstream_busy: 503,
  upstream_timeout: 504,
  request_timeout: 408,
  headers_too_large: 431,
  unavailable: 503,
  // nginx's "client closed request": nobody receives it, but logs and metrics must not count a
  // caller hanging up as a model server failure.
  client_closed: 499,
};

const TYPE: Record<ErrorKind, string> = {
  invalid_request: "invalid_request_error",
  unprocessable: "invalid_request_error",
  unauthorized: "authentication_error",
  forbidden: "permission_error",
  insufficient_credits: "insufficient_credits",
  not_found: "invalid_request_error",
  conflict: "invalid_request_error",
  too_large: "invalid_request_error",
  unsupported_media_type: "invalid_request_error",
  rate_limited: "rate_limit_error",
  upstream_rejected: "invalid_request_error",
  upstream_unavailable: "upstream_error",
  upstream_busy: "upstream_error",
  upstream_timeout: "upstream_error",
  request_timeout: "invalid_request_error",
  headers_too_large: "invalid_request_error",
  unavailable: "api_error",
  client_closed: "invalid_request_error",
};

/** Statuses where an automatic client retry can only repeat the same failure. */
const NEVER_RETRY = new Set([409]);

export function errorBody(
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
  detail: ValidationDetail[] | string = message,
): ErrorBody {
  return { error: { message, type, param, code }, detail };
}

/** The `type` of a last validation entry that stands for the problems not listed one by one. */
export const UNLISTED_PROBLEMS = "too_many_errors";

/** Listed problems plus those a last UNLISTED_PROBLEMS entry counts. */
function problemCount(details: ValidationDetail[]): number {
  return details.reduce(
    (sum, detail) =>
      sum + (detail.type === UNLISTED_PROBLEMS ? Number(detail.ctx?.unlisted ?? 0) : 1),
    0,
  );
}

export function validationBody(details: ValidationDetail[]): ErrorBody {
  const first = details[0];
  const where = first ? first.loc.join(".") : "request";
  const message = first
    ? (jsonSyntaxMessage(first) ?? `${where}: ${first.msg}`)
    : "Invalid request";
  const more = problemCount(details) - 1;
  const extra = more > 0 ? ` (and ${more} more problems)` : "";
  // A JSON syntax error's location is a character offset, not a parameter.
  const param =
    first && first.type !== "json_invalid" ? first.loc.slice(1).join(".") || null : null;
  return errorBody(
    `${message}${extra}`,
    "invalid_request_error",
    "validation_error",
    param,
    details,
  );
}

/** A JSON syntax error says what is wrong and where, as a person counts lines and columns. */
function jsonSyntaxMessage(detail: ValidationDetail): string | null {
  if (detail.type !== "json_invalid" || !detail.ctx) return null;
  const { error, line, column } = detail.ctx;
  return `Request body is not valid JSON: ${String(error)} at line ${String(line)}, column ${String(column)}`;
}

export interface ResolvedError {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

export function fromServiceError(error: ServiceError): ResolvedError {
  const status = error.kind === "upstream_rejected" ? (error.status ?? 400) : STATUS[error.kind];
  const headers = { ...error.headers };
  if (NEVER_RETRY.has(status)) headers["x-should-retry"] = "false";
  // A refused value is described where the body holds it, as a schema violation would be.
  const detail =
    error instanceof UnprocessableValue
      ? [
          {
            loc: ["body", error.param ?? ""],
            msg: error.message,
            type: error.code,
            input: error.input ?? null,
          },
        ]
      : error.message;
  return {
    status,
    headers,
    body: errorBody(error.message, TYPE[error.kind], error.code, error.param, detail),
  };
}

/**
 * Only upstream 4xx that describe the caller's own request (400, 413, 422) pass through as they
 * are. A 401/403/404 means Sibyl's upstream key or model name is wrong, not the caller's: that is
 * a 502. An upstream 429 that outlived the retries is a 503 so it is not mistaken for Sibyl's own
 * rate limit.
 */
export function fromUpstreamError(error: UpstreamError): ResolvedError {
  const upstream = (kind: ErrorKind, text: string, status?: number) =>
    fromServiceError(
      new ServiceError(kind, `${text}: ${error.message}`, {
        code: kind,
        ...(status ? { status } : {}),
      }),
    );
  switch (error.failure) {
    case "rejected": {
      const status = error.upstreamStatus ?? 400;
      if (PASSED_THROUGH.has(status)) {
        return upstream("upstream_rejected", "Model server rejected the request", status);
      }
      if (status === 429) {
        return upstream("upstream_busy", "Model server is overloaded (429), retry later");
      }
      return upstream("upstream_unavailable", `Model server refused the call (${status})`);
    }
    case "timeout":
      return upstream("upstream_timeout", "Model server timed out");
    case "aborted":
      return fromServiceError(
        new ServiceError("client_closed", "The client closed the request before it finished.", {
          code: "client_closed_request",
        }),
      );
    default:
      return upstream("upstream_unavailable", "Model server unavailable");
  }
}

const PASSED_THROUGH = new Set([400, 413, 422]);

/** The status and body any failure is reported with (HTTP responses and batch error lines). */
export function describeFailure(error: unknown): ResolvedError | null {
  if (error instanceof ServiceError) return fromServiceError(error);
  if (error instanceof UpstreamError) return fromUpstreamError(error);
  return null;
}
