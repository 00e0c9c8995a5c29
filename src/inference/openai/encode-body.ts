import { randomUUID } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";

/** Bodies with less text than this are serialised in one go: it takes a millisecond or so. */
const LARGE_BODY_CHARACTERS = 1_000_000;

/** Characters of a long string escaped and encoded in one piece. */
const SLICE_CHARACTERS = 256_000;

/** Characters serialised between two turns of the event loop. */
const CHARACTERS_PER_TURN = 1_000_000;

/** Strings longer than this are written in slices, apart from the rest of the body. */
const LONG_STRING_CHARACTERS = 64_000;

/**
 * The upstream request body as UTF-8 bytes. A body holding megabytes of text (a long prompt) is
 * written in slices with turns of the event loop between them: serialising and encoding 5 MB in
 * one go holds the loop for tens of milliseconds, and every other request waits behind it.
 * The bytes are those `JSON.stringify` gives.
 */
export async function encodeBody(body: unknown, textCharacters: number): Promise<Buffer> {
  if (textCharacters <= LARGE_BODY_CHARACTERS) return Buffer.from(JSON.stringify(body));
  const { skeleton, longStrings, marker } = withLongStringsMarked(body);
  const pieces: Buffer[] = [];
  let sinceTurn = 0;
  const parts = skeleton.split(marker);
  for (let index = 0; index < parts.length; index++) {
    pieces.push(Buffer.from(parts[index] as string));
    const long = longStrings[index];
    if (long === undefined) continue;
    for (let start = 0; start < long.length; ) {
      const end = sliceEnd(long, start);
      const escaped = JSON.stringify(long.slice(start, end));
      pieces.push(Buffer.from(escaped.slice(1, -1)));
      sinceTurn += end - start;
      start = end;
      if (sinceTurn >= CHARACTERS_PER_TURN) {
        sinceTurn = 0;
        await nextTurn();
      }
    }
  }
  return Buffer.concat(pieces);
}

/** Where the slice from `start` ends: never between the two halves of a surrogate pair. */
function sliceEnd(text: string, start: number): number {
  const end = Math.min(start + SLICE_CHARACTERS, text.length);
  const last = text.charCodeAt(end - 1);
  // A lone half would be escaped as \uXXXX instead of encoded with its partner.
  return last >= 0xd800 && last <= 0xdbff && end < text.length ? end + 1 : end;
}

/**
 * The body serialised with each long string's contents left out: the skeleton holds the
 * string's quotes around a marker no request text can contain (a fresh random id), and
 * `longStrings[n]` is the string whose contents follow the skeleton's n-th part.
 */
function withLongStringsMarked(body: unknown): {
  skeleton: string;
  longStrings: string[];
  marker: string;
} {
  const marker = `\u0000${randomUUID()}\u0000`;
  const longStrings: string[] = [];
  const skeleton = JSON.stringify(body, (_key, value: unknown) => {
    if (typeof value !== "string" || value.length <= LONG_STRING_CHARACTERS) return value;
    longStrings.push(value);
    return marker;
  });
  // JSON.stringify escapes the marker's NUL characters; the escaped form is what appears.
  return { skeleton, longStrings, marker: JSON.stringify(marker).slice(1, -1) };
}
