import path from "node:path";
import type { Config } from "../config/index.js";
import { BacktestError } from "../evaluation/errors.js";
import {
  isLeaderboard,
  LEADERBOARDS,
  type ReferenceOptions,
} from "../evaluation/forecastbench/reference-models.js";
import { runBacktest } from "../evaluation/run/backtest.js";
import { MAX_SAMPLES } from "../evaluation/run/batch-lines.js";
import { reportAgain } from "../evaluation/run/report.js";
import type { Summary } from "../evaluation/summary.js";
import { AGGREGATES, type Aggregate } from "../evaluation/types.js";
import { type CliIo, type CliValues, UsageError } from "./command.js";

const DEFAULT_ORGANIZATION = "Sibyl";

/** `sibyl eval run …` and `sibyl eval report …`. */
export async function evalCommand(
  args: string[],
  values: CliValues,
  config: Config,
  io: CliIo,
): Promise<number> {
  const [action] = args;
  try {
    if (action === "run") return await run(values, config, io);
    if (action === "report") return report(await reportOf(values), io);
  } catch (error) {
    if (!(error instanceof BacktestError)) throw error;
    io.stderr(`sibyl: ${error.message}`);
    return 1;
  }
  throw new UsageError(
    `unknown command "${["eval", ...args].join(" ")}": use eval run or eval report`,
  );
}

async function run(values: CliValues, config: Config, io: CliIo): Promise<number> {
  const questions = required(values.questions, "--questions");
  const models = values.model ?? [];
  if (models.length === 0) throw new UsageError("eval run needs at least one --model");
  const apiKey = values["api-key"] ?? io.env.SIBYL_API_KEY;
  if (!apiKey) {
    throw new UsageError("eval run needs an API key: --api-key KEY or the SIBYL_API_KEY variable");
  }
  const outDir = values.out ?? `sibyl-eval-${path.parse(questions).name}`;
  const { summary, evaluationFileId } = await runBacktest({
    questionsFile: questions,
    resolutionsFile: values.resolutions ?? null,
    models: [...new Set(models)],
    baseUrl: values["base-url"] ?? config.server.public_url,
    apiKey,
    research: values.research ?? false,
    samples: integer(values.samples, "--samples", 1, MAX_SAMPLES) ?? 1,
    aggregate: aggregateOf(values.aggregate),
    limit: integer(values.limit, "--limit", 1, Number.MAX_SAFE_INTEGER),
    seed: integer(values.seed, "--seed", 0, 2 ** 32 - 1) ?? 0,
    calibrate: values.calibrate === true,
    reference: referenceOf(values),
    outDir,
    pollMs: seconds(values["poll-interval"]) ?? 2000,
    organization: values.organization ?? DEFAULT_ORGANIZATION,
    knowledgeCutoffs: cutoffsOf(values["knowledge-cutoff"] ?? []),
    upload: values["no-upload"] !== true,
    progress: {
      tty: process.stderr.isTTY === true,
      write: (text) => process.stderr.write(text),
      line: (text) => io.stderr(text),
    },
    log: (line) => io.stderr(line),
  });
  return report(summary, io, { outDir, evaluationFileId });
}

async function reportOf(values: CliValues): Promise<Summary> {
  return reportAgain({
    outDir: required(values.out, "--out"),
    resolutionsFile: values.resolutions ?? null,
    aggregate: aggregateOf(values.aggregate),
    organization: values.organization ?? DEFAULT_ORGANIZATION,
    reference: referenceOf(values),
    calibrate: values.calibrate === true,
  });
}

/** `--reference DIR [--reference-models FILE] [--leaderboard tournament|baseline]`. */
function referenceOf(values: CliValues): ReferenceOptions | null {
  const leaderboard = values.leaderboard ?? "tournament";
  if (!isLeaderboard(leaderboard)) {
    throw new UsageError(`--leaderboard must be one of ${LEADERBOARDS.join(", ")}`);
  }
  if (values.reference === undefined) {
    if (values["reference-models"] !== undefined || values.leaderboard !== undefined) {
      throw new UsageError("--reference-models and --leaderboard need --reference DIR");
    }
    return null;
  }
  return {
    dir: values.reference,
    modelsFile: values["reference-models"] ?? null,
    leaderboard,
  };
}

