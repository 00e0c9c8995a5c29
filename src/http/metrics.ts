import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Counter, Histogram, type Registry } from "prom-client";
import { EventLoopLag } from "../observability/event-loop-lag.js";

/** Request counts, latency and event-loop lag, recorded into the service's registry. */
export class HttpMetrics {
  readonly requests: Counter<"method" | "route" | "status">;
  readonly latency: Histogram<"method" | "route">;
  private readonly eventLoopLag: EventLoopLag;

  constructor(readonly registry: Registry) {
    this.requests = new Counter({
      name: "sibyl_http_requests_total",
      help: "HTTP requests by route and status",
      labelNames: ["method", "route", "status"] as const,
      registers: [registry],
    });
    this.latency = new Histogram({
      name: "sibyl_http_request_duration_seconds",
      help: "HTTP request latency by route",
      labelNames: ["method", "route"] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    });
    this.eventLoopLag = new EventLoopLag(registry);
  }

  /**
   * Records every response, labelled by the route template (never the raw URL), and samples the
   * event loop while the app is open.
   */
  instrument(app: FastifyInstance): void {
    this.eventLoopLag.start();
    app.addHook("onClose", async () => this.eventLoopLag.stop());
    // Callback style: an async hook would cost every request a promise and a microtask.
    app.addHook("onResponse", (request, reply, done) => {
      this.record(request, reply);
      done();
    });
  }

  /** Counts one response and its latency. */
  record(request: FastifyRequest, reply: FastifyReply): void {
    const method = request.method;
    const route = request.routeOptions.url ?? "unmatched";
    this.requests.inc({ method, route, status: String(reply.statusCode) });
    this.latency.observe({ method, route }, reply.elapsedTime / 1000);
  }
}
