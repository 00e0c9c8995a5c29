import type { Db } from "../db/database.js";
import type { BlobStore } from "./blob-store.js";
import { existingFileIds } from "./file-records.js";

/** Rows are looked up this many keys at a time, so a large store is never held in memory. */
const CHUNK = 500;

export interface OrphanSweep {
  db: Db;
  store: BlobStore;
  /** Only keys that are file ids are considered; anything else in the store is not ours. */
  keyPrefix: string;
  /** Blobs modified at or after this time (ms) are left alone: their row may still be coming. */
  cutoff: number;
}

/**
 * Deletes blobs that no file row references, left behind when the process died between writing
 * a blob and recording its row. Returns how many it deleted.
 */
export async function sweepOrphanBlobs(sweep: OrphanSweep): Promise<number> {
  let removed = 0;
  let chunk: string[] = [];
  const settle = async () => {
    const referenced = await existingFileIds(sweep.db, chunk);
    for (const key of chunk) {
      if (referenced.has(key)) continue;
      await sweep.store.delete(key);
      removed += 1;
    }
    chunk = [];
  };
  for await (const blob of sweep.store.list()) {
    if (blob.lastModified >= sweep.cutoff || !blob.key.startsWith(sweep.keyPrefix)) continue;
    chunk.push(blob.key);
    if (chunk.length === CHUNK) await settle();
  }
  if (chunk.length > 0) await settle();
  return removed;
}
