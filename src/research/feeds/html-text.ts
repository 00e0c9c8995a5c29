/** Elements whose content is never text a reader sees. */
const HIDDEN_NAME = /(script|style|noscript|template|iframe|svg)\b/iy;
/** Tags that end a block of text: they become line breaks rather than vanish between words. */
const BLOCK =
  /<\/?(p|div|br|li|ul|ol|h[1-6]|tr|td|th|dt|dd|table|blockquote|section|article|header|footer|pre|hr|figure|figcaption)\b[^>]*>/gi;
const TAG = /<\/?[A-Za-z][^>]*>/g;
const COMMENT = /<!--[\s\S]*?-->/g;
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
 * entities decoded, whitespace collapsed, paragraphs kept as line breaks. The text is only
 * indexed and quoted, never rendered. Feeds come from outside, so every step is linear in the
 * fragment: a feed of unclosed tags or comments cannot stall the watcher.
 */
export function htmlToText(html: string): string {
  const withoutComments = replaceBeforeLast(html, "-->", COMMENT, " ");
  const text = replaceBeforeLast(
    replaceBeforeLast(withoutHidden(withoutComments), ">", BLOCK, "\n"),
    ">",
    // Inline tags (b, a, span) sit inside sentences: dropping them keeps words and stops intact.
    TAG,
    "",
  ).replace(ENTITY, decodeEntity);
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

/**
 * `text.replace(pattern, replacement)` for a pattern whose every match ends with `end`: no match
 * can start after the last `end`, so the text after it is left unsearched. Searching it would
 * try each `<` there to the end of the text, quadratic in a run of unclosed tags.
 */
function replaceBeforeLast(text: string, end: string, pattern: RegExp, replacement: string) {
  const last = text.lastIndexOf(end);
  if (last < 0) return text;
  const head = text.slice(0, last + end.length);
  return head.replace(pattern, replacement) + text.slice(head.length);
}

/**
 * The text with each hidden element (from `<script …>` to the first `</script>` after it, any
 * case, spaces allowed before `>`) replaced by a space. An element whose closing tag never
 * comes is left in place, and the search goes on from the character after its `<`. Where each
 * name's closing tag was last found is kept, so a run of unclosed elements is read once.
 */
function withoutHidden(text: string): string {
  const closings: Closings = new Map();
  let out = "";
  let copied = 0;
  let tagEnd = -1;
  for (let at = text.indexOf("<"); at >= 0; at = text.indexOf("<", at + 1)) {
    HIDDEN_NAME.lastIndex = at + 1;
    const name = HIDDEN_NAME.exec(text)?.[1]?.toLowerCase();
    if (name === undefined) continue;
    if (tagEnd < at) tagEnd = text.indexOf(">", at);
    if (tagEnd < 0) break;
    const closing = closingAfter(text, name, tagEnd + 1, closings);
    if (closing === null) continue;
    out += `${text.slice(copied, at)} `;
    copied = closing;
    at = closing - 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Per element name, the first closing tag found at or after `from` (`at` -1: none). */
type Closings = Map<string, { from: number; at: number; end: number }>;

/** The end of the first `</name>` at or after `from`, remembered per name; null when none. */
function closingAfter(text: string, name: string, from: number, closings: Closings): number | null {
  const known = closings.get(name);
  if (known !== undefined && known.from <= from && (known.at < 0 || known.at >= from)) {
    return known.at < 0 ? null : known.end;
  }
  const pattern = new RegExp(`<\\/${name}\\s*>`, "gi");
  pattern.lastIndex = from;
  const found = pattern.exec(text);
  closings.set(name, {
    from,
    at: found ? found.index : -1,
    end: found ? found.index + found[0].length : -1,
  });
  return found ? found.index + found[0].length : null;
}
