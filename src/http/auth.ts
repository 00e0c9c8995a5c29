import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ApiKeys, Principal } from "../auth/api-keys.js";
import { ServiceError } from "../errors.js";

declare module "fastify" {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Routes that do their own authentication (the payment top-up) or none. */
    public?: boolean;
  }
}

const unauthorized = (message: string) =>
  new ServiceError("unauthorized", message, {
    code: "invalid_api_key",
    headers: { "www-authenticate": 'Bearer realm="sibyl"' },
  });

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
    const principal = await keys.authenticate(token);
    if (!principal) throw unauthorized("Invalid or revoked API key.");
    request.principal = principal;
  });
}

/** The authenticated caller; routes behind bearer auth always have one. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized("Missing API key.");
  return request.principal;
}
