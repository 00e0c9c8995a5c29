import type { FastifyError } from "fastify";
import { describeFailure, errorBody, type ResolvedError } from "../error-responses.js";
import { invalidRequest, ServiceError } from "../errors.js";

/** Fastify's error codes that clients can cause, each read as an error of the catalogue. */
const KNOWN: Record<string, () => ServiceError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    new ServiceError("too_large", "Request body is too large.", { code: "request_too_large" }),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new ServiceError(
      "unsupported_media_type",
      "Unsupported Content-Type: send application/json (multipart/form-data for file uploads).",
      { code: "unsupported_media_type" },
    ),
  FST_ERR_BAD_URL: () =>
    invalidRequest("The URL holds a malformed percent-encoded sequence.", "invalid_url"),
  // Path parameters are object ids, and no id is this long.
  FST_ERR_MAX_PARAM_LENGTH: () =>
    new ServiceError("not_found", "No object has an id longer than 100 characters.", {
      code: "not_found",
    }),
};

/**
 * A Fastify (or plugin) error as Sibyl reports it: a known code through the catalogue, any other
 * client error with its status and a generic code, so no framework code ever reaches a client.
 * Null for server faults.
 */
export function fromFrameworkError(error: FastifyError): ResolvedError | null {
  const known = error.code ? KNOWN[error.code] : undefined;
  if (known) return describeFailure(known());
  const status = error.statusCode ?? 500;
  if (status < 400 || status >= 500) return null;
  return {
    status,
    headers: {},
    body: errorBody(error.message, "invalid_request_error", "invalid_request"),
  };
}
