import { Counter, Registry } from "prom-client";

/** How one forecast answer was read; logged when it needed a repair or could not be read. */
export interface AnswerEvent {
  model: string;
  answer_type: string;
  outcome: "extracted" | "repaired" | "failed";
  /** Why the reply gave no answer ("no_answer_stated", "nothing_found", …). */
  rule: string;
  /** How the repair was read, when one ran ("structured", "answer_tag", …). */
  repair_rule: string | null;
}

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

  /** Forecast answers by type, outcome and the rule that read them (or found none). */
  readonly answerReadings = new Counter({
    name: "sibyl_forecast_answer_readings_total",
    help: "Forecast answers by answer type, outcome (extracted, repaired, failed) and the rule that read the answer or found none",
    labelNames: ["answer_type", "outcome", "rule"] as const,
    registers: [this.registry],
  });

  private readonly unreadListeners: ((event: AnswerEvent) => void)[] = [];

  /** Calls `listener` for every answer that needed a repair or could not be read. */
  onUnreadAnswer(listener: (event: AnswerEvent) => void): void {
    this.unreadListeners.push(listener);
  }

  /** Counts an answer reading, and tells the listeners when it was not read directly. */
  recordAnswer(event: AnswerEvent): void {
    this.answers.inc({ answer_type: event.answer_type, outcome: event.outcome });
    this.answerReadings.inc({
      answer_type: event.answer_type,
      outcome: event.outcome,
      rule: event.rule,
    });
    if (event.outcome === "extracted") return;
    for (const listener of this.unreadListeners) listener(event);
  }

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
