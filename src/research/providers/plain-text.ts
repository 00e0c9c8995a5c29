import {
  BLOCK_TAGS,
  decodeEntities as decodeWith,
  HIDDEN_ELEMENTS,
  NAMED_ENTITIES,
  readableText,
  removeMarkup,
  type TextProfile,
} from "../readable-text.js";

/** Longest raw field read; anything beyond is cut before conversion, bounding the work per item. */
const MAX_RAW_CHARS = 100_000;

/**
 * How providers' fields are read: all markup in one reading, each piece as it comes; a tag holds
 * no `<` (a stray one costs one short scan); a hidden element never closed hides the rest;
 * paragraph breaks are kept; spaces and invisible characters written as entities are decoded.
 */
const PROVIDER_TEXT: TextProfile = {
  readings: [["comments", "hidden elements", "block tags", "tags"]],
  tags: "strict",
  blockTags: new Set([...BLOCK_TAGS, "address"]),
  hiddenElements: new Set(HIDDEN_ELEMENTS),
  removedAs: "",
  unclosed: "dropped",
  namedEntities: {
    ...NAMED_ENTITIES,
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
  },
  invalidReference: null,
  lineBreaks: /\r\n|[\n\r\u2028\u2029]/,
  paragraphs: true,
};

/**
 * Readable text from a provider's field, which may hold HTML (search highlights such as
 * `<strong>`, page extracts): tags and hidden elements removed, entities decoded, blank runs
 * collapsed (paragraph breaks kept), at most `maxChars` characters. Runs in linear time.
 */
export function plainText(input: string, maxChars: number): string {
  const raw = input.length > MAX_RAW_CHARS ? input.slice(0, MAX_RAW_CHARS) : input;
  return truncate(readableText(raw, PROVIDER_TEXT), maxChars);
}

/** The text between an HTML fragment's tags; block tags become line breaks. Linear time. */
export function stripTags(html: string): string {
  return removeMarkup(html, PROVIDER_TEXT);
}

/** Character references decoded once (numeric, and the named ones news text uses). */
export function decodeEntities(text: string): string {
  return decodeWith(text, PROVIDER_TEXT);
}

/** Cuts at `maxChars` without leaving half of a surrogate pair, marking the cut with "…". */
function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = Math.max(0, maxChars - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}
