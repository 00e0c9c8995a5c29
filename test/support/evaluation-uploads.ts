import type { TestOrg } from "./server.js";

/** The fields of a summary.json the server checks, plus what `sibyl eval run` adds on upload. */
export function evaluationSummary(reportFiles: Record<string, string | null> = {}) {
  return {
    question_set: { format: "sibyl", name: "weekly questions", questions: 12 },
    run: { models: ["sibyl-baseline"], samples: 1 },
    models: {
      "sibyl-baseline": { n: 10, brier: 0.25, log_score: -Math.LN2, parse_rate: 1 },
    },
    baselines: {},
    report_files: reportFiles,
  };
}

/** A multipart upload with purpose `evaluation`, the purpose field first as the SDK sends it. */
export function evaluationForm(content: string, filename: string): FormData {
  const form = new FormData();
  form.append("purpose", "evaluation");
  form.append("file", new Blob([content]), filename);
  return form;
}

/** Uploads an evaluation file as `org`; fails unless it is stored. */
export async function uploadEvaluationFile(
  baseUrl: string,
  org: Pick<TestOrg, "apiKey">,
  content: string,
  filename: string,
): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/files`, {
    method: "POST",
    headers: { authorization: `Bearer ${org.apiKey}` },
    body: evaluationForm(content, filename),
  });
  if (response.status !== 200) {
    throw new Error(`evaluation upload answered ${response.status}: ${await response.text()}`);
  }
  return ((await response.json()) as { id: string }).id;
}

/**
 * A summary.json with a question table: one resolved binary question per forecast of `model`,
 * each row as `sibyl eval run` writes it (src/evaluation/question-rows.ts).
 */
export function summaryWithForecasts(
  model: string,
  forecasts: { probability: number; outcome: number }[],
) {
  return {
    ...evaluationSummary(),
    run: { models: [model], samples: 1 },
    models: { [model]: { n: forecasts.length, pooled_brier: 0.25, log_score: -Math.LN2 } },
    questions: forecasts.map(({ probability, outcome }, index) => ({
      key: `sibyl|q-${index}|2025-03-02|2025-03-02`,
      id: `q-${index}`,
      source: "sibyl",
      answer_type: "binary",
      question: `Will event ${index} happen?`,
      options: null,
      due_date: "2025-03-01",
      resolution_date: "2025-03-02",
      resolved: true,
      outcome,
      market_value: null,
      forecasts: {
        [model]: {
          forecast: probability,
          score: null,
          imputed: false,
          reasoning: null,
          citations: [],
        },
      },
    })),
  };
}
