import type { HoldKeeper } from "../billing/hold-keeper.js";
import type { Ledger } from "../billing/ledger.js";
import type { Config } from "../config/index.js";
import type { Db } from "../db/database.js";
import type { ProviderRegistry } from "../inference/registry.js";
import type { ModelCatalogue } from "../models/catalogue.js";
import type { ServiceMetrics } from "../observability/metrics.js";
import type { Research } from "../research/research.js";
import type { Clock } from "../util/clock.js";
import type { CalibrationLookup } from "./calibration-step.js";
import type { ForecastLog } from "./forecast-log.js";
import type { QuestionClassifier } from "./forecast-step.js";

export interface PipelineDeps {
  config: Config;
  clock: Clock;
  database: Db;
  catalogue: ModelCatalogue;
  providers: ProviderRegistry;
  ledger: Ledger;
  holds: HoldKeeper;
  classifier: QuestionClassifier;
  research: Research;
  metrics: ServiceMetrics;
  /** Records the forecasts of requests that name a `question_id`. */
  forecasts?: ForecastLog;
  /** Finds the calibration maps requests name in `calibration`. */
  calibrations?: CalibrationLookup;
}
