import { readFile } from "node:fs/promises";
import { Organizations } from "../auth/organizations.js";
import type { Config } from "../config/index.js";
import { connectDatabase } from "../db/connect.js";
import { migrateToLatest } from "../db/migrate.js";
import { ServiceError } from "../errors.js";
import { Questions } from "../track/questions-service.js";
import { type FileResolution, parseResolutionFile } from "../track/resolution-file.js";
import { systemClock } from "../util/clock.js";
import type { CliIo } from "./command.js";

export interface ResolveSummary {
  format: string;
  resolved: number;
  unchanged: number;
  unknown: number;
  refused: number;
  skipped: number;
}

/**
 * `sibyl questions resolve FILE --org ORG_ID [--force]`: resolves the organization's questions
 * from a file, as `POST /v1/questions/{id}/resolution` would. Each refusal and skipped entry goes
 * to stderr; stdout gets one JSON summary. Exits 1 when any resolution was refused.
 */
export async function resolveQuestionsFile(
  file: string,
  options: { organizationId: string; force: boolean },
  config: Config,
  io: CliIo,
): Promise<number> {
  let content: string;
  try {
    content = await readFile(file, "utf8");
  } catch (error) {
    io.stderr(`sibyl: cannot read ${file}: ${(error as Error).message}`);
    return 1;
  }
  const parsed = parseResolutionFile(content);
  const handle = connectDatabase(config.database.url);
  try {
    await migrateToLatest(handle);
    await new Organizations(handle.db, systemClock).get(options.organizationId);
    const questions = new Questions(handle.db, systemClock);
    const summary: ResolveSummary = {
      format: parsed.format,
      resolved: 0,
      unchanged: 0,
      unknown: 0,
      refused: 0,
      skipped: parsed.skipped.length,
    };
    for (const { at, reason } of parsed.skipped) io.stderr(`${file}: ${at}: skipped: ${reason}`);
    for (const [questionId, resolution] of await targets(questions, options, parsed.resolutions)) {
      if (questionId === null) {
        summary.unknown += 1;
        io.stderr(`${file}: ${resolution.at}: no question ${resolution.questionIds.join(" or ")}`);
        continue;
      }
      try {
        const input = { ...resolution.input, force: options.force };
        const changed = await questions.applyResolution(
          options.organizationId,
          questionId,
          input,
          "cli",
        );
        if (changed) summary.resolved += 1;
        else summary.unchanged += 1;
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        summary.refused += 1;
        io.stderr(`${file}: ${resolution.at}: ${questionId}: ${error.message}`);
      }
    }
    io.stdout(JSON.stringify(summary));
    return summary.refused > 0 ? 1 : 0;
  } finally {
    await handle.close();
  }
}

/**
 * Each resolution with the first of its ids the organization has (null: none). A question that
 * several entries resolve (a market, once per date) takes the earliest: the others would only
 * restate it later.
 */
async function targets(
  questions: Questions,
  options: { organizationId: string },
  resolutions: FileResolution[],
): Promise<[string | null, FileResolution][]> {
  const chosen = new Map<string, FileResolution>();
  const found: [string | null, FileResolution][] = [];
  for (const resolution of resolutions) {
    let target: string | null = null;
    for (const id of resolution.questionIds) {
      if (await questions.exists(options.organizationId, id)) {
        target = id;
        break;
      }
    }
    if (target === null) {
      found.push([null, resolution]);
      continue;
    }
    const earlier = chosen.get(target);
    if (!earlier || isEarlier(resolution, earlier)) chosen.set(target, resolution);
  }
  return [...found, ...chosen.entries()];
}

const isEarlier = (a: FileResolution, b: FileResolution): boolean =>
  String(a.input.resolved_at ?? "") < String(b.input.resolved_at ?? "");
