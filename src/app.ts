import type { IncomingMessage, ServerResponse } from "node:http";
import swagger from "@fastify/swagger";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  LogController,
  type RawServerDefault,
} from "fastify";
import type { LoggerOptions } from "pino";
import { registerBearerAuth } from "./http/auth.js";
import { errorBody, handleError } from "./http/errors.js";
import { registerJsonBodyParser } from "./http/json-body.js";
import { HttpMetrics } from "./http/metrics.js";
import { openApiOptions } from "./http/openapi.js";
import { requestIdOf } from "./http/request-id.js";
import { registerSystemRoutes } from "./http/routes/system.js";
import { v1Routes } from "./http/routes/v1.js";
import { SHARED_SCHEMAS } from "./http/schemas/index.js";
import { createValidatorCompiler } from "./http/validation.js";
import type { Services } from "./services.js";

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface AppOptions {
  logger?: LoggerOptions | boolean;
}

/** JSON bodies other than file uploads stay well below this. */
const JSON_BODY_LIMIT = 16 * 1024 * 1024;

/** Builds the HTTP application around ready services; the caller decides when to listen. */
export async function buildApp(services: Services, options: AppOptions = {}): Promise<App> {
  const app = Fastify({
    logger:
      options.logger === undefined
        ? {
            level: services.config.server.log_level,
            redact: ["req.headers.authorization", 'req.headers["x-api-key"]'],
          }
        : options.logger,
    genReqId: requestIdOf,
    requestIdHeader: false,
    bodyLimit: JSON_BODY_LIMIT,
    return503OnClosing: true,
    // Malformed URLs and the like get the same error shape as everything else.
    frameworkErrors: handleError,
    // One access line per request (below) instead of Fastify's two: half the logging cost.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(createValidatorCompiler(() => app.getSchemas()));
  registerJsonBodyParser(app, JSON_BODY_LIMIT);
  app.decorateRequest("principal", null);
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  app.addHook("onResponse", async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        organization: request.principal?.organizationId,
      },
      "request completed",
    );
  });
  // Closing sweeps idle keep-alive connections once. A response still running then (a streamed
  // file download, a completion) would leave its connection open, and close waiting, until the
  // client or the 72 s keep-alive timeout ends it; sweep again as each such response finishes.
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onResponse", async () => {
    if (closing) app.server.closeIdleConnections();
  });
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .send(
        errorBody(
          `No route for ${request.method} ${request.url.split("?")[0]}.`,
          "invalid_request_error",
          "route_not_found",
        ),
      ),
  );

  const metrics = new HttpMetrics(services.metrics.registry);
  metrics.instrument(app);
  await app.register(swagger, openApiOptions(services.config));
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  registerSystemRoutes(app, metrics, services);
  for (const prefix of ["/v1", "/v1/compat"]) {
    await app.register(
      async (scope) => {
        registerBearerAuth(scope, services.apiKeys);
        await v1Routes(scope as App, services);
      },
      { prefix },
    );
  }
  return app;
}
