import type { Db } from "../../db/database.js";
import { listPage } from "../../db/list-pages.js";
import { invalidRequest, notFound, ServiceError } from "../../errors.js";
import {
  type CalibrationMap,
  type CalibrationPair,
  fitCalibration,
  MIN_FIT_FORECASTS,
  mapParameters,
} from "../../evaluation/scoring/recalibration.js";
import { type Clock, unixSeconds } from "../../util/clock.js";
import { newId } from "../../util/ids.js";
import {
  type CalibrationList,
  type CalibrationObject,
  mapOf,
  toCalibrationObject,
} from "./calibration-objects.js";
import {
  type CalibrationRow,
  findCalibration,
  insertCalibration,
  latestCalibration,
  listCalibrations,
  resolvedBinaryForecasts,
} from "./calibration-records.js";
import { evaluationForecasts } from "./evaluation-forecasts.js";

/** What a map is fitted on: the model's recorded forecasts, or those of a kept backtest. */
export interface CalibrationRequest {
  model: string;
  /** The id of a backtest summary `sibyl eval run` kept on the server. */
  evaluation?: string | undefined;
}

/** The text of the organization's kept backtest summary with this id, or null. */
export type KeptEvaluation = (organizationId: string, id: string) => Promise<string | null>;

export interface CalibrationListQuery {
  after?: string | undefined;
  limit: number;
  model?: string | undefined;
}

/** Calibration maps of the organization's models, fitted on their resolved forecasts. */
export class Calibrations {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly knownModel: (id: string) => boolean,
    private readonly keptEvaluation: KeptEvaluation,
  ) {}

  /**
   * Fits and stores a map for the model from its resolved binary forecasts: those the
   * organization recorded, or those of the backtest the request names.
   */
  async fit(organizationId: string, request: CalibrationRequest): Promise<CalibrationObject> {
    const { model, evaluation } = request;
    const pairs =
      evaluation === undefined
        ? await this.recordedPairs(organizationId, model)
        : await this.evaluationPairs(organizationId, evaluation, model);
    const fitted = fitCalibration(pairs);
    const row: Omit<CalibrationRow, "seq"> = {
      id: newId("cal_"),
      organization_id: organizationId,
      model,
      method: fitted.map.method,
      parameters: JSON.stringify(mapParameters(fitted.map)),
      n: fitted.n,
      folds: fitted.folds,
      brier_before: fitted.brierBefore,
      brier_after: fitted.brierAfter,
      improved: fitted.improved ? 1 : 0,
      candidates: JSON.stringify(fitted.candidates),
      evaluation_id: evaluation ?? null,
      created_at: unixSeconds(this.clock),
    };
    await insertCalibration(this.db, row);
    return toCalibrationObject({ seq: 0, ...row });
  }

  private async recordedPairs(organizationId: string, model: string): Promise<CalibrationPair[]> {
    this.requireServed(model);
    const pairs = await resolvedBinaryForecasts(this.db, organizationId, model);
    return enoughToFit(
      pairs,
      model,
      `this organization has ${pairs.length}. Resolve more questions (POST /v1/questions/{id}/resolution) and try again.`,
    );
  }

  /** A model outside the run is named before one not served: the run's models are the fix. */
  private async evaluationPairs(
    organizationId: string,
    evaluation: string,
    model: string,
  ): Promise<CalibrationPair[]> {
    const summary = await this.keptEvaluation(organizationId, evaluation);
    if (summary === null) throw notFound("evaluation", evaluation, "evaluation");
    const pairs = evaluationForecasts(summary, evaluation, model);
    this.requireServed(model);
    return enoughToFit(pairs, model, `evaluation '${evaluation}' has ${pairs.length}.`);
  }

  private requireServed(model: string): void {
    if (!this.knownModel(model)) {
      throw invalidRequest(`Model '${model}' is not served here.`, "model_not_found", "model");
    }
  }

  async list(organizationId: string, query: CalibrationListQuery): Promise<CalibrationList> {
    let afterSeq: number | undefined;
    if (query.after !== undefined) {
      const after = await findCalibration(this.db, organizationId, query.after);
      if (!after) throw notFound("calibration", query.after, "after");
      afterSeq = Number(after.seq);
    }
    const rows = await listCalibrations(this.db, {
      organizationId,
      afterSeq,
      limit: query.limit,
      ...(query.model === undefined ? {} : { model: query.model }),
    });
    const data = rows.slice(0, query.limit).map(toCalibrationObject);
    return listPage(data, rows.length > query.limit);
  }

  async retrieve(organizationId: string, id: string): Promise<CalibrationObject> {
    const row = await findCalibration(this.db, organizationId, id);
    if (!row) throw notFound("calibration", id, "calibration_id");
    return toCalibrationObject(row);
  }

  /**
   * The calibration a request names for its model: its id, or `auto` for the model's latest
   * (undefined when it has none). An unknown id is a 404; one fitted for another model a 400.
   */
  async forRequest(
    organizationId: string,
    model: string,
    requested: string,
  ): Promise<{ id: string; map: CalibrationMap; improved: boolean } | undefined> {
    const row =
      requested === "auto"
        ? await latestCalibration(this.db, organizationId, model)
        : await this.named(organizationId, model, requested);
    return row && { id: row.id, map: mapOf(row), improved: Number(row.improved) === 1 };
  }

  private async named(
    organizationId: string,
    model: string,
    requested: string,
  ): Promise<CalibrationRow> {
    const row = await findCalibration(this.db, organizationId, requested);
    if (!row) throw notFound("calibration", requested, "calibration");
    if (row.model !== model) {
      throw invalidRequest(
        `Calibration '${requested}' was fitted for model '${row.model}'; this request uses '${model}'. A map fitted on one model's forecasts says nothing of another's.`,
        "calibration_model_mismatch",
        "calibration",
      );
    }
    return row;
  }
}

function enoughToFit(pairs: CalibrationPair[], model: string, found: string): CalibrationPair[] {
  if (pairs.length < MIN_FIT_FORECASTS) {
    throw new ServiceError(
      "unprocessable",
      `A calibration needs at least ${MIN_FIT_FORECASTS} resolved binary forecasts of '${model}' whose answer was read; ${found}`,
      { code: "too_few_forecasts", param: "model" },
    );
  }
  return pairs;
}
