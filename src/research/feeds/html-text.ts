import {
  BLOCK_TAGS,
  HIDDEN_ELEMENTS,
  NAMED_ENTITIES,
  readableText,
  type TextProfile,
} from "../readable-text.js";

/**
 * How feed items are read. Their text is stored in the news archive and compared when an item is
 * fetched again, so this reading must not change: each kind of markup is removed in a reading of
 * its own (comments, then hidden elements, then block tags, then the rest), tags run to the next
 * `>`, and what is cut out of a sentence leaves a space.
 */
const FEED_TEXT: TextProfile = {
  readings: [["comments"], ["hidden elements"], ["block tags"], ["tags"]],
  tags: "loose",
  blockTags: new Set([...BLOCK_TAGS, "ul", "ol", "figure"]),
  hiddenElements: new Set([...HIDDEN_ELEMENTS, "iframe", "svg"]),
  removedAs: " ",
  unclosed: "kept",
  namedEntities: {
    ...NAMED_ENTITIES,
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
  },
  invalidReference: " ",
  lineBreaks: /\n/,
  paragraphs: false,
};

/**
 * The readable text of an HTML fragment (a feed item's description or content): tags dropped,
 * entities decoded, whitespace collapsed, paragraphs kept as line breaks. The text is only
 * indexed and quoted, never rendered.
 */
export function htmlToText(html: string): string {
  return readableText(html, FEED_TEXT);
}
