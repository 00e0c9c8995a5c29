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
