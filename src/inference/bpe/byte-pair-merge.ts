import { mergeRank } from "./merge-rank.js";
import type { Vocabulary } from "./vocabulary.js";

/** Pairs that are no token rank after every real one. */
const NO_MERGE = 0x7fffffff;

/** A heap key is rank * POSITION_RANGE + position: ordered by rank, then leftmost first. */
const POSITION_RANGE = 2 ** 32;

/** Bytes kept between pieces; a longer piece gets arrays of its own for the time it takes. */
const RETAINED_BYTES = 1024;

/**
 * Byte-pair merging of one piece, as tiktoken and gpt-tokenizer do it: start from single bytes
 * and merge the adjacent pair of lowest rank, the leftmost on a tie, until no pair is a token.
 * Rescanning every pair after each merge, as they do, is quadratic, and pieces of CJK or Thai
 * text run to a hundred bytes; here the parts form a linked list and the pairs a min-heap,
 * so each merge costs a few heap steps. Its arrays are reused from piece to piece.
 */
export class BytePairMerger {
  /** The ranks of the tokens the last merge produced, in order. */
  tokens = new Int32Array(RETAINED_BYTES);
  // Parts are named by the position of their first byte; the arrays below are indexed by it.
  /** Where the next part starts (the piece's length after the last part). */
  private next = new Int32Array(RETAINED_BYTES);
  /** Where the previous part starts, -1 before the first. */
  private previous = new Int32Array(RETAINED_BYTES);
  /** The token a part is. */
  private partRanks = new Int32Array(RETAINED_BYTES);
  /** The rank of a part joined with the next; NO_MERGE if that is no token or the part is gone. */
  private pairRanks = new Int32Array(RETAINED_BYTES);
  /** Keys of pairs to merge. A key whose rank no longer matches pairRanks is stale: skipped. */
  private heap = new Float64Array(3 * RETAINED_BYTES);
  private heapSize = 0;

  /** Merges `bytes[0, length)`; returns how many tokens it wrote to `tokens`. */
  merge(vocabulary: Vocabulary, bytes: Uint8Array, length: number): number {
    this.reserve(length);
    const { next, previous, partRanks, pairRanks, heap } = this;
    this.heapSize = 0;
    for (let start = 0; start < length; start++) {
      const byte = bytes[start] ?? 0;
      next[start] = start + 1;
      previous[start] = start - 1;
      partRanks[start] = vocabulary.byteRank(byte);
      const rank = start + 1 < length ? vocabulary.bytePairRank(byte, bytes[start + 1] ?? 0) : -1;
      pairRanks[start] = rank < 0 ? NO_MERGE : rank;
      if (rank >= 0) heap[this.heapSize++] = rank * POSITION_RANGE + start;
    }
    for (let index = (this.heapSize >> 1) - 1; index >= 0; index--) this.siftDown(index);

    while (this.heapSize > 0) {
      const key = this.pop();
      const rank = Math.floor(key / POSITION_RANGE);
      const start = key - rank * POSITION_RANGE;
      if (pairRanks[start] !== rank) continue;
      // The part at `start` takes in the next one.
      const joined = next[start] ?? length;
      const after = next[joined] ?? length;
      partRanks[start] = rank;
      pairRanks[joined] = NO_MERGE;
      next[start] = after;
      if (after < length) previous[after] = start;
      this.pairWith(vocabulary, bytes, start, after < length ? (next[after] ?? length) : -1);
      const before = previous[start] ?? -1;
      if (before >= 0) this.pairWith(vocabulary, bytes, before, after);
    }

    let count = 0;
    for (let start = 0; start < length; start = next[start] ?? length) {
      this.tokens[count++] = partRanks[start] ?? 0;
    }
    return count;
  }

  /** Ranks the part at `start` joined with its next part, which ends at `end` (-1: none). */
  private pairWith(vocabulary: Vocabulary, bytes: Uint8Array, start: number, end: number): void {
    const rank = end < 0 ? -1 : mergeRank(vocabulary, bytes, start, end);
    this.pairRanks[start] = rank < 0 ? NO_MERGE : rank;
    if (rank >= 0) this.push(rank * POSITION_RANGE + start);
  }

  private push(key: number): void {
    const heap = this.heap;
    let index = this.heapSize++;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const parentKey = heap[parent] ?? 0;
      if (parentKey <= key) break;
      heap[index] = parentKey;
      index = parent;
    }
    heap[index] = key;
  }

  private pop(): number {
    const heap = this.heap;
    const top = heap[0] ?? 0;
    this.heapSize--;
    heap[0] = heap[this.heapSize] ?? 0;
    this.siftDown(0);
    return top;
  }

  private siftDown(from: number): void {
    const heap = this.heap;
    const size = this.heapSize;
    const key = heap[from] ?? 0;
    let index = from;
    for (let child = 2 * index + 1; child < size; child = 2 * index + 1) {
      const right = child + 1;
      if (right < size && (heap[right] ?? 0) < (heap[child] ?? 0)) child = right;
      const childKey = heap[child] ?? 0;
      if (key <= childKey) break;
      heap[index] = childKey;
      index = child;
    }
    heap[index] = key;
  }

  private reserve(length: number): void {
    const fits = length <= this.next.length;
    const oversized = this.next.length > RETAINED_BYTES && length <= RETAINED_BYTES;
    if (fits && !oversized) return;
    const size = Math.max(length, RETAINED_BYTES);
    this.tokens = new Int32Array(size);
    this.next = new Int32Array(size);
    this.previous = new Int32Array(size);
    this.partRanks = new Int32Array(size);
    this.pairRanks = new Int32Array(size);
    this.heap = new Float64Array(3 * size);
  }
}
