import { Type } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Services } from "../../services.js";
import type { App } from "../app-instance.js";
import { bearerToken } from "../auth.js";
import {
  BUILT_DASHBOARD_DIR,
  type DashboardAsset,
  type DashboardBundle,
  loadDashboard,
} from "../dashboard-assets.js";
import { errorBody } from "../errors.js";

/**
 * Nothing inline and nothing from elsewhere. Style attributes need no exception: React and
 * recharts set styles through the CSSOM (`element.style`), which CSP does not govern; the
 * browser test checks that the pages, charts included, raise no violation under this policy.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS = {
  "content-security-policy": DASHBOARD_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

/** Asset names carry a hash of their content, so a name never changes meaning. */
const IMMUTABLE = "public, max-age=31536000, immutable";

const SignInBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export interface DashboardOptions {
  /** A dashboard build (`vite build` output); default the one `npm run build` makes. */
  dir?: string;
}

/** The browser dashboard at `/dashboard` and its sign-in link exchange; none of it is in the API description. */
export function registerDashboardRoutes(
  app: App,
  services: Services,
  options: DashboardOptions = {},
): void {
  const bundle = loadDashboard(options.dir ?? BUILT_DASHBOARD_DIR);
  const serve = (request: FastifyRequest<{ Params: { "*"?: string } }>, reply: FastifyReply) =>
    serveDashboard(bundle, request.params["*"] ?? "", request, reply);
  app.get("/dashboard", { schema: { hide: true } }, serve);
  app.get("/dashboard/*", { schema: { hide: true } }, serve);

  app.post(
    "/v1/dashboard/sign-in",
    { schema: { hide: true, body: SignInBody } },
    async (request, reply) => {
      const signedIn = await services.signInLinks.exchange(request.body.token);
      return reply.header("cache-control", "no-store").send(signedIn);
    },
  );

  app.post("/v1/dashboard/sign-out", { schema: { hide: true } }, async (request, reply) => {
    const presented = bearerToken(request);
    const signedOut =
      presented === null ? { revoked: false } : await services.signInLinks.signOut(presented);
    return reply.header("cache-control", "no-store").send(signedOut);
  });
}

function serveDashboard(
  bundle: DashboardBundle | null,
  subpath: string,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  reply.headers(SECURITY_HEADERS);
  if (!bundle) {
    return reply
      .status(503)
      .send(
        errorBody(
          "The dashboard is not built: run `npm run build` (or `npm install`), then restart the server.",
          "api_error",
          "dashboard_not_built",
        ),
      );
  }
  const asset = bundle.assets.get(subpath);
  if (asset) return sendAsset(asset, IMMUTABLE, request, reply);
  // A missing asset is a 404, not the page: a stale page asking for an old script must not get HTML.
  if (subpath.startsWith("assets/")) {
    return reply
      .status(404)
      .send(
        errorBody(`No dashboard asset ${subpath}.`, "invalid_request_error", "route_not_found"),
      );
  }
  // Every other path is one of the page's own routes, which the page resolves itself.
  return sendAsset(bundle.index, "no-cache", request, reply);
}

function sendAsset(
  asset: DashboardAsset,
  cacheControl: string,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  reply.header("cache-control", cacheControl).header("etag", asset.etag);
  if (matches(request.headers["if-none-match"], asset.etag)) return reply.status(304).send();
  return reply.type(asset.contentType).send(asset.body);
}

/** Whether an `If-None-Match` header names the ETag (a list, weak forms, or `*`). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === etag || tag === "*");
}
