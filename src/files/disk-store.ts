import { createReadStream, createWriteStream, type Dir } from "node:fs";
import { mkdir, opendir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { randomBase62 } from "../util/ids.js";
import {
  assertSafeKey,
  BlobNotFoundError,
  type BlobStore,
  isSafeKey,
  type StoredBlob,
} from "./blob-store.js";

/** Blobs as files in one directory; written to a temporary name and renamed when complete. */
export class DiskBlobStore implements BlobStore {
  private ready: Promise<unknown> | null = null;

  constructor(private readonly dir: string) {}

  async put(key: string, body: Readable): Promise<void> {
    const target = this.pathOf(key);
    await this.ensureDir();
    const partial = path.join(this.dir, `.${key}.${randomBase62(8)}.partial`);
    const sink = createWriteStream(partial, { flush: true });
    try {
      await pipeline(body, sink);
      await rename(partial, target);
    } catch (error) {
      // A body that fails at once fails the pipeline while the file may still be opening; removed
      // before that open completes, the file would be created afterwards and never swept.
      if (!sink.closed) await new Promise<void>((resolve) => sink.once("close", () => resolve()));
      await rm(partial, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Readable> {
    const file = this.pathOf(key);
    try {
      await stat(file);
    } catch {
      throw new BlobNotFoundError(key);
    }
    return createReadStream(file);
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async *list(): AsyncIterable<StoredBlob> {
    let dir: Dir;
    try {
      dir = await opendir(this.dir);
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for await (const entry of dir) {
      // Uploads in progress are dot-named `.partial` files, which are never safe keys.
      if (!entry.isFile() || !isSafeKey(entry.name)) continue;
      try {
        const { mtimeMs } = await stat(path.join(this.dir, entry.name));
        yield { key: entry.name, lastModified: mtimeMs };
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
  }

  async close(): Promise<void> {}

  private pathOf(key: string): string {
    assertSafeKey(key);
    return path.join(this.dir, key);
  }

  private ensureDir(): Promise<unknown> {
    this.ready ??= mkdir(this.dir, { recursive: true });
    return this.ready;
  }
}

/** The directory or file went away (not created yet, or deleted while listing). */
function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === "ENOENT";
}
