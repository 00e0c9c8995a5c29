import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ApiKeys, KeyHolder, KeyRefusal } from "../auth/api-keys.js";
import { ServiceError } from "../errors.js";

declare module "fastify" {
  interface FastifyRequest {
    principal: KeyHolder | null;
  }
  interface FastifyContextConfig {
    /** Routes that do their own authentication (the payment top-up) or none. */
    public?: boolean;
  }
}

const unauthorized = (message: string, code = "invalid_api_key") =>
  new ServiceError("unauthorized", message, {
    code,
    headers: { "www-authenticate": 'Bearer realm="sibyl"' },
  });

function refusal(refused: KeyRefusal): ServiceError {
  if (refused === "expired") {
    return unauthorized(
      "This API key has expired: ask an admin of the organization for a new key.",
      "api_key_expired",
    );
  }
  return unauthorized("Invalid or revoked API key.");
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** Bearer authentication for every route of the scope unless its config says `public`. */
export function registerBearerAuth(app: FastifyInstance, keys: ApiKeys): void {
  app.addHook("onRequest", async (request) => {
    if (request.routeOptions.config.public) return;
    if (!request.headers.authorization) {
      throw unauthorized("Missing API key: send 'Authorization: Bearer sk_…'.");
    }
    const token = bearerToken(request);
    if (!token) throw unauthorized("Malformed Authorization header: expected 'Bearer sk_…'.");
    const check = await keys.check(token);
    if (!("holder" in check)) throw refusal(check.refused);
    request.principal = check.holder;
  });
}

/** The authenticated caller; routes behind bearer auth always have one. */
export function principalOf(request: FastifyRequest): KeyHolder {
  if (!request.principal) throw unauthorized("Missing API key.");
  return request.principal;
}

/** The key a completion is made with, as the completion pipeline takes it. */
export function callerKey(holder: KeyHolder): { id: string; spendLimited: boolean } {
  return { id: holder.keyId, spendLimited: holder.spendLimited };
}

/** The caller, who must hold an `admin` key: 403 for an `inference` key. */
export function adminOf(request: FastifyRequest): KeyHolder {
  const holder = principalOf(request);
  if (holder.scope !== "admin") {
    throw new ServiceError(
      "forbidden",
      "This API key has the 'inference' scope; managing keys needs a key with the 'admin' scope.",
      { code: "insufficient_scope" },
    );
  }
  return holder;
}
