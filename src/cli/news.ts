import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import type { Config } from "../config/index.js";
import { connectDatabase } from "../db/connect.js";
import { migrateToLatest } from "../db/migrate.js";
import { ArchiveStore } from "../research/archive/archive-store.js";
import { importArticleFile } from "../research/archive/import-file.js";
import { systemClock } from "../util/clock.js";
import { type CliIo, UsageError } from "./run.js";

/**
 * `sibyl news import FILE`: fills the news archive from a JSON Lines file. Rejected lines and
 * progress go to stderr; stdout gets one JSON summary.
 */
export async function newsCommand(args: string[], config: Config, io: CliIo): Promise<number> {
  const [action, file, ...extra] = args;
  if (action !== "import") throw new UsageError(`unknown command "news ${args.join(" ")}"`);
  if (!file) throw new UsageError("news import needs a FILE (JSON Lines, one article a line)");
  if (extra.length > 0) throw new UsageError(`news import takes one FILE, got: ${args.join(" ")}`);

  const unreadable = await whyUnreadable(file);
  if (unreadable) {
    io.stderr(`sibyl: cannot read ${file}: ${unreadable}`);
    return 1;
  }

  const handle = connectDatabase(config.database.url);
  try {
    await migrateToLatest(handle);
    const summary = await importArticleFile(file, new ArchiveStore(handle.db, systemClock), {
      rejected: (line, reason) => io.stderr(`${file}:${line}: ${reason}`),
      progress: (progress) =>
        io.stderr(
          `${file}: ${progress.lines} lines read, ${progress.imported} imported, ${progress.duplicates} duplicates, ${progress.rejected} rejected`,
        ),
    });
    io.stdout(JSON.stringify(summary));
    return 0;
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
