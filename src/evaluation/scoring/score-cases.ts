import type { EvalItem, Forecast, Resolution } from "../types.js";
import { bootstrapInterval, mean } from "./bootstrap.js";
import { expectedCalibrationError, type ProbabilityPair } from "./calibration.js";
import {
  binaryLogScore,
  brierScore,
  gaussianLogScore,
  multiclassBrierScore,
  multiclassLogScore,
  normalCrps,
} from "./rules.js";

/** A forecast to score against one resolution; null forecasts are imputed or counted missing. */
export interface ScoredCase {
  item: EvalItem;
  resolution: Resolution;
  forecast: Forecast | null;
}

export interface BinaryMetrics {
  /** Binary forecasts scored (imputed ones included). */
  n: number;
  brier: number | null;
  log_score: number | null;
  brier_ci: [number, number] | null;
  ece: number | null;
  /** Unreadable forecasts scored as 0.5, as ForecastBench does. */
  imputed: number;
}

export interface ChoiceMetrics {
  n: number;
  brier: number | null;
  log_score: number | null;
  brier_ci: [number, number] | null;
  /** Unreadable forecasts scored as uniform. */
  imputed: number;
}

export interface ContinuousMetrics {
  n: number;
  crps: number | null;
  /**
   * Scale-free: each question's CRPS divided by the size of what happened (|outcome|, or 1 for
   * an outcome of 0), so a question about a year and one about a rate weigh alike.
   */
  scaled_crps: number | null;
  log_score: number | null;
  crps_ci: [number, number] | null;
  /** Unreadable forecasts: a normal has no neutral value, so they are not scored. */
  missing: number;
}

/**
 * Binary scores at the top level (`brier` is pooled over every binary case, dataset questions
 * and markets alike); other answer types in their own sections, each with its own n.
 */
export interface Metrics extends BinaryMetrics {
  multiple_choice?: ChoiceMetrics;
  continuous?: ContinuousMetrics;
  by_source: Record<string, { n: number; brier: number | null }>;
}

export interface Scored {
  metrics: Metrics;
  /** Binary Brier score by case, for paired differences. */
  binaryBrier: Map<string, number>;
  pairs: ProbabilityPair[];
}

export const caseKey = (scored: ScoredCase): string =>
  `${scored.item.key}|${scored.resolution.resolutionDate ?? ""}`;

const round = (value: number | null): number | null =>
  value === null ? null : Math.round(value * 1e6) / 1e6;
const roundPair = (pair: [number, number] | null): [number, number] | null =>
  pair === null ? null : [round(pair[0]) ?? 0, round(pair[1]) ?? 0];

export function scoreCases(cases: ScoredCase[]): Scored {
  const tally = new ScoreTally();
  for (const scored of cases) {
    const { outcome } = scored.resolution;
    if (outcome.type === "binary") tally.addBinary(scored, outcome.value);
    else if (outcome.type === "multiple_choice") tally.addChoice(scored, outcome.index);
    else tally.addContinuous(scored, outcome.value);
  }
  return { metrics: tally.metrics(), binaryBrier: tally.binaryBrier, pairs: tally.pairs };
}

/** Every case's scores by answer type; a missing forecast is imputed where the type allows. */
class ScoreTally {
  readonly pairs: ProbabilityPair[] = [];
  readonly binaryBrier = new Map<string, number>();
  private readonly binary = { brier: [] as number[], log: [] as number[], imputed: 0 };
  private readonly choice = { brier: [] as number[], log: [] as number[], imputed: 0, n: 0 };
  private readonly continuous = {
    crps: [] as number[],
    scaled: [] as number[],
    log: [] as number[],
    missing: 0,
    n: 0,
  };
  private readonly bySource = new Map<string, number[]>();

  /** A binary case; no binary forecast counts as 0.5. */
  addBinary(scored: ScoredCase, value: number): void {
    const { forecast } = scored;
    const probability = forecast?.type === "binary" ? forecast.probability : 0.5;
    if (forecast?.type !== "binary") this.binary.imputed += 1;
    const brier = brierScore(probability, value);
    this.binary.brier.push(brier);
    this.binary.log.push(binaryLogScore(probability, value));
    this.pairs.push({ probability, outcome: value });
    this.binaryBrier.set(caseKey(scored), brier);
    const source = this.bySource.get(scored.item.source) ?? [];
    source.push(brier);
    this.bySource.set(scored.item.source, source);
  }

  /** A multiple-choice case; no such forecast counts as every option alike. */
  addChoice(scored: ScoredCase, index: number): void {
    const { forecast } = scored;
    this.choice.n += 1;
    const count = scored.item.options?.length ?? 2;
    const probabilities =
      forecast?.type === "multiple_choice"
        ? forecast.probabilities
        : Array.from({ length: count }, () => 1 / count);
    if (forecast?.type !== "multiple_choice") this.choice.imputed += 1;
    this.choice.brier.push(multiclassBrierScore(probabilities, index));
    this.choice.log.push(multiclassLogScore(probabilities, index));
  }

  /** A continuous case; one without a continuous forecast is counted missing, not scored. */
  addContinuous(scored: ScoredCase, value: number): void {
    const { forecast } = scored;
    this.continuous.n += 1;
    if (forecast?.type !== "continuous") {
      this.continuous.missing += 1;
      return;
    }
    const crps = normalCrps(forecast.mean, forecast.sd, value);
    this.continuous.crps.push(crps);
    this.continuous.scaled.push(crps / (value === 0 ? 1 : Math.abs(value)));
    this.continuous.log.push(gaussianLogScore(forecast.mean, forecast.sd, value));
  }

  metrics(): Metrics {
    const { binary, choice, continuous } = this;
    const metrics: Metrics = {
      n: binary.brier.length,
      brier: round(mean(binary.brier)),
      log_score: round(mean(binary.log)),
      brier_ci: roundPair(bootstrapInterval(binary.brier)),
      ece: round(expectedCalibrationError(this.pairs)),
      imputed: binary.imputed,
      by_source: Object.fromEntries(
        [...this.bySource.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([source, scores]) => [source, { n: scores.length, brier: round(mean(scores)) }]),
      ),
    };
    if (choice.n > 0) {
      metrics.multiple_choice = {
        n: choice.n,
        brier: round(mean(choice.brier)),
        log_score: round(mean(choice.log)),
        brier_ci: roundPair(bootstrapInterval(choice.brier)),
        imputed: choice.imputed,
      };
    }
    if (continuous.n > 0) {
      metrics.continuous = {
        n: continuous.crps.length,
        crps: round(mean(continuous.crps)),
        scaled_crps: round(mean(continuous.scaled)),
        log_score: round(mean(continuous.log)),
        crps_ci: roundPair(bootstrapInterval(continuous.crps)),
        missing: continuous.missing,
      };
    }
    return metrics;
  }
}

/** Mean difference a − b over the cases both scored, with its bootstrap interval. */
export function pairedDifference(a: Map<string, number>, b: Map<string, number>) {
  const differences: number[] = [];
  for (const [key, score] of a) {
    const other = b.get(key);
    if (other !== undefined) differences.push(score - other);
  }
  return {
    n: differences.length,
    brier_difference: round(mean(differences)),
    ci: roundPair(bootstrapInterval(differences)),
  };
}
