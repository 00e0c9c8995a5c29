import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { htmlToText } from "../../../src/research/feeds/html-text.js";

/** The regular-expression reading the converter must keep giving, byte for byte: stored feed text depends on it. */
function reference(html: string): string {
  const hidden = /<(script|style|noscript|template|iframe|svg)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
  const block =
    /<\/?(p|div|br|li|ul|ol|h[1-6]|tr|td|th|dt|dd|table|blockquote|section|article|header|footer|pre|hr|figure|figcaption)\b[^>]*>/gi;
  const inner = html
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(hidden, " ")
    .replace(block, "\n")
    .replace(/<\/?[A-Za-z][^>]*>/g, "");
  // Entities and whitespace go through the converter itself, with each "<" left over escaped
  // so that it forms no new tag: only the tag steps are compared.
  return htmlToText(inner.replaceAll("<", "&lt;"));
}

const pieces = fc.constantFrom(
  "<",
  ">",
  "</",
  "<!--",
  "-->",
  "<p>",
  "</p>",
  "<b>",
  "<script>",
  "</script>",
  "</SCRIPT >",
  "<Style type=x>",
  "</style>",
  "<svg",
  "</svg>",
  "<noscript>",
  "</noscript>",
  "<scripts>",
  "<a href='x'>",
  "word",
  " ",
  "\n",
  "&amp;",
  "x",
);

describe("feed HTML to text", () => {
  it("reads any fragment exactly as the regular expressions do", () => {
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
        const html = parts.join("");
        expect(htmlToText(html)).toBe(reference(html));
      }),
      { numRuns: 3_000 },
    );
  });

  it("keeps a hidden element's text when its closing tag never comes", () => {
    expect(htmlToText("<script>a</style> b <style>c</style> d")).toBe("a b d");
  });

  // Liveness bounds, far above the milliseconds linear reading takes and far below the minutes
  // quadratic reading took (7.5 s for 80,000 characters of "<a"): they catch a return to it.
  it.each([
    ["unclosed tags", "<a".repeat(500_000)],
    ["unclosed comments", "<!--".repeat(250_000)],
    ["unclosed hidden elements", "<script>".repeat(125_000)],
    ["hidden openings without an end", "<script ".repeat(125_000)],
    ["blocks without an end", "<p ".repeat(330_000)],
  ])("reads a megabyte of %s at once", (_, html) => {
    const started = performance.now();
    htmlToText(html);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
