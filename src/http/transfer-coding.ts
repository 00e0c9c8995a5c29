import type { FastifyRequest } from "fastify";
import { invalidRequest, type ServiceError } from "../errors.js";

/**
 * Refuses a body sent with a transfer coding other than chunked (`gzip, chunked`, say). Node's
 * parser only undoes the chunked framing, so a route would read still-coded bytes as the body.
 * RFC 9112 §6.1 suggests a 501; a 400 keeps 5xx for Sibyl's own faults.
 */
export function unknownTransferCoding(request: FastifyRequest): ServiceError | null {
  const header = request.headers["transfer-encoding"];
  if (header === undefined) return null;
  const codings = header.split(",").map((coding) => coding.trim().toLowerCase());
  if (codings.every((coding) => coding === "chunked")) return null;
  return invalidRequest(
    "Transfer-Encoding may only be 'chunked': send the body chunked or with a Content-Length, uncompressed.",
    "unsupported_transfer_encoding",
  );
}
