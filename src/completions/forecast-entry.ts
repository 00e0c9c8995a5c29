import type { ForecastEntry, ForecastLog } from "./forecast-log.js";
import type { PreparedCompletion } from "./plan.js";
import type { CompletionCaller } from "./types.js";

/** The forecast entry of a charged request, or null when it names no question or asks none. */
export function forecastEntry(
  caller: CompletionCaller,
  prepared: PreparedCompletion,
  content: string | undefined,
  chargedNanos: number,
): ForecastEntry | null {
  const { question, forecast } = prepared;
  if (!question || !forecast || content === undefined) return null;
  return {
    organizationId: caller.organizationId,
    questionId: question.id,
    model: prepared.model,
    apiKeyId: caller.apiKey?.id ?? null,
    answerType: forecast.type,
    content,
    question: forecast.question,
    options: forecast.options,
    predictionDate: question.predictionDate,
    requestId: caller.requestId ?? prepared.id,
    costNanos: chargedNanos,
    createdAt: prepared.created,
  };
}

/** Records a charged request's forecast, when it names a question and asks for one. */
export async function recordChargedForecast(
  forecasts: ForecastLog | undefined,
  caller: CompletionCaller,
  prepared: PreparedCompletion,
  content: string | undefined,
  chargedNanos: number,
): Promise<void> {
  const entry = forecasts && forecastEntry(caller, prepared, content, chargedNanos);
  if (entry) await forecasts.recordCharged(entry);
}
