import type { TokenBytes } from "./tiktoken-file.js";

/**
 * A slot holds a rank in its low bits and, above them, high bits of its token's hash: most
 * probes that meet another token are told apart by those without touching the token's bytes.
 */
const RANK_BITS = 18;
const RANK_MASK = (1 << RANK_BITS) - 1;
/** All bits set: its rank part is beyond any rank a vocabulary may hold. */
const EMPTY_SLOT = -1;

/**
 * Every token's bytes and an open-addressing hash table from bytes to rank, all in typed
 * arrays: a few megabytes in a handful of objects, where a Map keyed by ~200k strings costs
 * tens of megabytes of heap. Lookups take a byte range, so merging allocates nothing.
 */
export class Vocabulary {
  readonly size: number;
  /** The rank of each single byte: byte-level BPE starts from these. */
  private readonly byteRanks = new Int32Array(256).fill(-1);
  /**
   * The rank of each two-byte token, indexed by its bytes, -1 where none: merging looks up every
   * adjacent byte pair of a piece first, and this 256 kB answers those without hashing.
   */
  private readonly bytePairRanks = new Int32Array(256 * 256).fill(-1);
  private readonly slots: Int32Array;
  private readonly slotMask: number;

  constructor(private readonly tokens: TokenBytes) {
    this.size = tokens.offsets.length - 1;
    if (this.size >= RANK_MASK) throw new Error(`vocabulary: ${this.size} tokens are too many`);
    // Under 40% full, so a probe for a byte pair that is no token ends after a slot or two.
    let slotCount = 1;
    while (slotCount < this.size * 2.5) slotCount *= 2;
    this.slots = new Int32Array(slotCount).fill(EMPTY_SLOT);
    this.slotMask = slotCount - 1;
    for (let rank = 0; rank < this.size; rank++) this.insert(rank);
    if (this.byteRanks.includes(-1)) throw new Error("vocabulary: a single byte is no token");
  }

  /** The rank of the token spelled by `bytes[start, end)`, or -1 if none is. */
  rankOf(bytes: Uint8Array, start: number, end: number): number {
    const { offsets, bytes: tokenBytes } = this.tokens;
    const length = end - start;
    const hash = hashBytes(bytes, start, end);
    const fingerprint = hash >>> RANK_BITS;
    for (let slot = hash & this.slotMask; ; slot = (slot + 1) & this.slotMask) {
      const entry = this.slots[slot] ?? EMPTY_SLOT;
      if (entry === EMPTY_SLOT) return -1;
      if (entry >>> RANK_BITS !== fingerprint) continue;
      const rank = entry & RANK_MASK;
      const tokenStart = offsets[rank] ?? 0;
      if ((offsets[rank + 1] ?? 0) - tokenStart !== length) continue;
      let index = 0;
      while (index < length && tokenBytes[tokenStart + index] === bytes[start + index]) index++;
      if (index === length) return rank;
    }
  }

  byteRank(byte: number): number {
    return this.byteRanks[byte] ?? -1;
  }

  /** The rank of the two-byte token `first, second`, or -1 if none is. */
  bytePairRank(first: number, second: number): number {
    return this.bytePairRanks[(first << 8) | second] ?? -1;
  }

  /** Whether `token` is a rank of this vocabulary. */
  has(token: number): boolean {
    return Number.isInteger(token) && token >= 0 && token < this.size;
  }

  /** Copies the bytes of `token` into `into` at `at`; returns where they end. */
  copyToken(token: number, into: Uint8Array, at: number): number {
    const { offsets, bytes } = this.tokens;
    const start = offsets[token] ?? 0;
    const end = offsets[token + 1] ?? 0;
    into.set(bytes.subarray(start, end), at);
    return at + end - start;
  }

  tokenLength(token: number): number {
    return (this.tokens.offsets[token + 1] ?? 0) - (this.tokens.offsets[token] ?? 0);
  }

  private insert(rank: number): void {
    const { offsets, bytes } = this.tokens;
    const start = offsets[rank] ?? 0;
    const end = offsets[rank + 1] ?? 0;
    if (this.rankOf(bytes, start, end) !== -1) {
      throw new Error(`vocabulary: token ${rank} repeats an earlier token's bytes`);
    }
    const hash = hashBytes(bytes, start, end);
    let slot = hash & this.slotMask;
    while (this.slots[slot] !== EMPTY_SLOT) slot = (slot + 1) & this.slotMask;
    this.slots[slot] = ((hash >>> RANK_BITS) << RANK_BITS) | rank;
    if (end - start === 1) this.byteRanks[bytes[start] ?? 0] = rank;
    if (end - start === 2) {
      this.bytePairRanks[((bytes[start] ?? 0) << 8) | (bytes[start + 1] ?? 0)] = rank;
    }
  }
}

/** 32-bit FNV-1a, its high bits folded into the low ones the table indexes by. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index++) {
    hash = Math.imul(hash ^ (bytes[index] ?? 0), 0x01000193);
  }
  return (hash ^ (hash >>> 15)) >>> 0;
}
