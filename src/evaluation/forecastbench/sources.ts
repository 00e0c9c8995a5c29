/** ForecastBench's two kinds of question, by source (its `MARKET_SOURCES` and `DATA_SOURCES`). */
export const MARKET_SOURCES: readonly string[] = ["manifold", "metaculus", "polymarket", "infer"];
export const DATASET_SOURCES: readonly string[] = [
  "acled",
  "dbnomics",
  "fred",
  "wikipedia",
  "yfinance",
];

export type QuestionKind = "market" | "dataset";

/** The kind of a ForecastBench source; null for any other source (Sibyl's own questions). */
export function questionKind(source: string): QuestionKind | null {
  const lower = source.toLowerCase();
  if (MARKET_SOURCES.includes(lower)) return "market";
  if (DATASET_SOURCES.includes(lower)) return "dataset";
  return null;
}

/** Whole days from the due date to the resolution date, as ForecastBench's `horizon`. */
export function horizonDays(dueDate: string, resolutionDate: string): number {
  const day = 86_400_000;
  return Math.round(
    (Date.parse(resolutionDate.slice(0, 10)) - Date.parse(dueDate.slice(0, 10))) / day,
  );
}

/**
 * ForecastBench's `question_pk`: a market question once per due date, a dataset question once
 * per due date and horizon.
 */
export function questionPk(
  dueDate: string,
  source: string,
  id: string,
  resolutionDate: string | null,
): string {
  const base = `${dueDate.slice(0, 10)}_${source.toLowerCase()}_${id}`;
  return questionKind(source) === "dataset" && resolutionDate !== null
    ? `${base}_${horizonDays(dueDate, resolutionDate)}`
    : base;
}
