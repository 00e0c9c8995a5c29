import { describe, expect, it } from "vitest";
import { plainText } from "../../../src/research/providers/plain-text.js";

describe("plainText", () => {
  it("removes inline tags without adding spaces", () => {
    expect(plainText("The <strong>Mars</strong> samp<em>le</em>", 100)).toBe("The Mars sample");
  });

  it("turns block elements into line breaks and keeps paragraphs", () => {
    expect(plainText("<h1>Title</h1><p>First.</p><p>Second<br>line.</p>", 100)).toBe(
      "Title\n\nFirst.\n\nSecond\nline.",
    );
  });

  it("drops scripts, styles and comments with their content", () => {
    expect(
      plainText('A<script type="x">var a = "<p>";</script>B<style>p{}</style>C<!-- note -->D', 100),
    ).toBe("ABCD");
  });

  it("drops everything after a script that is never closed", () => {
    expect(plainText("Kept <script>hidden text", 100)).toBe("Kept");
  });

  it("keeps angle brackets that are not tags", () => {
    expect(plainText("a < b and c > d, x<3, <<>>", 100)).toBe("a < b and c > d, x<3, <<>>");
  });

  it("decodes entities and leaves unknown or invalid ones as written", () => {
    expect(
      plainText(
        "Q&amp;A &lt;b&gt; &quot;x&quot; &#39;y&#x27; a&nbsp;b &copy2; &bogus; &#0; &#xD800;",
        200,
      ),
    ).toBe("Q&A <b> \"x\" 'y' a b &copy2; &bogus; &#0; &#xD800;");
  });

  it("does not read decoded text as markup", () => {
    expect(plainText("&lt;script&gt;alert(1)&lt;/script&gt;", 100)).toBe(
      "<script>alert(1)</script>",
    );
  });

  it("collapses spaces and blank lines", () => {
    expect(plainText("  a \t b \n\n\n\n c  \r\n", 100)).toBe("a b\n\nc");
  });

  it("cuts at the limit with an ellipsis and never splits a surrogate pair", () => {
    expect(plainText("abcdefghij", 5)).toBe("abcd…");
    expect(plainText("abc😀def", 5)).toBe("abc…");
  });

  it("returns an empty string for markup without text", () => {
    expect(plainText("<div><br/></div>", 100)).toBe("");
  });
});
