import type { CalibrationMap, CalibrationMethod } from "../../evaluation/scoring/recalibration.js";
import type { CalibrationRow } from "./calibration-records.js";

export interface CalibrationObject {
  id: string;
  object: "calibration";
  model: string;
  method: CalibrationMethod;
  /** logistic: `{a, b}` in logit(p') = a + b·logit(p); isotonic: the points `{x, y}`. */
  parameters: Record<string, number | number[]>;
  n: number;
  folds: number;
  brier_before: number;
  brier_after: number;
  improved: boolean;
  candidates: { method: CalibrationMethod; brier: number }[];
  /** What the map was fitted on: the organization's recorded forecasts or a kept backtest. */
  source: "forecasts" | "evaluation";
  /** The backtest's summary file id when `source` is `evaluation`. */
  evaluation: string | null;
  created_at: number;
}

export interface CalibrationList {
  object: "list";
  data: CalibrationObject[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

export function mapOf(row: CalibrationRow): CalibrationMap {
  const parameters = JSON.parse(row.parameters) as Record<string, number & number[]>;
  return row.method === "logistic"
    ? { method: "logistic", a: Number(parameters.a), b: Number(parameters.b) }
    : { method: "isotonic", x: parameters.x ?? [], y: parameters.y ?? [] };
}

export function toCalibrationObject(row: CalibrationRow): CalibrationObject {
  return {
    id: row.id,
    object: "calibration",
    model: row.model,
    method: row.method as CalibrationMethod,
    parameters: JSON.parse(row.parameters) as Record<string, number | number[]>,
    n: Number(row.n),
    folds: Number(row.folds),
    brier_before: Number(row.brier_before),
    brier_after: Number(row.brier_after),
    improved: Number(row.improved) === 1,
    candidates: JSON.parse(row.candidates) as CalibrationObject["candidates"],
    source: row.evaluation_id === null ? "forecasts" : "evaluation",
    evaluation: row.evaluation_id,
    created_at: Number(row.created_at),
  };
}
