import type { FastifyInstance } from "fastify";
import { Counter, Histogram, Registry } from "prom-client";

/** Prometheus metrics of one app instance (a registry per app keeps tests independent). */
export class HttpMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: "sibyl_http_requests_total",
    help: "HTTP requests by route and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: "sibyl_http_request_duration_seconds",
    help: "HTTP request latency by route",
    labelNames: ["method", "route"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });

  /** Records every response, labelled by the route template (never the raw URL). */
  instrument(app: FastifyInstance): void {
    app.addHook("onResponse", async (request, reply) => {
      const route = request.routeOptions.url ?? "unmatched";
      const labels = { method: request.method, route };
      this.requests.inc({ ...labels, status: String(reply.statusCode) });
      this.latency.observe(labels, reply.elapsedTime / 1000);
    });
  }
}
