import type { Readable } from "node:stream";
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { invalidRequest, ServiceError } from "../errors.js";

/*
 * Files with purpose `evaluation`: what `sibyl eval run` keeps on the server so the dashboard can
 * list backtests. A summary (`.json`) is read and checked here, because the dashboard shows its
 * scores; a report (`.html`) and a calibration plot (`.svg`) are kept as they are and only ever
 * served as downloads (the dashboard shows the plot as an image, which runs no script).
 */

export const MAX_EVALUATION_BYTES = 20 * 1024 * 1024;
/** A summary is parsed in one go on the event loop: this keeps that well under 50 ms. */
export const MAX_SUMMARY_BYTES = 4 * 1024 * 1024;

export type EvaluationFileKind = "summary" | "report" | "plot";

const KIND_BY_EXTENSION: Record<string, EvaluationFileKind> = {
  ".json": "summary",
  ".html": "report",
  ".svg": "plot",
};

const Score = Type.Union([Type.Number(), Type.Null()]);

/** What the dashboard reads of a summary.json; everything else in it is kept as it is. */
const UploadedSummarySchema = Type.Object({
  question_set: Type.Object({ name: Type.String(), questions: Type.Integer({ minimum: 0 }) }),
  run: Type.Object({ models: Type.Array(Type.String()) }),
  models: Type.Record(
    Type.String(),
    Type.Object({
      n: Type.Integer({ minimum: 0 }),
      // `pooled_brier` since the figures of ForecastBench came beside it; older summaries: `brier`.
      pooled_brier: Type.Optional(Score),
      brier: Type.Optional(Score),
      log_score: Score,
      parse_rate: Type.Optional(Score),
    }),
  ),
  report_files: Type.Optional(
    Type.Object({
      report_html: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      calibration_svg: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    }),
  ),
});

type UploadedSummary = Static<typeof UploadedSummarySchema>;

/** Which evaluation file an upload is, by the extension of its name. */
export function evaluationFileKind(filename: string): EvaluationFileKind {
  const kind = evaluationKindOf(filename);
  if (!kind) {
    throw invalidRequest(
      `An 'evaluation' file must be a backtest summary (.json), report (.html) or calibration plot (.svg); got '${filename}'.`,
      "invalid_file_format",
      "file",
    );
  }
  return kind;
}

/** Whether a stored evaluation file is a backtest summary: uploads are checked by extension. */
export const isEvaluationSummary = (file: { purpose: string; filename: string }): boolean =>
  file.purpose === "evaluation" && evaluationKindOf(file.filename) === "summary";

function evaluationKindOf(filename: string): EvaluationFileKind | undefined {
  const dot = filename.lastIndexOf(".");
  return dot < 0 ? undefined : KIND_BY_EXTENSION[filename.slice(dot).toLowerCase()];
}

export function checkEvaluationSize(kind: EvaluationFileKind, bytes: number): void {
  const limit = kind === "summary" ? MAX_SUMMARY_BYTES : MAX_EVALUATION_BYTES;
  if (bytes > limit) {
    throw new ServiceError(
      "too_large",
      `An evaluation ${kind} may be at most ${limit} bytes; this one has ${bytes}.`,
      { code: "file_too_large", param: "file" },
    );
  }
}

/**
 * Checks an uploaded summary: the fields the dashboard shows, and that the report files it names
 * are evaluation files of the same organization (`isOwnEvaluationFile`).
 */
export async function checkEvaluationSummary(
  body: Readable,
  isOwnEvaluationFile: (id: string) => Promise<boolean>,
): Promise<void> {
  const summary = parseSummary(await streamText(body));
  for (const id of Object.values(summary.report_files ?? {})) {
    if (id !== null && id !== undefined && !(await isOwnEvaluationFile(id))) {
      throw invalidRequest(
        `report_files names '${id}', which is not an 'evaluation' file of this organization.`,
        "invalid_report_file",
        "file",
      );
    }
  }
}

function parseSummary(content: string): UploadedSummary {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    throw invalidSummary("it is not valid JSON");
  }
  if (!Value.Check(UploadedSummarySchema, parsed)) {
    const first = Value.Errors(UploadedSummarySchema, parsed).First();
    throw invalidSummary(`${first?.path || "the document"} ${first?.message ?? "is malformed"}`);
  }
  for (const [model, scores] of Object.entries(parsed.models)) {
    if (scores.pooled_brier === undefined && scores.brier === undefined) {
      throw invalidSummary(`/models/${model} has no pooled_brier`);
    }
  }
  return parsed;
}

const invalidSummary = (reason: string) =>
  invalidRequest(
    `An 'evaluation' .json file must be the summary.json of a backtest (sibyl eval run), but ${reason}.`,
    "invalid_evaluation_summary",
    "file",
  );

export async function streamText(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
