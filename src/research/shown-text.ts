import { decodeEntities, stripTags } from "./providers/plain-text.js";

/** Rounds of tag stripping and entity decoding: `&amp;nbsp;` needs two, nested tricks a third. */
const DECODING_ROUNDS = 3;
/**
 * Format characters (soft hyphen, zero-width space and joiners, direction marks, BOM, tags) and
 * the other characters Unicode says a renderer may leave unseen (the combining grapheme joiner,
 * variation selectors).
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
/**
 * Characters drawn as an empty cell, though Unicode counts them neither spaces nor ignorable in
 * text at large: the Hangul fillers and the braille blank. A reader sees a space.
 */
const BLANK = /[\u115f\u1160\u3164\uffa0\u2800]/gu;
/** CDATA markers (their content is text) and declarations or processing instructions. */
const HIDDEN_MARKUP = /<!\[CDATA\[|\]\]>|<[!?][^<>]*>/g;
/**
 * An entity with any escaped ampersands before it (`&amp;amp;nbsp;`), or a tag: what is left of
 * them once the rounds are spent.
 */
const MARKUP =
  /&(?:amp;)*(?:#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,14});|<\/?[a-zA-Z!?][^<>]*>/g;
/**
 * Runs of whitespace other than one plain space: a run opened by another space character, or a
 * space followed by more. A lone space, the gap between most words, is left as it is rather than
 * replaced by itself.
 */
const WHITESPACE = /[^\S ]\s*| \s+/gu;

/**
 * A field as the model reads it: Unicode NFKC (full-width digits become ASCII), blank-looking
 * characters a space, invisible characters removed, HTML tags, CDATA markers and declarations
 * removed and entities decoded, all repeated until nothing changes (so that no encoded tag or
 * entity, nor one re-formed by removing what split it, survives into the prompt as a readable
 * one); markup nested deeper than the rounds reach is cut out; and every run of whitespace, line
 * breaks included, one space. The leak guard reads exactly this text.
 */
export function shownText(raw: string): string {
  let text = raw;
  let settled = false;
  for (let round = 0; round < DECODING_ROUNDS && !settled; round++) {
    const visible = text.normalize("NFKC").replace(BLANK, " ").replace(INVISIBLE, "");
    const unmarked = visible.includes("<")
      ? stripTags(visible.replace(HIDDEN_MARKUP, ""))
      : visible;
    const decoded = decodeEntities(unmarked);
    settled = decoded === text;
    text = decoded;
  }
  if (!settled) {
    text = text.normalize("NFKC").replace(BLANK, " ").replace(INVISIBLE, "").replace(MARKUP, " ");
  }
  return text.replace(WHITESPACE, " ").trim();
}

/** Runs of percent-escapes: each is decoded on its own, so one malformed escape spoils no other. */
const ESCAPE_RUN = /(?:%[0-9A-Fa-f]{2})+/g;
const UTF8 = new TextDecoder("utf-8");

/**
 * An address with its percent-escapes decoded, as a reader (or a model) would read it. Bytes
 * that are no UTF-8 become U+FFFD, as a browser shows them.
 */
export function decodedUrl(url: string): string {
  const decoded = url.replaceAll("+", " ").replace(ESCAPE_RUN, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let index = 0; index < bytes.length; index++) {
      bytes[index] = Number.parseInt(run.slice(3 * index + 1, 3 * index + 3), 16);
    }
    return UTF8.decode(bytes);
  });
  return shownText(decoded);
}
