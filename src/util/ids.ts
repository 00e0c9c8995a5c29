import { randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniform base62 text from a CSPRNG (bytes ≥ 248 are rejected to avoid modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** A public identifier such as `org_3kTq…`, `file-9Xa…` or `batch_Q2p…`. */
export function newId(prefix: string, length = 24): string {
  return `${prefix}${randomBase62(length)}`;
}
