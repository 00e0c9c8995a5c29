import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Services } from "../../services.js";

/**
 * `GET /`: a browser goes to the dashboard; any other client learns where things are. The
 * redirect is relative so it stays right behind a proxy that mounts Sibyl under a path.
 */
export function registerRootRoute(app: FastifyInstance, services: Services): void {
  // Paths under the public URL's own path, which a proxy may add in front of Sibyl's.
  const base = new URL(services.config.server.public_url).pathname.replace(/\/+$/, "");
  const index = {
    object: "sibyl.index",
    message:
      "Sibyl: an OpenAI-compatible forecasting API. Sign in to the dashboard with `sibyl dashboard link --org ORG_ID`.",
    dashboard: `${base}/dashboard/`,
    openapi: `${base}/openapi.json`,
    models: `${base}/v1/models`,
  };
  app.get("/", { schema: { hide: true } }, async (request, reply) => {
    // The router reads the asterisk-form target (`GET * HTTP/1.1`) as "/": it names no resource.
    if (!request.raw.url?.startsWith("/")) return reply.callNotFound();
    reply.header("vary", "accept");
    if (wantsHtml(request)) return reply.redirect("dashboard/", 302);
    return index;
  });
}

/** Whether the Accept header lists text/html (or application/xhtml+xml) with a weight above 0. */
function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (typeof accept !== "string") return false;
  return accept.split(",").some((entry) => {
    const [type, ...parameters] = entry.split(";").map((part) => part.trim().toLowerCase());
    if (type !== "text/html" && type !== "application/xhtml+xml") return false;
    const weight = parameters.find((parameter) => parameter.startsWith("q="));
    return weight === undefined || Number(weight.slice(2)) > 0;
  });
}
