/** Longest raw field read; anything beyond is cut before conversion, bounding the work per item. */
const MAX_RAW_CHARS = 100_000;

/** Tags that end a line of text; every other tag is removed without a trace. */
const BLOCK_TAGS = new Set([
  "address",
  "article",
  "blockquote",
  "br",
  "dd",
  "div",
  "dt",
  "figcaption",
  "footer",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "li",
  "p",
  "pre",
  "section",
  "table",
  "td",
  "th",
  "tr",
]);

/** Elements whose content is not text a reader sees. */
const HIDDEN_ELEMENTS = new Set(["script", "style", "noscript", "template"]);

/** A tag from `<`: `[^<>]*` stops at the next bracket, so a stray `<` costs one short scan. */
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^<>]*>/y;

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
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
  ensp: " ",
  emsp: " ",
  thinsp: " ",
  hairsp: " ",
  numsp: " ",
  puncsp: " ",
  mediumspace: " ",
  zerowidthspace: "",
  nobreak: "",
  shy: "",
  zwnj: "",
  zwj: "",
  lrm: "",
  rlm: "",
  minus: "−",
  hyphen: "‐",
  dash: "‐",
  sol: "/",
  period: ".",
  comma: ",",
  colon: ":",
  semi: ";",
  num: "#",
};

const ENTITY = /&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,14});/g;

/**
 * Readable text from a provider's field, which may hold HTML (search highlights such as
 * `<strong>`, page extracts): tags and hidden elements removed, entities decoded, blank runs
 * collapsed (paragraph breaks kept), at most `maxChars` characters. Runs in linear time.
 */
export function plainText(input: string, maxChars: number): string {
  const raw = input.length > MAX_RAW_CHARS ? input.slice(0, MAX_RAW_CHARS) : input;
  const text = decodeEntities(raw.includes("<") ? stripTags(raw) : raw);
  return truncate(collapseWhitespace(text), maxChars);
}

/** The text between an HTML fragment's tags; block tags become line breaks. Linear time. */
export function stripTags(html: string): string {
  let text = "";
  // Text is copied a run at a time, from `kept` up to the next tag: a "<" that opens no tag
  // stays in the run rather than costing a copy of its own.
  let kept = 0;
  let position = 0;
  while (position < html.length) {
    const open = html.indexOf("<", position);
    if (open === -1) break;
    if (html.startsWith("<!--", open)) {
      text += html.slice(kept, open);
      const close = html.indexOf("-->", open + 4);
      position = close === -1 ? html.length : close + 3;
      kept = position;
      continue;
    }
    TAG.lastIndex = open;
    const tag = TAG.exec(html);
    if (!tag) {
      position = open + 1;
      continue;
    }
    text += html.slice(kept, open);
    const closing = tag[1] === "/";
    const name = (tag[2] ?? "").toLowerCase();
    position = TAG.lastIndex;
    if (!closing && HIDDEN_ELEMENTS.has(name)) {
      position = endOfElement(html, name, position);
    } else if (BLOCK_TAGS.has(name)) {
      text += "\n";
    }
    kept = position;
  }
  return kept < html.length ? text + html.slice(kept) : text;
}

/** Where the element's closing tag ends; the end of the input when it is never closed. */
function endOfElement(html: string, name: string, from: number): number {
  const closer = new RegExp(`</${name}\\s*>`, "gi");
  closer.lastIndex = from;
  const match = closer.exec(html);
  return match ? match.index + match[0].length : html.length;
}

/** Character references decoded once (numeric, and the named ones news text uses). */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(ENTITY, (entity, body: string) => {
    if (body.startsWith("#")) {
      const hex = body[1] === "x" || body[1] === "X";
      const codePoint = Number.parseInt(body.slice(hex ? 2 : 1), hex ? 16 : 10);
      const valid = codePoint > 0 && codePoint <= 0x10ffff && !isSurrogate(codePoint);
      return valid ? String.fromCodePoint(codePoint) : entity;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
  });
}

function isSurrogate(codePoint: number): boolean {
  return codePoint >= 0xd800 && codePoint <= 0xdfff;
}

/** Spaces collapsed within lines, lines trimmed, runs of blank lines kept as one paragraph break. */
function collapseWhitespace(text: string): string {
  const lines = text.split(/\r\n|[\n\r\u2028\u2029]/);
  const kept: string[] = [];
  for (const line of lines) {
    const collapsed = line.replace(/\s+/g, " ").trim();
    if (collapsed !== "") kept.push(collapsed);
    else if (kept.length > 0 && kept[kept.length - 1] !== "") kept.push("");
  }
  while (kept.length > 0 && kept[kept.length - 1] === "") kept.pop();
  return kept.join("\n");
}

/** Cuts at `maxChars` without leaving half of a surrogate pair, marking the cut with "…". */
function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = Math.max(0, maxChars - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}
