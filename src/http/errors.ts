import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { type ErrorKind, ServiceError } from "../errors.js";
import { UpstreamError } from "../inference/errors.js";
import {
  InvalidJsonError,
  partName,
  toValidationDetails,
  type ValidationDetail,
} from "./validation.js";

export interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
  detail: ValidationDetail[] | string;
}

const STATUS: Record<ErrorKind, number> = {
  invalid_request: 400,
  unauthorized: 401,
  insufficient_credits: 402,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  upstream_rejected: 400,
  upstream_unavailable: 502,
  upstream_timeout: 504,
};

const TYPE: Record<ErrorKind, string> = {
  invalid_request: "invalid_request_error",
  unauthorized: "authentication_error",
  insufficient_credits: "insufficient_credits",
  not_found: "invalid_request_error",
  conflict: "invalid_request_error",
  too_large: "invalid_request_error",
  unsupported_media_type: "invalid_request_error",
  rate_limited: "rate_limit_error",
  upstream_rejected: "invalid_request_error",
  upstream_unavailable: "upstream_error",
  upstream_timeout: "upstream_error",
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

export function validationBody(details: ValidationDetail[]): ErrorBody {
  const first = details[0];
  const where = first ? first.loc.join(".") : "request";
  const message = first ? `${where}: ${first.msg}` : "Invalid request";
  const extra = details.length > 1 ? ` (and ${details.length - 1} more problems)` : "";
  const param = first ? first.loc.slice(1).join(".") || null : null;
  return errorBody(`${message}${extra}`, "invalid_request_error", "validation_error", param, details);
}

export interface ResolvedError {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

export function fromServiceError(error: ServiceError): ResolvedError {
  const status =
    error.kind === "upstream_rejected" ? (error.status ?? 400) : STATUS[error.kind];
  const headers = { ...error.headers };
  if (NEVER_RETRY.has(status)) headers["x-should-retry"] = "false";
  return {
    status,
    headers,
    body: errorBody(error.message, TYPE[error.kind], error.code, error.param),
  };
}

export function fromUpstreamError(error: UpstreamError): ResolvedError {
  switch (error.failure) {
    case "rejected":
      return fromServiceError(
        new ServiceError("upstream_rejected", `Model server rejected the request: ${error.message}`, {
          code: "upstream_rejected",
          status: error.upstreamStatus ?? 400,
        }),
      );
    case "timeout":
      return fromServiceError(
        new ServiceError("upstream_timeout", `Model server timed out: ${error.message}`, {
          code: "upstream_timeout",
        }),
      );
    default:
      return fromServiceError(
        new ServiceError("upstream_unavailable", `Model server unavailable: ${error.message}`, {
          code: "upstream_unavailable",
        }),
      );
  }
}

/** Maps Fastify's own errors (parsing, limits, validation) onto the catalogue. */
function fromFastifyError(error: FastifyError, request: FastifyRequest): ResolvedError | null {
  if (error.validation) {
    const part = partName(error.validationContext);
    const data = { body: request.body, query: request.query, path: request.params, header: request.headers }[part];
    if (part === "body" && data === undefined) {
      const missing: ValidationDetail = { loc: ["body"], msg: "Field required", type: "missing", input: null };
      return { status: 422, headers: {}, body: validationBody([missing]) };
    }
    return { status: 422, headers: {}, body: validationBody(toValidationDetails(error.validation, part, data)) };
  }
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return fromServiceError(new ServiceError("too_large", "Request body is too large.", { code: "request_too_large" }));
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return fromServiceError(
        new ServiceError("unsupported_media_type", "Unsupported Content-Type: send application/json.", {
          code: "unsupported_media_type",
        }),
      );
    case "FST_ERR_CTP_EMPTY_JSON_BODY": {
      const missing: ValidationDetail = { loc: ["body"], msg: "Field required", type: "missing", input: null };
      return { status: 422, headers: {}, body: validationBody([missing]) };
    }
    default:
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return {
          status: error.statusCode,
          headers: {},
          body: errorBody(error.message, "invalid_request_error", error.code ?? null),
        };
      }
      return null;
  }
}

/** The single error handler: every failure leaves through here in the same shape. */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  const resolved =
    error instanceof InvalidJsonError
      ? { status: 422, headers: {}, body: validationBody([error.toDetail()]) }
      : error instanceof ServiceError
      ? fromServiceError(error)
      : error instanceof UpstreamError
        ? fromUpstreamError(error)
        : fromFastifyError(error as FastifyError, request);
  if (!resolved) {
    request.log.error({ err: error }, "unhandled error");
    return reply
      .status(500)
      .send(errorBody("Internal server error.", "api_error", "internal_error"));
  }
  if (resolved.status >= 500) request.log.warn({ err: error }, "request failed");
  return reply.status(resolved.status).headers(resolved.headers).send(resolved.body);
}
