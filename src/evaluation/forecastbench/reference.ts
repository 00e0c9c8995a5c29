import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { BacktestError } from "../errors.js";
import { BENCHMARK_ORGANIZATION, type ReferenceRow } from "./question-effects.js";
import { leaderboardsOf, type ReferenceModels } from "./reference-models.js";
import { imputationCheck } from "./scores.js";
import { questionKind, questionPk } from "./sources.js";

/**
 * ForecastBench forecast files given with `--reference DIR` (its `forecast_sets/`, processed:
 * each forecast row carries `resolved_to`, `resolved`, `imputed` and the market's values at the
 * due date). Rows without `resolved_to` are resolved from the run's own resolution set when they
 * are of its round.
 */
export interface Reference {
  rows: ReferenceRow[];
  files: number;
  forecasters: string[];
  /** Files left out, with the reason. */
  skipped: string[];
  /** Market questions' values on the due date and the day before, by question_pk. */
  marketValues: Map<string, { onDueDate: number | null; dayBefore: number | null }>;
  /** The Naive Forecaster's forecasts, by question_pk (its own dataset forecasts included). */
  naive: Map<string, number>;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const numberOr = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** An outcome from the run's resolution set: `source/id@date`, or `source/id` for markets. */
export type OutcomeLookup = (
  dueDate: string,
  source: string,
  id: string,
  resolutionDate: string | null,
) => { outcome: number; resolved: boolean } | null;

async function jsonFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".json"))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

export async function loadReference(
  dir: string,
  lookup: OutcomeLookup,
  models: ReferenceModels = new Map(),
): Promise<Reference> {
  let files: string[];
  try {
    files = await jsonFiles(dir);
  } catch (error) {
    throw new BacktestError(`cannot read --reference ${dir}: ${(error as Error).message}`);
  }
  const reference: Reference = {
    rows: [],
    files: 0,
    forecasters: [],
    skipped: [],
    marketValues: new Map(),
    naive: new Map(),
  };
  for (const file of files) {
    let document: unknown;
    try {
      document = JSON.parse(await readFile(file, "utf8"));
    } catch {
      reference.skipped.push(`${path.basename(file)}: not JSON`);
      continue;
    }
    const reason = addFile(reference, document, lookup, models);
    if (reason === null) reference.files += 1;
    else reference.skipped.push(`${path.basename(file)}: ${reason}`);
  }
  if (reference.files === 0) {
    throw new BacktestError(
      `--reference ${dir} holds no ForecastBench forecast file${reference.skipped.length > 0 ? ` (${reference.skipped.slice(0, 3).join("; ")})` : ""}`,
    );
  }
  reference.forecasters.sort();
  return reference;
}

/** Adds one forecast file; returns why it was left out, or null. */
function addFile(
  reference: Reference,
  document: unknown,
  lookup: OutcomeLookup,
  models: ReferenceModels,
): string | null {
  if (!isObject(document) || !Array.isArray(document.forecasts)) return "no forecasts list";
  // ForecastBench scores only files marked eligible for its leaderboard.
  if (document.leaderboard_eligible === false) return "not leaderboard_eligible";
  const file = fileForecaster(document, models);
  if (typeof file === "string") return file;
  const { rows, counted } = readRows(reference, document.forecasts as unknown[], file, lookup);
  if (rows.length === 0) return "no resolved forecast of a ForecastBench question";
  const { organization, modelOrganization, model } = file;
  const dummy =
    organization === BENCHMARK_ORGANIZATION && modelOrganization === BENCHMARK_ORGANIZATION;
  // ForecastBench's rule (`get_df_info`): over 5% imputed on all rows, on market rows or on
  // resolved dataset rows drops the forecast file; its own dummy forecasters are exempt.
  const check = imputationCheck(counted);
  if (!dummy && check.over_cutoff) {
    return `more than ${check.cutoff_pct}% imputed (ForecastBench drops it)`;
  }
  if (organization === BENCHMARK_ORGANIZATION && model === "Naive Forecaster") {
    for (const row of rows) reference.naive.set(row.pk, row.forecast);
  }
  reference.rows.push(...rows);
  reference.forecasters.push(file.forecaster);
  return null;
}

