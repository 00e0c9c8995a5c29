import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import type { Config } from "../config/index.js";
import { connectDatabase } from "../db/connect.js";
import { migrateToLatest } from "../db/migrate.js";
import { ArchiveStore } from "../research/archive/archive-store.js";
import { importArticleFile } from "../research/archive/import-file.js";
import { systemClock } from "../util/clock.js";
import type { CliIo } from "./command.js";

/**
 * `sibyl news import FILE [--first-seen-from-published]`: fills the news archive from a JSON
 * Lines file or an RSS, Atom or RDF document. Entries without a first-seen time count as first
 * seen now, or with the flag at their published date. Rejected entries and progress go to stderr; stdout
 * gets one JSON summary. Exits 1 when nothing was imported and something was rejected.
 */
export async function newsImport(
  file: string,
  options: { fromPublished: boolean },
  config: Config,
  io: CliIo,
): Promise<number> {
  const unreadable = await whyUnreadable(file);
  if (unreadable) {
    io.stderr(`sibyl: cannot read ${file}: ${unreadable}`);
    return 1;
  }

  const handle = connectDatabase(config.database.url);
  try {
    await migrateToLatest(handle);
    const dating = {
      importedAt: systemClock.now(),
      firstSeen: options.fromPublished ? ("published" as const) : ("imported" as const),
    };
    const store = new ArchiveStore(handle.db, systemClock);
    const summary = await importArticleFile(file, store, dating, {
      rejected: (line, reason) => io.stderr(`${file}:${line}: ${reason}`),
      progress: (progress) =>
        io.stderr(
          `${file}: ${progress.lines} lines read, ${progress.imported} imported, ${progress.duplicates} duplicates, ${progress.rejected} rejected`,
        ),
    });
    io.stdout(JSON.stringify(summary));
    return summary.imported === 0 && summary.rejected > 0 ? 1 : 0;
  } finally {
    await handle.close();
  }
}

async function whyUnreadable(file: string): Promise<string | null> {
  try {
    if (!(await stat(file)).isFile()) return "not a file";
    await access(file, constants.R_OK);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
