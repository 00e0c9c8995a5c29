import {
  type Serializer,
  type SerializerFactory,
  SerializerSelector,
} from "@fastify/fast-json-stringify-compiler";
import swagger from "@fastify/swagger";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyRequest, LogController } from "fastify";
import type { DestinationStream, LoggerOptions } from "pino";
import { asDatabaseOutage } from "./cluster/database-outage.js";
import type { App } from "./http/app-instance.js";
import { registerBearerAuth } from "./http/auth.js";
import { cutStalledBodies, wasCutForStall } from "./http/body-stall.js";
import { answerClientError } from "./http/client-errors.js";
import { CLIENT_CLOSED_STATUS, clientLeftMidBody, endClientGone } from "./http/client-gone.js";
import { capConnectionsPerAddress } from "./http/connection-cap.js";
import { errorBody, handleError } from "./http/errors.js";
import { limitFailedAuthentications } from "./http/failure-budget.js";
import { registerJsonBodyParser } from "./http/json-body.js";
import { standardOutputLog } from "./http/log-stream.js";
import { HttpMetrics } from "./http/metrics.js";
import { openApiOptions } from "./http/openapi.js";
import { registerRequestHooks, writeAccessLine } from "./http/request-hooks.js";
import { requestIdOf } from "./http/request-id.js";
import { routeHints } from "./http/route-hints.js";
import { type DashboardOptions, registerDashboardRoutes } from "./http/routes/dashboard.js";
import { ORGANIZATION_SCHEMAS } from "./http/routes/organization-schemas.js";
import { RESPONSE_SCHEMAS } from "./http/routes/responses.js";
import { registerRootRoute } from "./http/routes/root.js";
import { registerSystemRoutes } from "./http/routes/system.js";
import { FORESIGHT_PREFIXES, v1Routes } from "./http/routes/v1.js";
import { CALIBRATION_SCHEMAS } from "./http/schemas/calibrations.js";
import { SHARED_SCHEMAS } from "./http/schemas/index.js";
import { QUESTION_SCHEMAS } from "./http/schemas/questions.js";
import { offerTopup } from "./http/topup-hint.js";
import { createRouteValidators } from "./http/validation.js";
import type { Services } from "./services.js";

export type { App } from "./http/app-instance.js";

export interface AppOptions {
  logger?: (LoggerOptions & { stream?: DestinationStream }) | boolean;
  /** Longest a client may take to send a whole request, headers and body. */
  requestTimeoutMs?: number;
  /** How long a request body may bring no byte before it is cut (default: the configuration's). */
  bodyStallMs?: number;
  /** Where the dashboard's build is read from. */
  dashboard?: DashboardOptions;
  /**
   * Compile every route's request validator once the routes are ready, as a server about to
   * listen does; otherwise each compiles on its route's first request (see RouteValidators).
   */
  compileValidatorsWhenReady?: boolean;
}

/** JSON bodies other than file uploads stay well below this. */
const JSON_BODY_LIMIT = 16 * 1024 * 1024;

/** Time enough to upload a 200 MB file at about 350 KB/s; a stalled client is cut off after it. */
const REQUEST_TIMEOUT_MS = 10 * 60 * 1000;

const HEADERS_TIMEOUT_MS = 60_000;

/** Node's default interval for checking request timeouts, which also bounds how late one fires. */
const TIMEOUT_CHECK_MS = 30_000;

/**
 * Response serializers are compiled on a route's first response, not at start: compiling every
 * route under each of its prefixes held ~35 MB in every process, most of it for routes that
 * process never answers.
 */
const compileSerializersOnFirstUse: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: Serializer | undefined;
    return (document) => {
      serialize ??= compile(route);
      return serialize(document);
    };
  };
};

