import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ApiKeys, KeyHolder, KeyRefusal } from "../auth/api-keys.js";
import { ServiceError } from "../errors.js";
import { isPaymentAuthorization } from "../payments/credential.js";
import type { Topups } from "../payments/topups.js";
import { redeemOnRetry } from "./paid-retry.js";

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

/**
 * Bearer authentication for every route of the scope unless its config says `public`. On a server
 * that takes payments, `Authorization: Payment <credential>` with the key in `X-API-Key` refills
 * the key's organization before the request runs (the retry of a 402 by an MPP client).
 */
export function registerBearerAuth(
  app: FastifyInstance,
  keys: ApiKeys,
  topups: Topups | null = null,
): void {
  app.addHook("onRequest", async (request, reply) => {
    if (request.routeOptions.config.public) return;
    const { authorization } = request.headers;
    if (!authorization) {
      throw unauthorized("Missing API key: send 'Authorization: Bearer sk_…'.");
    }
    if (topups && isPaymentAuthorization(authorization)) {
      const apiKey = request.headers["x-api-key"];
      if (typeof apiKey !== "string") {
        throw unauthorized("A Payment credential in Authorization needs the API key in X-API-Key.");
      }
      const check = await keys.check(apiKey.trim());
      if (!("holder" in check)) throw refusal(check.refused);
      request.principal = check.holder;
      const paid = await redeemOnRetry(topups, authorization, check.holder, request, reply);
      return paid ? undefined : reply;
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
export function adminOf(request: FastifyRequest, task = "managing keys"): KeyHolder {
  const holder = principalOf(request);
  if (holder.scope !== "admin") {
    throw new ServiceError(
      "forbidden",
      `This API key has the 'inference' scope; ${task} needs a key with the 'admin' scope.`,
      { code: "insufficient_scope" },
    );
  }
  return holder;
}
