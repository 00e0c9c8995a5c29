/**
 * The readable text of HTML, read the way a caller's profile says. Feeds and providers read
 * markup differently on purpose (feed text is stored, and must read tomorrow as it read
 * yesterday); what differs is data in their profiles, and the reading itself is written once.
 * Every step is linear in the input: text from outside cannot stall a reader with unclosed tags,
 * comments or hidden elements.
 */

/** A kind of markup a reading removes. */
export type MarkupKind = "comments" | "hidden elements" | "block tags" | "tags";

export interface TextProfile {
  /**
   * The kinds of markup each reading of the whole text removes, readings in order. Within one
   * reading each piece of markup is taken as it comes; a later reading sees only what earlier
   * ones left, so markup it would have read through may have been cut out of it.
   */
  readonly readings: readonly (readonly MarkupKind[])[];
  /**
   * "loose": a tag runs from `<` and a letter to the next `>`, whatever lies between. "strict":
   * a tag's name is letters and digits and nothing in it is `<`, so a stray `<` is text.
   */
  readonly tags: "loose" | "strict";
  /** Tags that end a line: they become line breaks rather than vanish between words. */
  readonly blockTags: ReadonlySet<string>;
  /** Elements whose content is never text a reader sees, removed from opening to closing tag. */
  readonly hiddenElements: ReadonlySet<string>;
  /** What a comment or hidden element becomes: "" joins the text around it, " " keeps it apart. */
  readonly removedAs: "" | " ";
  /** A comment or hidden element that is never closed: left as text, or all from it dropped. */
  readonly unclosed: "kept" | "dropped";
  /** Named entities decoded, looked up in lower case. */
  readonly namedEntities: Readonly<Record<string, string>>;
  /** What a numeric reference to no character (`&#0;`, a surrogate) becomes; null: as written. */
  readonly invalidReference: string | null;
  /** What ends a line of text; any other whitespace is a space. */
  readonly lineBreaks: RegExp;
  /** Whether a run of blank lines stays as one blank line (a paragraph break) or goes. */
  readonly paragraphs: boolean;
}

/** Tags both readers end a line at. */
export const BLOCK_TAGS: readonly string[] = [
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
];

/** Elements both readers hide. */
export const HIDDEN_ELEMENTS: readonly string[] = ["script", "style", "noscript", "template"];

/** Entities both readers decode. */
export const NAMED_ENTITIES: Readonly<Record<string, string>> = {
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
};

/** HTML as text: markup removed, then entities decoded (once), then whitespace laid out. */
export function readableText(html: string, profile: TextProfile): string {
  return textLines(decodeEntities(removeMarkup(html, profile), profile), profile);
}

/** The text with the profile's markup removed, reading after reading. */
export function removeMarkup(html: string, profile: TextProfile): string {
  let text = html;
  for (const kinds of profile.readings) text = new Reading(text, kinds, profile).withoutMarkup();
  return text;
}

/** What replaces the markup from a `<` up to `end`. */
interface Removal {
  end: number;
  replacement: string;
}

/** A tag as the profile sees it: the opening of a hidden element, a block tag, or inline. */
interface Tag {
  kind: "hidden" | "block" | "inline";
  /** In lower case. */
  name: string;
  /** Just after its `>`. */
  end: number;
}

/** `<` and a tag's name; a loose tag runs on to the next `>`. */
const LOOSE_TAG_START = /<(\/?)([A-Za-z]\w*)/y;
/** A tag with no bracket inside: a stray `<` costs one short scan. */
const STRICT_TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^<>]*>/y;

/**
 * One reading of a text from start to end, removing markup of the given kinds: at each `<` the
 * markup there, if of a kind removed, is replaced and reading goes on after it; otherwise the `<`
 * is text and reading goes on from the next character. Each search for what closes markup (`>`,
 * `-->`, `</name>`) is remembered, so a run of markup that never closes is searched to the end
 * once rather than once per `<`.
 */
