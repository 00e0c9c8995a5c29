import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { ArchiveStore, NewArticle } from "./archive-store.js";
import { parseArticleLine } from "./article-line.js";

/** Articles per transaction: large enough to be fast, small enough to hold the lock briefly. */
export const IMPORT_BATCH_SIZE = 250;

/** Lines between two progress reports. */
export const PROGRESS_EVERY_LINES = 10_000;

export interface ImportSummary {
  imported: number;
  duplicates: number;
  rejected: number;
}

export interface ImportProgress extends ImportSummary {
  lines: number;
}

export interface ImportHooks {
  /** A line that was not imported, by 1-based line number, and why. */
  rejected(lineNumber: number, reason: string): void;
  /** Called every PROGRESS_EVERY_LINES lines. */
  progress(progress: ImportProgress): void;
}

/**
 * Imports a JSON Lines file of articles into the archive, reading it as a stream. Good lines are
 * kept whatever the bad ones hold; a url already archived (or repeated in the file) is left as it
 * was and counted as a duplicate. Blank lines are skipped.
 */
export async function importArticleFile(
  file: string,
  store: ArchiveStore,
  hooks: ImportHooks,
): Promise<ImportSummary> {
  const lines = createInterface({
    input: createReadStream(file, { encoding: "utf8" }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  const totals: ImportProgress = { lines: 0, imported: 0, duplicates: 0, rejected: 0 };
  let batch: NewArticle[] = [];
  const flush = async () => {
    const outcome = await store.insertMany(batch);
    batch = [];
    totals.imported += outcome.inserted;
    totals.duplicates += outcome.duplicates;
  };

  for await (const line of lines) {
    totals.lines += 1;
    // A byte-order mark some editors write is not part of the first line's JSON.
    const text = totals.lines === 1 ? line.replace(/^\uFEFF/, "") : line;
    if (text.trim() !== "") {
      const parsed = parseArticleLine(text);
      if ("article" in parsed) {
        batch.push(parsed.article);
        if (batch.length >= IMPORT_BATCH_SIZE) await flush();
      } else {
        totals.rejected += 1;
        hooks.rejected(totals.lines, parsed.rejected);
      }
    }
    if (totals.lines % PROGRESS_EVERY_LINES === 0) hooks.progress({ ...totals });
  }
  await flush();
  return { imported: totals.imported, duplicates: totals.duplicates, rejected: totals.rejected };
}
