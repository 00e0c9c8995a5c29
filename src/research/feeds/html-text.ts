/** Elements whose content is never text a reader sees. */
const HIDDEN = /<(script|style|noscript|template|iframe|svg)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const COMMENT = /<!--[\s\S]*?-->/g;
/** Tags that end a block of text: they become line breaks rather than vanish between words. */
const BLOCK =
  /<\/?(p|div|br|li|ul|ol|h[1-6]|tr|td|th|dt|dd|table|blockquote|section|article|header|footer|pre|hr|figure|figcaption)\b[^>]*>/gi;
const TAG = /<\/?[A-Za-z][^>]*>/g;
const ENTITY = /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/g;

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  laquo: "«",
  raquo: "»",
  copy: "©",
  reg: "®",
  trade: "™",
  euro: "€",
  pound: "£",
  deg: "°",
  middot: "·",
  bull: "•",
};

/**
 * The readable text of an HTML fragment (a feed item's description or content): tags dropped,
 * entities decoded, whitespace collapsed, paragraphs kept as line breaks. Feeds carry small
 * fragments, so regular expressions suffice; the text is only indexed and quoted, never rendered.
 */
export function htmlToText(html: string): string {
  const text = html
    .replace(COMMENT, " ")
    .replace(HIDDEN, " ")
    .replace(BLOCK, "\n")
    // Inline tags (b, a, span) sit inside sentences: dropping them keeps words and stops intact.
    .replace(TAG, "")
    .replace(ENTITY, decodeEntity);
  return text
    .split("\n")
    .map((line) => line.replace(/[\s\u00a0]+/g, " ").trim())
    .filter((line) => line !== "")
    .join("\n");
}

function decodeEntity(entity: string, body: string): string {
  if (body.startsWith("#")) {
    const code =
      body[1] === "x" || body[1] === "X"
        ? Number.parseInt(body.slice(2), 16)
        : Number.parseInt(body.slice(1), 10);
    const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
    return valid ? String.fromCodePoint(code) : " ";
  }
  return NAMED[body] ?? NAMED[body.toLowerCase()] ?? entity;
}
