import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import path from "node:path";

/**
 * Writes a whole file so that a crash leaves either the old content or the new, never a part:
 * a temporary file beside it, flushed to disk, then renamed over it.
 */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
  const handle = await open(temporary, "w");
  try {
    await handle.writeFile(content, "utf8");
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temporary, file);
  await syncDirectory(path.dirname(file));
}

/** Makes the rename itself durable; some file systems refuse to open a directory, which is fine. */
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The rename is done either way; only its durability across a power cut is at stake.
  }
}
