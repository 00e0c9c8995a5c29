import { readFile } from "node:fs/promises";
import path from "node:path";
import { BacktestError } from "../errors.js";
import type { QuestionSet } from "../types.js";
import { isForecastBenchQuestionSet, parseForecastBench } from "./forecastbench.js";
import { sampleQuestions } from "./sample.js";
import { parseSibylJsonl } from "./sibyl-jsonl.js";

async function readText(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw new BacktestError(`cannot read ${what} ${file}: ${(error as Error).message}`);
  }
}

function parseJson(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return undefined;
  }
}

/**
 * A ForecastBench question set (one JSON document with `questions`) with its optional
 * resolution set, or Sibyl's JSON Lines format (outcomes inline). `limit` keeps a sample of N
 * questions stratified by source, drawn with `seed` (see sampleQuestions).
 */
export async function loadQuestionSet(
  questionsFile: string,
  resolutionsFile: string | null,
  limit: number | null,
  seed = 0,
): Promise<QuestionSet> {
  const content = await readText(questionsFile, "question set");
  const document = parseJson(content);
  let set: QuestionSet;
  if (isForecastBenchQuestionSet(document)) {
    const resolutions =
      resolutionsFile === null
        ? null
        : parseJson(await readText(resolutionsFile, "resolution set"));
    if (resolutions === undefined) {
      throw new BacktestError(`resolution set ${resolutionsFile} is not valid JSON`);
    }
    set = parseForecastBench(document, resolutions);
  } else {
    if (typeof document === "object" && document !== null && "resolutions" in document) {
      throw new BacktestError(`${questionsFile} is a resolution set: give it with --resolutions`);
    }
    if (resolutionsFile !== null) {
      throw new BacktestError(
        "--resolutions goes with a ForecastBench question set; Sibyl's JSON Lines carry outcomes inline",
      );
    }
    set = parseSibylJsonl(content, path.basename(questionsFile));
  }
  if (set.items.length === 0) throw new BacktestError(`${questionsFile} holds no question to ask`);
  return limit === null ? set : sampleQuestions(set, limit, seed);
}
