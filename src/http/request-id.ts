import type { IncomingMessage } from "node:http";
import { newId } from "../util/ids.js";

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's `x-request-id` when it is sane, so logs line up across services. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers["x-request-id"];
  if (typeof given === "string" && ACCEPTABLE.test(given)) return given;
  return newId("req_", 20);
}