/** Who made a forecast file, for what due date, and on which leaderboards it stands. */
interface FileForecaster {
  forecaster: string;
  organization: string;
  modelOrganization: string;
  model: string;
  dueDate: string;
  identity: Exclude<ReturnType<typeof leaderboardsOf>, string>;
}

/** The file's forecaster; a string says why the file is left out. */
function fileForecaster(document: Json, models: ReferenceModels): FileForecaster | string {
  const organization = text(document.organization);
  const model = text(document.model);
  const questionSet = text(document.question_set) ?? text(document["question-set"]);
  const dueDate = text(document.forecast_due_date) ?? questionSet?.slice(0, 10) ?? null;
  if (!organization || !model || !dueDate || !/^\d{4}-\d{2}-\d{2}/.test(dueDate)) {
    return "lacks organization, model or forecast_due_date";
  }
  const modelOrganization = text(document.model_organization) ?? organization;
  const identity = leaderboardsOf(
    {
      organization,
      modelOrganization,
      model,
      modelRunKey: text(document.model_run_key),
      variantKey: text(document.forecast_variant_key),
      usesTools: typeof document.uses_tools === "boolean" ? document.uses_tools : null,
      releaseDate: text(document.model_release_date),
    },
    models,
  );
  if (typeof identity === "string") return identity;
  const forecaster = `${organization}_${modelOrganization}_${model}`;
  return { forecaster, organization, modelOrganization, model, dueDate, identity };
}

/** A forecast with a known outcome, as ForecastBench's imputation rule counts it. */
type CountedForecast = { kind: ReferenceRow["kind"]; imputed: boolean; resolved: boolean };

/**
 * The file's resolved forecasts of ForecastBench questions as rows, and every forecast with a
 * known outcome for the imputation rule; market values are recorded on the way.
 */
function readRows(
  reference: Reference,
  forecasts: unknown[],
  file: FileForecaster,
  lookup: OutcomeLookup,
): { rows: ReferenceRow[]; counted: CountedForecast[] } {
  const { forecaster, organization, modelOrganization, model, dueDate, identity } = file;
  const rows: ReferenceRow[] = [];
  const counted: CountedForecast[] = [];
  for (const entry of forecasts) {
    if (!isObject(entry)) continue;
    const id = text(entry.id);
    const source = text(entry.source)?.toLowerCase() ?? null;
    const kind = source === null ? null : questionKind(source);
    // Combination questions (ids as lists) are not scored by ForecastBench either.
    if (id === null || source === null || kind === null) continue;
    const resolutionDate = text(entry.resolution_date)?.slice(0, 10) ?? null;
    const pk = questionPk(dueDate, source, id, kind === "dataset" ? resolutionDate : null);
    if (kind === "market") recordMarketValues(reference, pk, entry);
    const given = numberOr(entry.resolved_to);
    const found =
      given === null
        ? lookup(dueDate, source, id, kind === "dataset" ? resolutionDate : null)
        : { outcome: given, resolved: entry.resolved === true };
    if (found === null) continue;
    const forecast = numberOr(entry.forecast);
    counted.push({
      kind,
      imputed: entry.imputed === true || forecast === null,
      resolved: found.resolved,
    });
    if (!found.resolved) continue;
    rows.push({
      forecaster,
      organization,
      modelOrganization,
      model,
      dueDate: dueDate.slice(0, 10),
      pk,
      kind,
      forecast: forecast ?? 0.5,
      outcome: found.outcome,
      ...identity,
    });
  }
  return { rows, counted };
}

function recordMarketValues(reference: Reference, pk: string, entry: Json): void {
  const onDueDate = numberOr(entry.market_value_on_due_date);
  const dayBefore = numberOr(entry.market_value_on_due_date_minus_one);
  if (onDueDate === null && dayBefore === null) return;
  const known = reference.marketValues.get(pk);
  reference.marketValues.set(pk, {
    onDueDate: known?.onDueDate ?? onDueDate,
    dayBefore: known?.dayBefore ?? dayBefore,
  });
}
