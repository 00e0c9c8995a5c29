import { expect } from "vitest";
import { call } from "../../organization/support/api.js";
import type { JsonResponse } from "../../support/http.js";

/** A JSON request with a key: the organization API tests' helper. */
export { call };

export interface ForecastBody {
  id: string;
  object: "forecast";
  question_id: string;
  model: string;
  api_key_id: string | null;
  answer_type: string;
  answer: unknown;
  raw_answer: number | Record<string, number> | null;
  calibration_id: string | null;
  prediction_date: number;
  request_id: string;
  cost_usd: number;
  created_at: number;
  scores: { brier: number | null; log_score: number | null; crps: number | null } | null;
}

export interface QuestionBody {
  id: string;
  object: "question";
  text: string | null;
  answer_type: string;
  options: Record<string, string> | null;
  resolution_date: number | null;
  source: string | null;
  tags: string[];
  status: "open" | "resolved" | "annulled";
  outcome: number | string | null;
  resolved_at: number | null;
  created_at: number;
  forecasts: ForecastBody[];
  forecasts_truncated: boolean;
  resolutions: {
    outcome: number | string | null;
    annulled: boolean;
    resolved_at: number;
    recorded_at: number;
    forced: boolean;
    recorded_by: string;
  }[];
}

/** The path of a question, its id escaped for the URL. */
export const questionPath = (id: string, prefix = "/v1") =>
  `${prefix}/questions/${encodeURIComponent(id)}`;

export async function getQuestion(
  baseUrl: string,
  apiKey: string,
  id: string,
): Promise<QuestionBody> {
  const response = await call(baseUrl, apiKey, "GET", questionPath(id));
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as QuestionBody;
}

export async function ok(response: Promise<JsonResponse>): Promise<JsonResponse> {
  const answered = await response;
  expect(answered.status, JSON.stringify(answered.body)).toBe(200);
  return answered;
}