class Reading {
  private readonly comments: boolean;
  private readonly hidden: boolean;
  private readonly blocks: boolean;
  private readonly tags: boolean;
  private readonly searches = new Map<string, ForwardSearch>();

  constructor(
    private readonly html: string,
    kinds: readonly MarkupKind[],
    private readonly profile: TextProfile,
  ) {
    this.comments = kinds.includes("comments");
    this.hidden = kinds.includes("hidden elements");
    this.blocks = kinds.includes("block tags");
    this.tags = kinds.includes("tags");
  }

  /** The text with the markup removed; copied a run at a time, up to the next removal. */
  withoutMarkup(): string {
    const html = this.html;
    if (!this.mayRemove()) return html;
    let text = "";
    let copied = 0;
    for (let at = html.indexOf("<"); at >= 0; ) {
      // Markup ends at a ">" (of a tag, "-->" or a closing tag): with none left, nothing more
      // is removed, unless an unclosed comment or element takes the rest with it.
      if (this.profile.unclosed === "kept" && this.endAfter(">", at) === null) break;
      const removal = this.removalAt(at);
      if (removal === null) {
        at = html.indexOf("<", at + 1);
        continue;
      }
      text += html.slice(copied, at) + removal.replacement;
      copied = removal.end;
      at = html.indexOf("<", removal.end);
    }
    return copied === 0 ? html : text + html.slice(copied);
  }

  /**
   * Whether any markup of this reading's kinds could be removed: each ends at what closes it
   * (`>`, `-->`, a closing tag) unless an unclosed one is dropped. Checked first with one search
   * each, so a reading with nothing to remove does not look at every `<` of a hostile text.
   */
  private mayRemove(): boolean {
    const html = this.html;
    if ((this.blocks || this.tags) && html.includes(">")) return true;
    if (this.profile.unclosed === "dropped") return this.comments || this.hidden;
    if (this.comments && html.includes("-->")) return true;
    return (
      this.hidden &&
      [...this.profile.hiddenElements].some((name) => {
        const closing = closingTag(name);
        closing.lastIndex = 0;
        return closing.test(html);
      })
    );
  }

  private removalAt(at: number): Removal | null {
    if (this.html.startsWith("<!--", at)) {
      return this.comments ? this.closedAt(this.endAfter("-->", at + 4)) : null;
    }
    const tag = this.tagAt(at);
    if (tag === null) return null;
    if (tag.kind === "hidden" && this.hidden) {
      const removal = this.closedAt(this.endAfter(closingTag(tag.name), tag.end));
      if (removal !== null) return removal;
    }
    if (tag.kind === "block" && this.blocks) return { end: tag.end, replacement: "\n" };
    return this.tags ? { end: tag.end, replacement: "" } : null;
  }

  /** The removal of a comment or hidden element ending at `end` (null: never closed). */
  private closedAt(end: number | null): Removal | null {
    const { removedAs, unclosed } = this.profile;
    if (end !== null) return { end, replacement: removedAs };
    return unclosed === "dropped" ? { end: this.html.length, replacement: removedAs } : null;
  }

  /** The tag at `at`, if one this reading removes; where it ends is only sought then. */
  private tagAt(at: number): Tag | null {
    if (!(this.hidden || this.blocks || this.tags)) return null;
    const strict = this.profile.tags === "strict";
    const pattern = strict ? STRICT_TAG : LOOSE_TAG_START;
    pattern.lastIndex = at;
    const match = pattern.exec(this.html);
    if (match === null) return null;
    const name = (match[2] ?? "").toLowerCase();
    const kind = this.kindOf(name, match[1] === "/");
    const removed =
      this.tags || (kind === "hidden" ? this.hidden : kind === "block" && this.blocks);
    if (!removed) return null;
    const end = strict ? pattern.lastIndex : this.endAfter(">", at);
    return end === null ? null : { kind, name, end };
  }

