/*
 * Finding option names in a reply in time linear in the reply. A regular expression holding
 * every alias as an alternative is tried alias by alias at each position of the reply, which
 * grows with the reply times the number of aliases times their length: a 300-character option
 * held the event loop for seconds. Here the reply is split into words once, each word gets a
 * number, and a name of n words is found by comparing a rolling hash of n word numbers.
 */

/**
 * The words of a text that some name holds, in parallel arrays (one object per word would be
 * thousands of objects for a long reply): each word's number, where it stands, and where the
 * run of words joined to it by short gaps starts. A word no name holds is left out and ends the
 * run, since no name spans it.
 */
interface Words {
  count: number;
  ids: number[];
  starts: number[];
  ends: number[];
  runStarts: number[];
}

// Words are runs of letters and digits; a name's words may be separated by up to three other
// characters ("Saint-Germain", "Le Pen", "A. B."), never by a line break.
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
  // The ASCII characters the names' words start with: a word of a text that starts with another
  // is no name's, and is numbered without building its lower-cased copy.
  private readonly firsts = new Uint8Array(128);

  /** The number of a lower-cased word; words never seen get a fresh number. */
  idOf(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.ids.size + FIRST_ID;
      this.ids.set(word, id);
      const first = word.charCodeAt(0);
      if (first < 128) this.firsts[first] = 1;
    }
    return id;
  }

  /** The number of the word of `text` from `start` to `end`, or UNKNOWN_ID when no name holds it. */
  knownAt(text: string, start: number, end: number): number {
    const code = text.charCodeAt(start);
    // Upper-case ASCII letters fold to lower case by one bit; other characters may fold to
    // anything, and are looked up.
    const first = code >= 65 && code <= 90 ? code | 0x20 : code;
    if (first < 128 && this.firsts[first] === 0) return UNKNOWN_ID;
    return this.ids.get(text.slice(start, end).toLowerCase()) ?? UNKNOWN_ID;
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

const LETTER_OR_DIGIT_HERE = /[\p{L}\p{N}]/uy;

/** How many code units the letter or digit at `index` takes (a surrogate pair takes two), or 0. */
export function wordCharacterAt(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code < 128) {
    return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122)
      ? 1
      : 0;
  }
  return wordCharacterBeyondAscii(text, index);
}

/**
 * wordCharacterAt for a character outside ASCII. A function of its own, as the look at a pair
 * below tests one code first: with the pattern's search inlined into the scan of a reply's
 * words and a code point read at every character, that scan ran at less than half its speed.
 */
function wordCharacterBeyondAscii(text: string, index: number): number {
  LETTER_OR_DIGIT_HERE.lastIndex = index;
  if (!LETTER_OR_DIGIT_HERE.test(text)) return 0;
  return LETTER_OR_DIGIT_HERE.lastIndex - index;
}

/** Whether a surrogate pair starts at `index`; a look at one code for most characters. */
function isPairAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xd800 && code <= 0xdbff && (text.codePointAt(index) ?? 0) > 0xffff;
}

/**
 * The known words of `text`: runs of letters and digits (`[\p{L}\p{N}]+`), read by one scan
 * of character codes, with a pattern only for characters outside ASCII.
 */
function wordsOf(text: string, ids: WordIds): Words {
  const words: Words = { count: 0, ids: [], starts: [], ends: [], runStarts: [] };
  // The end of the word before, known or not, and whether it was known.
  let previousEnd = -1;
  let previousKnown = false;
  const length = text.length;
  for (let index = 0; index < length; ) {
    const width = wordCharacterAt(text, index);
    if (width === 0) {
      // A character outside a word: a surrogate pair is stepped over whole.
      index += isPairAt(text, index) ? 2 : 1;
      continue;
    }
    const start = index;
    index += width;
    while (index < length) {
      const next = wordCharacterAt(text, index);
      if (next === 0) break;
      index += next;
    }
    const id = ids.knownAt(text, start, index);
    if (id !== UNKNOWN_ID) {
      const count = words.count++;
      const joined = previousKnown && joins(text, previousEnd, start);
      words.runStarts.push(joined ? (words.runStarts[count - 1] as number) : count);
      words.ids.push(id);
      words.starts.push(start);
      words.ends.push(index);
    }
    previousEnd = index;
    previousKnown = id !== UNKNOWN_ID;
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
  // Most lines of a long reply hold no word of any name: nothing to hash.
  if (words.count === 0) return [];
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
