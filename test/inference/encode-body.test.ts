import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeBody } from "../../src/inference/openai/encode-body.js";

/** A string of `length` characters made by repeating `fragment`, cut at the length. */
function repeated(fragment: string, length: number): string {
  return fragment.repeat(Math.ceil(length / fragment.length)).slice(0, length);
}

const LARGE = 1_100_000;

describe("the upstream body of a long prompt, written in slices", () => {
  it("is byte for byte what JSON.stringify gives", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: "binary", minLength: 1, maxLength: 12 }),
        fc.string({ unit: "grapheme", maxLength: 40 }),
        fc.integer({ min: 0, max: 3 }),
        async (fragment, short, shift) => {
          const body = {
            model: "m",
            // The long text ends a character or so off a slice boundary, so pairs are split.
            messages: [
              { role: "system", content: short },
              { role: "user", content: repeated(fragment, LARGE + shift) },
              { role: "assistant", content: `${short}\u0000${short}` },
              { role: "user", content: repeated(`${fragment}"\\`, 70_000) },
            ],
            temperature: 0.5,
            stop: [short],
          };
          const bytes = await encodeBody(body, LARGE * 2);
          expect(bytes.equals(Buffer.from(JSON.stringify(body)))).toBe(true);
        },
      ),
      { numRuns: 15 },
    );
  });

  it("keeps surrogate pairs whole across slice edges", async () => {
    // 😀 is two UTF-16 units; an odd offset puts a pair across every 256,000-unit slice edge.
    const prompt = `x${"😀".repeat(600_000)}`;
    const bytes = await encodeBody({ prompt }, prompt.length);
    expect(bytes.equals(Buffer.from(JSON.stringify({ prompt })))).toBe(true);
  });

  it("keeps a request text that looks like the marker it writes", async () => {
    const body = { prompt: ["\u0000", "a".repeat(1_200_000), '"\u0000"'] };
    const bytes = await encodeBody(body, 1_200_002);
    expect(bytes.equals(Buffer.from(JSON.stringify(body)))).toBe(true);
  });
});
