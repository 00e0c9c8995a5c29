/** Characters of a snippet: a few sentences, enough to judge relevance. */
export const SNIPPET_CHARACTERS = 320;

/** How much of the snippet comes before the first matching word. */
const LEAD_CHARACTERS = 80;

/**
 * A short passage of `text` around the first word that starts like one of `terms` (the index
 * stems words, so "election" should find "elections"), or its opening when none is found.
 */
export function excerpt(text: string, terms: readonly string[]): string {
  // Only the neighbourhood of the match is tidied up: an article may be long.
  const at = firstMatch(text, terms);
  const from = whole(text, Math.max(0, at - 2 * LEAD_CHARACTERS));
  const to = whole(text, Math.min(text.length, at + 2 * SNIPPET_CHARACTERS));
  const cutBefore = from > 0;
  const cutAfter = to < text.length;
  const flat = text.slice(from, to).replace(/\s+/g, " ").trim();
  if (!cutBefore && !cutAfter && flat.length <= SNIPPET_CHARACTERS) return flat;
  const near = firstMatch(flat, terms);
  const start =
    !cutBefore && near <= LEAD_CHARACTERS
      ? 0
      : wordStartAfter(flat, Math.max(0, near - LEAD_CHARACTERS));
  const end = Math.min(flat.length, start + SNIPPET_CHARACTERS);
  const cut = end < flat.length ? wordEndBefore(flat, end, start) : end;
  const opening = start > 0 || cutBefore ? "…" : "";
  const closing = cut < flat.length || cutAfter ? "…" : "";
  return `${opening}${flat.slice(start, cut).trim()}${closing}`;
}

/** Cuts `text` to at most `limit` characters, ending on a whole word with an ellipsis. */
export function shorten(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= limit) return flat;
  return `${flat.slice(0, wordEndBefore(flat, limit - 1, 0)).trim()}…`;
}

function firstMatch(text: string, terms: readonly string[]): number {
  if (terms.length === 0) return 0;
  // Terms are letters, marks and digits only (query-terms.ts): nothing in them is regex syntax.
  const pattern = new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])(?:${terms.join("|")})`, "iu");
  return pattern.exec(text)?.index ?? 0;
}

function wordStartAfter(text: string, index: number): number {
  const space = text.indexOf(" ", index);
  return space === -1 || space - index > 20 ? whole(text, index) : space + 1;
}

function wordEndBefore(text: string, index: number, floor: number): number {
  const space = text.lastIndexOf(" ", index);
  return space <= floor || index - space > 20 ? whole(text, index) : space;
}

/** Moves a cut off the middle of a surrogate pair, so no half of a character is left over. */
function whole(text: string, index: number): number {
  const unit = text.charCodeAt(index);
  return unit >= 0xdc00 && unit <= 0xdfff ? index - 1 : index;
}
