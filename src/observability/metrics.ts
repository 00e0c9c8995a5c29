import { Counter, Registry } from "prom-client";

/** The Prometheus registry of one service instance, shared by HTTP and the pipelines. */
export class ServiceMetrics {
  readonly registry = new Registry();

  /** Forecast answers by type and outcome: extracted, repaired or failed. */
  readonly answers = new Counter({
    name: "sibyl_forecast_answers_total",
    help: "Structured forecast answers by answer type and outcome (extracted, repaired, failed)",
    labelNames: ["answer_type", "outcome"] as const,
    registers: [this.registry],
  });
}