  private kindOf(name: string, closing: boolean): Tag["kind"] {
    if (!closing && this.profile.hiddenElements.has(name)) return "hidden";
    return this.profile.blockTags.has(name) ? "block" : "inline";
  }

  /** Just after the first match at or after `from` of a string or global pattern; null: none. */
  private endAfter(sought: string | RegExp, from: number): number | null {
    const key = typeof sought === "string" ? sought : sought.source;
    let search = this.searches.get(key);
    if (search === undefined) {
      search = new ForwardSearch(this.html, sought);
      this.searches.set(key, search);
    }
    return search.endFrom(from);
  }
}

const closingTags = new Map<string, RegExp>();

/**
 * The closing tag of an element: any case, spaces allowed before `>`. Made once per name: a
 * text of thousands of unclosed `<script>` would otherwise make a pattern for each.
 */
function closingTag(name: string): RegExp {
  let pattern = closingTags.get(name);
  if (pattern === undefined) {
    pattern = new RegExp(`<\\/${name}\\s*>`, "gi");
    closingTags.set(name, pattern);
  }
  return pattern;
}

/**
 * The first match of a string or global pattern at or after a position, the last answer
 * remembered: it stands for any later position up to the match, and for every later one when
 * there was none.
 */
class ForwardSearch {
  private from = Number.POSITIVE_INFINITY;
  private found: { at: number; end: number } | null = null;

  constructor(
    private readonly text: string,
    private readonly sought: string | RegExp,
  ) {}

  /** Just after the first match at or after `from`; null when there is none. */
  endFrom(from: number): number | null {
    const known = from >= this.from && (this.found === null || this.found.at >= from);
    if (!known) {
      this.from = from;
      this.found = this.search(from);
    }
    return this.found === null ? null : this.found.end;
  }

  private search(from: number): { at: number; end: number } | null {
    if (typeof this.sought === "string") {
      const at = this.text.indexOf(this.sought, from);
      return at < 0 ? null : { at, end: at + this.sought.length };
    }
    this.sought.lastIndex = from;
    const match = this.sought.exec(this.text);
    return match === null ? null : { at: match.index, end: match.index + match[0].length };
  }
}

const ENTITY = /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/g;

/** Character references decoded once: numeric ones, and the named ones of the profile. */
export function decodeEntities(text: string, profile: TextProfile): string {
  if (!text.includes("&")) return text;
  return text.replace(ENTITY, (entity, body: string) => {
    if (body.startsWith("#")) return decodeNumeric(body) ?? profile.invalidReference ?? entity;
    const name = body.toLowerCase();
    // Own names only: an inherited one (`&constructor;`) would read as a function's source.
    return Object.hasOwn(profile.namedEntities, name)
      ? (profile.namedEntities[name] ?? entity)
      : entity;
  });
}

/** The character of a `#…` or `#x…` reference; null when it names none. */
function decodeNumeric(body: string): string | null {
  const hex = body[1] === "x" || body[1] === "X";
  const codePoint = Number.parseInt(body.slice(hex ? 2 : 1), hex ? 16 : 10);
  const surrogate = codePoint >= 0xd800 && codePoint <= 0xdfff;
  return codePoint > 0 && codePoint <= 0x10ffff && !surrogate
    ? String.fromCodePoint(codePoint)
    : null;
}

/** Spaces collapsed within lines, lines trimmed, blank lines dropped or kept as one. */
function textLines(text: string, profile: TextProfile): string {
  const kept: string[] = [];
  for (const line of text.split(profile.lineBreaks)) {
    const collapsed = line.replace(/\s+/g, " ").trim();
    if (collapsed !== "") kept.push(collapsed);
    else if (profile.paragraphs && kept.length > 0 && kept[kept.length - 1] !== "") kept.push("");
  }
  while (kept.length > 0 && kept[kept.length - 1] === "") kept.pop();
  return kept.join("\n");
}
