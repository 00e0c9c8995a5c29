import { readFile } from "node:fs/promises";
import { BacktestError } from "../errors.js";

/** ForecastBench's two leaderboards, whose forecasters and market adjustment differ. */
export const LEADERBOARDS = ["tournament", "baseline"] as const;
export type Leaderboard = (typeof LEADERBOARDS)[number];

export const isLeaderboard = (name: string): name is Leaderboard =>
  LEADERBOARDS.some((known) => known === name);

/** `--reference DIR` with `--reference-models FILE` and `--leaderboard`. */
export interface ReferenceOptions {
  dir: string;
  modelsFile: string | null;
  leaderboard: Leaderboard;
}

/** What ForecastBench's model registry knows of a model run and its forecast files do not say. */
export interface ReferenceModel {
  releaseDate: string | null;
  usesTools: boolean | null;
}

/** Keyed by `model_run_key`, or by the forecast file's `model` for files without one. */
export type ReferenceModels = Map<string, ReferenceModel>;

/** Where a reference forecaster stands: which leaderboards list it, and its model's release. */
export interface ForecasterIdentity {
  /** Not ForecastBench's own: never in the fit. */
  external: boolean;
  leaderboards: Leaderboard[];
  releaseDate: string | null;
}

const BENCHMARK = "ForecastBench";

/** ForecastBench's comparison models (`FORECASTBENCH_COMPARISON_MODEL_NAMES`): on both boards. */
const COMPARISON_MODELS = new Set([
  "Always 0",
  "Always 1",
  "Always 0.5",
  "Random Uniform",
  "Imputed Forecaster",
  "Naive Forecaster",
  "Public median forecast",
  "Superforecaster median forecast",
  "LLM Crowd (gpt-4o, claude-3.5-sonnet, gemini-1.5-pro) geometric mean log odds with news",
  "LLM Crowd (gpt-4o, claude-3.5-sonnet, gemini-1.5-pro) geometric mean with news",
  "LLM Crowd (gpt-4o, claude-3.5-sonnet, gemini-1.5-pro) median with news",
]);

/** Prompt variants given no context (freeze values or news): the baseline leaderboard's. */
const WITHOUT_CONTEXT = new Set(["zero-shot", "scratchpad"]);
const WITH_CONTEXT = new Set([
  "zero-shot-with-freeze-values",
  "scratchpad-with-freeze-values",
  "scratchpad-with-news",
  "scratchpad-with-news-with-freeze-values",
  "scratchpad-with-second-news",
  "superforecaster-with-news-1",
  "superforecaster-with-news-2",
  "superforecaster-with-news-3",
]);

const WEB_SEARCH = / with web search$/;

/** An older file's variant, from the label its model name ends with: "GPT-4 (zero shot)". */
function legacyVariant(model: string): { key: string; webSearch: boolean } | null {
  const label = /\(([^()]+)\)\s*$/.exec(model)?.[1]?.toLowerCase();
  if (label === undefined) return null;
  return {
    key: label.replace(WEB_SEARCH, "").replaceAll(" ", "-"),
    webSearch: WEB_SEARCH.test(label),
  };
}

export interface FileIdentity {
  organization: string;
  modelOrganization: string;
  model: string;
  modelRunKey: string | null;
  variantKey: string | null;
  usesTools: boolean | null;
  releaseDate: string | null;
}

/**
 * Which of ForecastBench's leaderboards list a forecast file's forecaster, as its `get_df_info`
 * classifies them: external submissions the tournament; comparison models both; its own LLM runs
 * the baseline when prompted without context and without tools, else the tournament. Returns why
 * a file is left out instead, as ForecastBench refuses an unclassified model.
 */
export function leaderboardsOf(
  file: FileIdentity,
  models: ReferenceModels,
): ForecasterIdentity | string {
  if (file.organization !== BENCHMARK) {
    return { external: true, leaderboards: ["tournament"], releaseDate: null };
  }
  if (file.modelOrganization === BENCHMARK) {
    return COMPARISON_MODELS.has(file.model)
      ? { external: false, leaderboards: ["baseline", "tournament"], releaseDate: null }
      : `unknown ForecastBench comparison model "${file.model}"`;
  }
  const known =
    (file.modelRunKey === null ? undefined : models.get(file.modelRunKey)) ??
    models.get(file.model);
  const legacy = file.variantKey === null ? legacyVariant(file.model) : null;
  const variant = file.variantKey ?? legacy?.key ?? null;
  const context = variant !== null && WITH_CONTEXT.has(variant);
  if (variant === null || (!context && !WITHOUT_CONTEXT.has(variant))) {
    return `unknown forecast variant of "${file.model}"`;
  }
  const usesTools = file.usesTools ?? known?.usesTools ?? legacy?.webSearch ?? false;
  return {
    external: false,
    leaderboards: context || usesTools ? ["tournament"] : ["baseline"],
    releaseDate: file.releaseDate?.slice(0, 10) ?? known?.releaseDate ?? null,
  };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `--reference-models FILE`: `{ "<model_run_key or model>": "YYYY-MM-DD" | { "release_date":
 * "YYYY-MM-DD", "uses_tools": true } }`, the release dates and tool use of ForecastBench's model
 * registry, which its processed forecast files do not carry.
 */
export async function loadReferenceModels(file: string): Promise<ReferenceModels> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new BacktestError(`cannot read --reference-models ${file}: ${(error as Error).message}`);
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    throw new BacktestError(`--reference-models ${file} must be a JSON object`);
  }
  const models: ReferenceModels = new Map();
  for (const [key, value] of Object.entries(document)) {
    const entry = typeof value === "string" ? { release_date: value } : value;
    const date = typeof entry === "object" && entry !== null ? entry.release_date : undefined;
    const tools = typeof entry === "object" && entry !== null ? entry.uses_tools : undefined;
    if (
      (date !== undefined && (typeof date !== "string" || !DATE.test(date))) ||
      (tools !== undefined && typeof tools !== "boolean")
    ) {
      throw new BacktestError(
        `--reference-models ${file}: "${key}" needs a release_date YYYY-MM-DD and uses_tools true or false`,
      );
    }
    models.set(key, { releaseDate: date ?? null, usesTools: tools ?? null });
  }
  return models;
}
