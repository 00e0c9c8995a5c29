import { describe, expect, it } from "vitest";
import {
  BLOCK_TAGS,
  HIDDEN_ELEMENTS,
  NAMED_ENTITIES,
  readableText,
  type TextProfile,
} from "../../src/research/readable-text.js";

/** One reading, strict tags, paragraphs: each case below changes one setting of it. */
const BASE: TextProfile = {
  readings: [["comments", "hidden elements", "block tags", "tags"]],
  tags: "strict",
  blockTags: new Set(BLOCK_TAGS),
  hiddenElements: new Set(HIDDEN_ELEMENTS),
  removedAs: "",
  unclosed: "dropped",
  namedEntities: NAMED_ENTITIES,
  invalidReference: null,
  lineBreaks: /\r\n|[\n\r\u2028\u2029]/,
  paragraphs: true,
};

/** The other way of reading: kind by kind, tags running to the next `>`, what never closes kept. */
const LAYERED: TextProfile = {
  ...BASE,
  readings: [["comments"], ["hidden elements"], ["block tags"], ["tags"]],
  tags: "loose",
  unclosed: "kept",
};

describe("readable text, setting by setting", () => {
  it.each<[string, Partial<TextProfile>, string, string, string]>([
    // One reading takes the outer tag whole; reading block tags first cuts it, and what is left
    // of it closes further on.
    ["readings", { readings: LAYERED.readings }, "a<b <p>c>d", "ac>d", "ad"],
    ["tags", { tags: "strict" }, 'a<b title="1<2">c', "ac", 'a<b title="1<2">c'],
    ["tags", { tags: "strict" }, "a<b_x>c", "ac", "a<b_x>c"],
  ])("%s: %s", (_, change, html, before, after) => {
    const loose: TextProfile = { ...BASE, tags: "loose" };
    expect(readableText(html, loose)).toBe(before);
    expect(readableText(html, { ...loose, ...change })).toBe(after);
  });

  it.each<[string, Partial<TextProfile>, string, string, string]>([
    ["removedAs", { removedAs: " " }, "a<!-- x -->b<style>p{}</style>c", "abc", "a b c"],
    ["unclosed", { unclosed: "kept" }, "a <script>b", "a", "a b"],
    ["unclosed", { unclosed: "kept" }, "a <!-- b", "a", "a <!-- b"],
    ["namedEntities", { namedEntities: { copy: "©" } }, "&copy; &amp;", "&copy; &", "© &amp;"],
    ["invalidReference", { invalidReference: " " }, "a&#0;b&#xD800;c", "a&#0;b&#xD800;c", "a b c"],
    ["lineBreaks", { lineBreaks: /\n/ }, "a\rb\u2028c", "a\nb\nc", "a b c"],
    ["paragraphs", { paragraphs: false }, "a<p>b</p><p>c", "a\nb\n\nc", "a\nb\nc"],
  ])("%s: %s", (_, change, html, before, after) => {
    expect(readableText(html, BASE)).toBe(before);
    expect(readableText(html, { ...BASE, ...change })).toBe(after);
  });

  it("reads a name only its table holds: an inherited one is text", () => {
    const html = "&constructor; &toString; &valueOf; &AMP;";
    for (const profile of [BASE, LAYERED]) {
      expect(readableText(html, profile)).toBe("&constructor; &toString; &valueOf; &");
    }
  });

  it("decodes once, so decoded text is never read as markup", () => {
    expect(readableText("&lt;p&gt;a&amp;lt;", BASE)).toBe("<p>a&lt;");
  });

  // Far above the milliseconds linear reading takes, far below what reading from each "<" to
  // the end would take on a megabyte.
  it.each([
    ["unclosed tags", "<a".repeat(500_000)],
    ["unclosed comments", "<!--".repeat(250_000)],
    ["unclosed hidden elements", "<script>".repeat(125_000)],
    ["tags cut by a bracket", "<p x".repeat(250_000)],
  ])("reads a megabyte of %s at once, in either way of reading", (_, html) => {
    for (const profile of [BASE, LAYERED]) {
      const started = performance.now();
      readableText(html, profile);
      expect(performance.now() - started).toBeLessThan(5_000);
    }
  });
});
