import { randomFillSync } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** Bytes drawn from the CSPRNG at once: one call per ~100 ids instead of one per id. */
const POOL_SIZE = 4096;

const pool = Buffer.alloc(POOL_SIZE);
let next = POOL_SIZE;

function randomByte(): number {
  if (next === POOL_SIZE) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++] as number;
}

/** Uniform base62 text from a CSPRNG (bytes ≥ 248 are rejected to avoid modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/**
 * Whether `text` has the shape of an identifier Sibyl issues (a prefix and base62). Ids from
 * requests are checked before they reach the database: text no row can hold (a NUL character,
 * which PostgreSQL refuses outright) then simply matches nothing.
 */
export function isWellFormedId(text: string): boolean {
  return WELL_FORMED_ID.test(text);
}

const WELL_FORMED_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Leading characters of an id that spell the millisecond it was made, in base62 (whose digits are
 * in ASCII order), so later ids sort after earlier ones. Ids are primary keys and ledger
 * references: sorted ones go to the end of their index, where random ones would land on a
 * different page each, and every commit would rewrite pages all over it (about four times the
 * cost of each insert on a ledger of a few hundred thousand entries).
 */
const TIME_CHARACTERS = 8;

function timeBase62(milliseconds: number): string {
  let out = "";
  let rest = Math.floor(milliseconds);
  for (let i = 0; i < TIME_CHARACTERS; i++) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

/**
 * A public identifier such as `org_3kTq…`, `file-9Xa…` or `batch_Q2p…`: its creation time, then
 * random characters (16 of the default 24, about 95 bits).
 */
export function newId(prefix: string, length = 24): string {
  return `${prefix}${timeBase62(Date.now())}${randomBase62(length - TIME_CHARACTERS)}`;
}
