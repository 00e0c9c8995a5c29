import type { Readable } from "node:stream";

/**
 * Where file bytes live. Keys are file ids; every store streams in both directions so no file is
 * ever held whole in memory.
 */
export interface BlobStore {
  /** Stores the stream under `key`, replacing any earlier blob; resolves once it is durable. */
  put(key: string, body: Readable): Promise<void>;
  /** The blob's bytes; throws BlobNotFoundError when there is none. */
  get(key: string): Promise<Readable>;
  /** Removes the blob; a missing blob is not an error. */
  delete(key: string): Promise<void>;
  /** Every complete blob, read a page at a time; blobs still being written are left out. */
  list(): AsyncIterable<StoredBlob>;
  close(): Promise<void>;
}

export interface StoredBlob {
  key: string;
  /** Milliseconds since the Unix epoch. */
  lastModified: number;
}

export class BlobNotFoundError extends Error {
  constructor(key: string) {
    super(`no blob stored under ${key}`);
    this.name = "BlobNotFoundError";
  }
}

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function isSafeKey(key: string): boolean {
  return SAFE_KEY.test(key);
}

/** Keys come from our own ids, but are checked anyway before they become paths or object names. */
export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new RangeError(`unsafe blob key: ${JSON.stringify(key)}`);
}
