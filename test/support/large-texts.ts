/** Large inputs of known shapes, the same on every run. */

/** A small deterministic generator (mulberry32), so "random" texts repeat exactly. */
export function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const WORDS = (
  "the committee voted to hold interest rates steady while noting that inflation remained " +
  "elevated and labour markets tight; forecasters expect a cut before the year ends, though " +
  "several members argued that growth in services, wages and housing costs could delay it"
).split(" ");

/** English-like prose with punctuation and paragraphs. */
export function prose(characters: number, seed = 1): string {
  const random = randomSource(seed);
  const parts: string[] = [];
  let length = 0;
  for (let index = 0; length < characters; index++) {
    const word = WORDS[Math.floor(random() * WORDS.length)] as string;
    const piece = index % 17 === 16 ? `${word}.\n\n` : index % 6 === 5 ? `${word}, ` : `${word} `;
    parts.push(piece);
    length += piece.length;
  }
  return parts.join("").slice(0, characters);
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** What a pasted binary attachment looks like: base64 with no line breaks. */
export function base64Blob(characters: number, seed = 2): string {
  const random = randomSource(seed);
  const chunks: string[] = [];
  for (let left = characters; left > 0; left -= 10_000) {
    const codes = Array.from({ length: Math.min(left, 10_000) }, () =>
      BASE64.charCodeAt(Math.floor(random() * 64)),
    );
    chunks.push(String.fromCharCode(...codes));
  }
  return chunks.join("");
}

/** Random CJK ideographs: about two tokens per character, and no spaces at all. */
export function cjkText(characters: number, seed = 3): string {
  const random = randomSource(seed);
  const chunks: string[] = [];
  for (let left = characters; left > 0; left -= 10_000) {
    const codes = Array.from({ length: Math.min(left, 10_000) }, () =>
      Math.floor(0x4e00 + random() * 20_000),
    );
    chunks.push(String.fromCharCode(...codes));
  }
  return chunks.join("");
}
