import { createCipheriv, createDecipheriv } from "node:crypto";
import type { Db } from "../db/database.js";
import { LEDGER_ID_KEY_PURPOSE } from "../db/schema.js";

const PREFIX = "le_";
const BLOCK_BYTES = 16;
/** 62^22 > 2^128: every block fits in 22 base62 characters. */
const BODY_LENGTH = 22;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BLOCK_LIMIT = 1n << 128n;
/** The bare-number ids shown before entry ids were encrypted: `le_` and up to 16 digits. */
const NUMBERED_ID = /^le_[0-9]{1,16}$/;
const ENCRYPTED_ID = new RegExp(`^${PREFIX}[0-9A-Za-z]{${BODY_LENGTH}}$`);

/** What a public entry id names: an entry number, the retired numbered form, or nothing. */
export type ParsedEntryId =
  | { kind: "entry"; number: number }
  | { kind: "numbered" }
  | { kind: "unknown" };

/**
 * Public ledger entry ids: `le_` and the entry's number encrypted under the installation's key
 * (one AES block: the number, then eight zero bytes), in base62. Encryption is a permutation, so
 * ids stay unique and every entry, old or new, has one without storing it; without the key, ids
 * of consecutive entries look unrelated and say nothing of how many entries lie between them.
 * The zero bytes make a made-up id decrypt to a number only by a 2^-64 chance.
 */
export class LedgerEntryIds {
  private key: Promise<Buffer> | undefined;

  constructor(private readonly db: Db) {}

  async publicIds(numbers: readonly number[]): Promise<string[]> {
    const key = await this.loadKey();
    return numbers.map((number) => encrypt(key, number));
  }

  async parse(publicId: string): Promise<ParsedEntryId> {
    if (NUMBERED_ID.test(publicId)) return { kind: "numbered" };
    if (!ENCRYPTED_ID.test(publicId)) return { kind: "unknown" };
    const number = decrypt(await this.loadKey(), publicId.slice(PREFIX.length));
    return number === null ? { kind: "unknown" } : { kind: "entry", number };
  }

  private loadKey(): Promise<Buffer> {
    this.key ??= this.readKey().catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return this.key;
  }

  private async readKey(): Promise<Buffer> {
    const row = await this.db.query
      .selectFrom("id_keys")
      .select("key_hex")
      .where("purpose", "=", LEDGER_ID_KEY_PURPOSE)
      .executeTakeFirstOrThrow();
    return Buffer.from(row.key_hex, "hex");
  }
}

function encrypt(key: Buffer, number: number): string {
  const block = Buffer.alloc(BLOCK_BYTES);
  block.writeBigUInt64BE(BigInt(number), 0);
  const cipher = createCipheriv("aes-128-ecb", key, null).setAutoPadding(false);
  const sealed = Buffer.concat([cipher.update(block), cipher.final()]);
  return `${PREFIX}${toBase62(BigInt(`0x${sealed.toString("hex")}`))}`;
}

function decrypt(key: Buffer, body: string): number | null {
  const value = fromBase62(body);
  if (value >= BLOCK_LIMIT) return null;
  const sealed = Buffer.from(value.toString(16).padStart(BLOCK_BYTES * 2, "0"), "hex");
  const decipher = createDecipheriv("aes-128-ecb", key, null).setAutoPadding(false);
  const block = Buffer.concat([decipher.update(sealed), decipher.final()]);
  if (block.readBigUInt64BE(8) !== 0n) return null;
  const number = block.readBigUInt64BE(0);
  return number > 0n && number <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(number) : null;
}

function toBase62(value: bigint): string {
  let out = "";
  let rest = value;
  for (let i = 0; i < BODY_LENGTH; i++) {
    out = BASE62[Number(rest % 62n)] + out;
    rest /= 62n;
  }
  return out;
}

function fromBase62(text: string): bigint {
  let value = 0n;
  for (const character of text) value = value * 62n + BigInt(BASE62.indexOf(character));
  return value;
}
