import type { CalibrationReport } from "./calibration-step.js";
import type { AppliedCalibration, ForecastEntry, ForecastLog } from "./forecast-log.js";
import type { PreparedCompletion } from "./plan.js";
import type { CompletionCaller } from "./types.js";

/** The first choice of a reply: its text, whose answer tag is the forecast, and its calibration. */
export interface FirstChoice {
  content: string;
  calibration: CalibrationReport | null | undefined;
}

/** The forecast entry of a charged request, or null when it names no question or asks none. */
export function forecastEntry(
  caller: CompletionCaller,
  prepared: PreparedCompletion,
  first: FirstChoice | undefined,
  chargedNanos: number,
): ForecastEntry | null {
  const { question, forecast } = prepared;
  if (!question || !forecast || first === undefined) return null;
  return {
    organizationId: caller.organizationId,
    questionId: question.id,
    model: prepared.model,
    apiKeyId: caller.apiKey?.id ?? null,
    answerType: forecast.type,
    content: first.content,
    calibration: appliedCalibration(first.calibration),
    question: forecast.question,
    options: forecast.options,
    predictionDate: question.predictionDate,
    requestId: caller.requestId ?? prepared.id,
    costNanos: chargedNanos,
    createdAt: prepared.created,
  };
}

function appliedCalibration(
  report: CalibrationReport | null | undefined,
): AppliedCalibration | null {
  if (!report?.applied || report.id === null || report.raw_answer === null) return null;
  return { id: report.id, rawAnswer: report.raw_answer };
}

/** Records a charged request's forecast, when it names a question and asks for one. */
export async function recordChargedForecast(
  forecasts: ForecastLog | undefined,
  caller: CompletionCaller,
  prepared: PreparedCompletion,
  first: FirstChoice | undefined,
  chargedNanos: number,
): Promise<void> {
  const entry = forecasts && forecastEntry(caller, prepared, first, chargedNanos);
  if (entry) await forecasts.recordCharged(entry);
}