/** Fastify with the server's timeouts, logging, error shapes and lazily compiled serializers. */
function createFastify(services: Services, options: AppOptions): App {
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const app = Fastify({
    logger:
      options.logger === undefined
        ? {
            level: services.config.server.log_level,
            redact: ["req.headers.authorization", 'req.headers["x-api-key"]'],
            stream: standardOutputLog(),
          }
        : options.logger,
    genReqId: requestIdOf,
    schemaController: { compilersFactory: { buildSerializer: compileSerializersOnFirstUse } },
    requestIdHeader: false,
    bodyLimit: JSON_BODY_LIMIT,
    requestTimeout,
    http: {
      // Node's default, shortened with the request timeout: when it is the longer of the two,
      // Node never enforces the request timeout on a body.
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, Math.ceil(requestTimeout / 4)),
    },
    // Fastify's own 503 while closing has its own body; the hook below answers instead.
    return503OnClosing: false,
    // Malformed URLs and HTTP get the same error shape as everything else.
    frameworkErrors: handleError,
    clientErrorHandler: answerClientError,
    // One access line per request (below) instead of Fastify's two: half the logging cost.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<TypeBoxTypeProvider>();
  // A client may half-close its connection once the request is sent and still expect the answer
  // (RFC 9112 §9.6). By default Node ends the connection then, losing any answer not yet written
  // (one that awaits the database, say); with this undocumented switch it closes the connection
  // after the answer. Completions still stop at a half-close (`clientGone`, http/sse.ts).
  Object.assign(app.server, { httpAllowHalfOpen: true });
  return app;
}

/** Bodies parsed and validated, and what guards the server from slow or guessing clients. */
function registerRequestHandling(app: App, services: Services, options: AppOptions): void {
  const validators = createRouteValidators(() => app.getSchemas());
  app.setValidatorCompiler(validators.compiler);
  if (options.compileValidatorsWhenReady) app.addHook("onReady", validators.compileAll);
  registerJsonBodyParser(app, JSON_BODY_LIMIT);
  app.decorateRequest("principal", null);
  registerRequestHooks(app);
  cutStalledBodies(app, options.bodyStallMs ?? services.config.server.body_stall_seconds * 1000);
  capConnectionsPerAddress(app.server, services.config.server.max_connections_per_address);
  limitFailedAuthentications(
    app,
    services.config.limits.failed_authentications_per_minute,
    services.clock,
  );
}

/**
 * Errors in the common shape, a 402 with a top-up offer where payments are configured, and a
 * client that left mid-body logged as such; a 404 names the routes near the one asked for.
 */
function registerErrorHandling(app: App, services: Services, metrics: HttpMetrics): void {
  // Before any route, so every one is known to the 404's hint.
  const routeNotFound = routeHints(app);
  const { topups } = services;
  const explain = async (error: Error, request: FastifyRequest): Promise<Error> => {
    const explained = asDatabaseOutage(error);
    // Challenges that could not be remembered are not offered: the 402 stays as it was.
    return topups ? offerTopup(explained, request, topups).catch(() => explained) : explained;
  };
  app.setErrorHandler((error: Error, request, reply) => {
    if (clientLeftMidBody(request)) {
      // A body cut here for stalling was answered with a 408 (body-stall.ts).
      const status = wasCutForStall(request.raw.socket) ? 408 : CLIENT_CLOSED_STATUS;
      endClientGone(request, reply, status, [
        writeAccessLine,
        (...args) => metrics.record(...args),
      ]);
      return;
    }
    return explain(error, request).then((explained) => handleError(explained, request, reply));
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .send(
        errorBody(
          routeNotFound(request.method, request.url.split("?")[0] as string),
          "invalid_request_error",
          "route_not_found",
        ),
      ),
  );
}

/** The shared schemas, then every route: system, root, dashboard and the API under each prefix. */
async function registerRoutes(
  app: App,
  services: Services,
  options: AppOptions,
  metrics: HttpMetrics,
): Promise<void> {
  await app.register(swagger, openApiOptions(services.config));
  for (const schema of [
    ...SHARED_SCHEMAS,
    ...RESPONSE_SCHEMAS,
    ...ORGANIZATION_SCHEMAS,
    ...QUESTION_SCHEMAS,
    ...CALIBRATION_SCHEMAS,
  ]) {
    app.addSchema(schema);
  }
  registerSystemRoutes(app, metrics, services);
  registerRootRoute(app, services);
  registerDashboardRoutes(app, services, options.dashboard);
  for (const prefix of ["/v1", "/v1/compat", ...FORESIGHT_PREFIXES]) {
    await app.register(
      async (scope) => {
        registerBearerAuth(scope, services.apiKeys, services.topups);
        await v1Routes(scope as App, services);
      },
      { prefix },
    );
  }
}

/** Builds the HTTP application around ready services; the caller decides when to listen. */
export async function buildApp(services: Services, options: AppOptions = {}): Promise<App> {
  const app = createFastify(services, options);
  const metrics = new HttpMetrics(services.metrics.registry);
  registerErrorHandling(app, services, metrics);
  registerRequestHandling(app, services, options);
  metrics.instrument(app);
  // One line per answer that needed a repair or could not be read, by model, type and rule.
  services.metrics.onUnreadAnswer((event) => {
    app.log.warn({ forecast_answer: event }, `forecast answer ${event.outcome}`);
  });
  await registerRoutes(app, services, options, metrics);
  return app;
}
