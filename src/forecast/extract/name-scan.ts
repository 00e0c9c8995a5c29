/*
 * Finding option names in a reply in time linear in the reply. A regular expression holding
 * every alias as an alternative is tried alias by alias at each position of the reply, which
 * grows with the reply times the number of aliases times their length: a 300-character option
 * held the event loop for seconds. Here the reply is split into words once, each word gets a
 * number, and a name of n words is found by comparing a rolling hash of n word numbers.
 */

/**
 * The words of a text in parallel arrays (one object per word would be thousands of objects for a
 * long reply): each word's number, where it stands, and where the run of words joined to it by
 * short gaps starts.
 */
interface Words {
  count: number;
  ids: Int32Array;
  starts: Int32Array;
  ends: Int32Array;
  runStarts: Int32Array;
}

// Words are runs of letters and digits; a name's words may be separated by up to three other
// characters ("Saint-Germain", "Le Pen", "A. B."), never by a line break.
const WORD = /[\p{L}\p{N}]+/gu;
const MAX_GAP = 3;

// Two moduli below 2^26, so the combined key stays an exact integer below 2^52.
const MOD_A = 67_108_859;
const MOD_B = 67_108_837;
const BASE = 1_000_003;

// Every word no name holds shares one number. Not 0: a leading 0 leaves a polynomial hash
// unchanged, so "give Labour" would hash like "Labour".
const UNKNOWN_ID = 1;
const FIRST_ID = 2;

/** Word numbers shared by the names and the texts scanned for them. */
export class WordIds {
  private readonly ids = new Map<string, number>();

  /** The number of a lower-cased word; words never seen get a fresh number. */
  idOf(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.ids.size + FIRST_ID;
      this.ids.set(word, id);
    }
    return id;
  }

  /** The number of a word, or UNKNOWN_ID when no name holds it. */
  known(word: string): number {
    return this.ids.get(word) ?? UNKNOWN_ID;
  }
}

/** The key of a run of word numbers: two polynomial hashes joined into one integer. */
export function runKey(ids: readonly number[]): number {
  let a = 0;
  let b = 0;
  for (const id of ids) {
    a = (a * BASE + id) % MOD_A;
    b = (b * BASE + id) % MOD_B;
  }
  return a * MOD_B + b;
}

/** Whether the characters from `from` to `to` are a short gap without a line break. */
function joins(text: string, from: number, to: number): boolean {
  if (to - from > MAX_GAP) return false;
  for (let index = from; index < to; index++) if (text.charCodeAt(index) === 10) return false;
  return true;
}

function wordsOf(text: string, ids: WordIds): Words {
  const matches = [...text.matchAll(WORD)];
  const count = matches.length;
  const words: Words = {
    count,
    ids: new Int32Array(count),
    starts: new Int32Array(count),
    ends: new Int32Array(count),
    runStarts: new Int32Array(count),
  };
  for (let index = 0; index < count; index++) {
    const match = matches[index] as RegExpExecArray;
    const start = match.index;
    const written = match[0];
    words.ids[index] = ids.known(written.toLowerCase());
    words.starts[index] = start;
    words.ends[index] = start + written.length;
    const joined = index > 0 && joins(text, words.ends[index - 1] as number, start);
    words.runStarts[index] = joined ? (words.runStarts[index - 1] as number) : index;
  }
  return words;
}

/** A found name: the key of its words and where it stands. */
export interface NameMatch {
  key: number;
  start: number;
  end: number;
}

function powers(count: number, modulus: number): number[] {
  const result = [1];
  for (let index = 1; index <= count; index++) {
    result.push(((result[index - 1] ?? 1) * BASE) % modulus);
  }
  return result;
}

/**
 * Every non-overlapping run of words in `text` whose key is in `keys`, left to right, the
 * longest at each position first. `lengths` are the word counts names have, longest first.
 * Cost: the number of words times the number of distinct name lengths.
 */
export function scanNames(
  text: string,
  ids: WordIds,
  keys: ReadonlySet<number>,
  lengths: readonly number[],
): NameMatch[] {
  const words = wordsOf(text, ids);
  const longest = lengths[0] ?? 0;
  const powA = powers(longest, MOD_A);
  const powB = powers(longest, MOD_B);
  // Prefix hashes: the hash of words [from, to) is read from two of them.
  const prefixA = new Float64Array(words.count + 1);
  const prefixB = new Float64Array(words.count + 1);
  for (let index = 0; index < words.count; index++) {
    const id = words.ids[index] as number;
    prefixA[index + 1] = ((prefixA[index] as number) * BASE + id) % MOD_A;
    prefixB[index + 1] = ((prefixB[index] as number) * BASE + id) % MOD_B;
  }
  const hashOf = (prefix: Float64Array, pow: number[], modulus: number, from: number, to: number) =>
    ((((prefix[to] as number) - (prefix[from] as number) * (pow[to - from] ?? 0)) % modulus) +
      modulus) %
    modulus;
  const found: NameMatch[] = [];
  for (let index = 0; index < words.count; ) {
    let matched = 0;
    for (const length of lengths) {
      const last = index + length - 1;
      if (last >= words.count || (words.runStarts[last] as number) > index) continue;
      const key =
        hashOf(prefixA, powA, MOD_A, index, last + 1) * MOD_B +
        hashOf(prefixB, powB, MOD_B, index, last + 1);
      if (keys.has(key)) {
        matched = length;
        found.push({ key, start: words.starts[index] as number, end: words.ends[last] as number });
        break;
      }
    }
    index += Math.max(1, matched);
  }
  return found;
}
