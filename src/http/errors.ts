import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import {
  describeFailure,
  type ErrorBody,
  errorBody,
  type ResolvedError,
  validationBody,
} from "../error-responses.js";
import { fromFrameworkError } from "./framework-errors.js";
import {
  InvalidJsonError,
  partName,
  toValidationDetails,
  type ValidationDetail,
} from "./validation.js";

/** A request that needs a body and sent none. */
function missingBody(): ResolvedError {
  const missing: ValidationDetail = {
    loc: ["body"],
    msg: "Field required",
    type: "missing",
    input: null,
  };
  return { status: 422, headers: {}, body: validationBody([missing]) };
}

/** Maps Fastify's own errors (parsing, limits, validation) onto the catalogue. */
function fromFastifyError(error: FastifyError, request: FastifyRequest): ResolvedError | null {
  if (error.validation) {
    const part = partName(error.validationContext);
    const data = {
      body: request.body,
      query: request.query,
      path: request.params,
      header: request.headers,
    }[part];
    if (part === "body" && data === undefined) return missingBody();
    return {
      status: 422,
      headers: {},
      body: validationBody(toValidationDetails(error.validation, part, data)),
    };
  }
  if (error.code === "FST_ERR_CTP_EMPTY_JSON_BODY") return missingBody();
  return fromFrameworkError(error);
}

/** The single error handler: every failure leaves through here in the same shape. */
export function handleError(
  error: FastifyError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const resolved =
    error instanceof InvalidJsonError
      ? { status: 422, headers: {}, body: validationBody([error.toDetail()]) }
      : (describeFailure(error) ?? fromFastifyError(error as FastifyError, request));
  if (!resolved) {
    request.log.error({ err: error }, "unhandled error");
    return reply
      .status(500)
      .send(errorBody("Internal server error.", "api_error", "internal_error"));
  }
  if (resolved.status >= 500) request.log.warn({ err: error }, "request failed");
  return reply.status(resolved.status).headers(resolved.headers).send(resolved.body);
}

export { type ErrorBody, errorBody };
