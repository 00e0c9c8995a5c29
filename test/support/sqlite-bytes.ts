import { existsSync, readFileSync } from "node:fs";

/**
 * Every byte SQLite keeps for a database: the main file plus its write-ahead log and shared
 * memory, where recent writes live until a checkpoint.
 */
export function sqliteBytes(file: string): Buffer {
  const parts = [file, `${file}-wal`, `${file}-shm`]
    .filter((part) => existsSync(part))
    .map((part) => readFileSync(part));
  return Buffer.concat(parts);
}
