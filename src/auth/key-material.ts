import { hash, timingSafeEqual } from "node:crypto";
import { randomBase62 } from "../util/ids.js";

export const KEY_PREFIX = "sk_";
/** 43 base62 characters carry 256 bits of entropy. */
const KEY_BODY_LENGTH = 43;
const VISIBLE_PREFIX_LENGTH = 10;

export interface KeyMaterial {
  plaintext: string;
  hash: string;
  visiblePrefix: string;
}

export function generateKey(): KeyMaterial {
  const plaintext = `${KEY_PREFIX}${randomBase62(KEY_BODY_LENGTH)}`;
  return { plaintext, hash: hashKey(plaintext), visiblePrefix: visiblePrefix(plaintext) };
}

/** Runs on every authenticated request: the one-shot hash costs a quarter of a Hash object. */
export function hashKey(plaintext: string): string {
  return hash("sha256", plaintext, "hex");
}

export function visiblePrefix(plaintext: string): string {
  return plaintext.slice(0, VISIBLE_PREFIX_LENGTH);
}

/** Compares two hex digests without leaking where they differ. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Cheap shape check so malformed tokens never reach the database. */
export function looksLikeKey(token: string): boolean {
  return /^sk_[A-Za-z0-9_-]{32,128}$/.test(token);
}