/** Where a run's outputs went: its folder, and the summary's file on the server if uploaded. */
interface RunOutputs {
  outDir: string;
  evaluationFileId: string | null;
}

/**
 * One JSON line on stdout: per model ForecastBench's figures beside the pooled ones and both
 * parse rates. A failed leak check or requests refused for credits exit with 1.
 */
function report(summary: Summary, io: CliIo, outputs?: RunOutputs): number {
  for (const warning of summary.warnings) io.stderr(`eval: warning: ${warning}`);
  io.stdout(
    JSON.stringify({
      ...(outputs === undefined
        ? {}
        : { out: path.resolve(outputs.outDir), evaluation_file_id: outputs.evaluationFileId }),
      leak_check_ok: summary.leak_check.ok,
      models: Object.fromEntries(
        Object.entries(summary.models).map(([model, scores]) => [
          model,
          {
            pooled_brier: scores.pooled_brier,
            log_score: scores.log_score,
            n_binary: scores.n,
            ...(scores.multiple_choice ? { n_multiple_choice: scores.multiple_choice.n } : {}),
            ...(scores.continuous ? { n_continuous: scores.continuous.n } : {}),
            raw_parse_rate: scores.raw_parse_rate,
            parse_rate: scores.parse_rate,
            re_asked: scores.re_asked,
            ...(scores.forecastbench
              ? {
                  forecastbench: {
                    dataset: scores.forecastbench.dataset,
                    market: scores.forecastbench.market,
                    overall: scores.forecastbench.overall,
                    difficulty_adjusted: scores.forecastbench.difficulty_adjusted,
                    imputed_pct: scores.forecastbench.imputation.overall_pct,
                    over_imputation_cutoff: scores.forecastbench.imputation.over_cutoff,
                  },
                }
              : {}),
          },
        ]),
      ),
      baselines: Object.fromEntries(
        Object.entries(summary.baselines).map(([name, scores]) => [
          name,
          {
            pooled_brier: scores.pooled_brier,
            n_binary: scores.n,
            ...(scores.forecastbench ? { forecastbench: scores.forecastbench } : {}),
          },
        ]),
      ),
      imputation_rule: summary.imputation_rule,
    }),
  );
  const refused = Object.values(summary.models).some(
    (scores) => scores.requests.refused_for_credits > 0,
  );
  return summary.leak_check.ok && !refused ? 0 : 1;
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === "") throw new UsageError(`${flag} is required`);
  return value;
}

function integer(text: string | undefined, flag: string, min: number, max: number): number | null {
  if (text === undefined) return null;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got "${text}"`);
  }
  return value;
}

function seconds(text: string | undefined): number | null {
  if (text === undefined) return null;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || value > 3600) {
    throw new UsageError(`--poll-interval must be seconds from 0 to 3600, got "${text}"`);
  }
  return value * 1000;
}

function aggregateOf(text: string | undefined): Aggregate {
  if (text === undefined) return "median";
  const found = AGGREGATES.find((aggregate) => aggregate === text);
  if (!found) throw new UsageError(`--aggregate must be one of ${AGGREGATES.join(", ")}`);
  return found;
}

function cutoffsOf(entries: string[]): Map<string, string> {
  const cutoffs = new Map<string, string>();
  for (const entry of entries) {
    const at = entry.lastIndexOf("=");
    const date = entry.slice(at + 1);
    if (at <= 0 || !/^\d{4}-\d{2}-\d{2}/.test(date) || Number.isNaN(Date.parse(date))) {
      throw new UsageError(`--knowledge-cutoff takes MODEL=YYYY-MM-DD, got "${entry}"`);
    }
    cutoffs.set(entry.slice(0, at), date);
  }
  return cutoffs;
}
