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

  /** Research searches by source and outcome: ok, cached, failed or timeout. */
  readonly researchSearches = new Counter({
    name: "sibyl_research_searches_total",
    help: "Research searches by source and outcome (ok, cached, failed, timeout)",
    labelNames: ["source", "outcome"] as const,
    registers: [this.registry],
  });

  /** Research results the leak guard kept from the model, by source and reason. */
  readonly researchDropped = new Counter({
    name: "sibyl_research_results_dropped_total",
    help: "Research results dropped by the as-of leak guard, by source and reason",
    labelNames: ["source", "reason"] as const,
    registers: [this.registry],
  });
}
