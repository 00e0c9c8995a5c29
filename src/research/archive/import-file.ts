import { createReadStream } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import type { ArchiveStore, NewArticle } from "./archive-store.js";
import { type ImportDating, parseArticleLine } from "./article-line.js";

/** Articles per transaction: large enough to be fast, small enough to hold the lock briefly. */
export const IMPORT_BATCH_SIZE = 250;

/** Lines between two progress reports. */
export const PROGRESS_EVERY_LINES = 10_000;

/** Largest RSS or Atom file read (whole, as XML must be): feeds list dozens of items, not millions. */
export const MAX_FEED_FILE_BYTES = 64 * 1024 * 1024;

export interface ImportSummary {
  imported: number;
  duplicates: number;
  rejected: number;
}

export interface ImportProgress extends ImportSummary {
  lines: number;
}

export interface ImportHooks {
  /** A line (or feed item, by the line it starts on) that was not imported, and why. */
  rejected(lineNumber: number, reason: string): void;
  /** Called every PROGRESS_EVERY_LINES lines. */
  progress(progress: ImportProgress): void;
}

/**
 * Imports a file of articles into the archive: JSON Lines (read as a stream), or an RSS, Atom or
 * RDF feed document (read by the feed watcher's parser). Good entries are kept whatever the bad
 * ones hold; a url already archived (or repeated in the file) is left as it was and counted as a
 * duplicate. Blank lines are skipped.
 */
export async function importArticleFile(
  file: string,
  store: ArchiveStore,
  dating: ImportDating,
  hooks: ImportHooks,
): Promise<ImportSummary> {
  const totals: ImportProgress = { lines: 0, imported: 0, duplicates: 0, rejected: 0 };
  let batch: NewArticle[] = [];
  const flush = async () => {
    const outcome = await store.insertMany(batch);
    batch = [];
    totals.imported += outcome.inserted;
    totals.duplicates += outcome.duplicates;
  };
  const take = async (article: NewArticle) => {
    batch.push(article);
    if (batch.length >= IMPORT_BATCH_SIZE) await flush();
  };
  const reject = (lineNumber: number, reason: string) => {
    totals.rejected += 1;
    hooks.rejected(lineNumber, reason);
  };

  if (await looksLikeXml(file)) {
    const xml = await readFile(file, "utf8");
    // The feed parser (~10 MB once loaded) is read only for a feed, not by every command.
    const { feedItemArticles } = await import("./feed-import.js");
    for (const entry of feedItemArticles(xml, pathToFileURL(file).href, dating)) {
      if ("article" in entry) await take(entry.article);
      else reject(entry.line, entry.rejected);
    }
  } else {
    const lines = createInterface({
      input: createReadStream(file, { encoding: "utf8" }),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    for await (const line of lines) {
      totals.lines += 1;
      // A byte-order mark some editors write is not part of the first line's JSON.
      const text = totals.lines === 1 ? line.replace(/^\uFEFF/, "") : line;
      if (text.trim() !== "") {
        const parsed = parseArticleLine(text, dating);
        if ("article" in parsed) await take(parsed.article);
        else reject(totals.lines, parsed.rejected);
      }
      if (totals.lines % PROGRESS_EVERY_LINES === 0) hooks.progress({ ...totals });
    }
  }
  await flush();
  return { imported: totals.imported, duplicates: totals.duplicates, rejected: totals.rejected };
}

/** Whether the file starts (after a byte-order mark and blanks) with `<`: a feed, not JSON. */
async function looksLikeXml(file: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(1024), 0, 1024, 0);
    return /^\uFEFF?\s*</.test(buffer.subarray(0, bytesRead).toString("utf8"));
  } finally {
    await handle.close();
  }
}
