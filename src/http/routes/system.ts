import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { DATABASE_RETRY_AFTER_SECONDS } from "../../cluster/database-outage.js";
import type { Services } from "../../services.js";
import { errorBody } from "../errors.js";
import type { HttpMetrics } from "../metrics.js";

/** Unauthenticated operational endpoints, kept out of the API description. */
export function registerSystemRoutes(
  app: FastifyInstance,
  metrics: HttpMetrics,
  services: Services,
): void {
  app.get("/healthz", { schema: { hide: true } }, async (request, reply) => {
    try {
      await services.database.db.rows(sql`select 1`);
      return { status: "ok" };
    } catch (error) {
      request.log.error({ err: error }, "database unreachable");
      // Like every 503 of a database outage, it says when to look again.
      return reply
        .status(503)
        .header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS))
        .send(errorBody("Database unreachable.", "api_error", "database_unavailable"));
    }
  });
  app.get("/metrics", { schema: { hide: true } }, async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
