import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findNumbers, type NumberToken, readNumberAt } from "../../src/forecast/number-tokens.js";

/*
 * The tokenizer scans character codes for speed; what it reads is defined by the pattern it
 * replaced, kept here as the reference: every text must give the same numbers, with the same
 * values, marks and places, from both.
 */
const NUMBER = String.raw`(?<![\w.])(?<![A-Za-z]-)(([-−]?)([$€£]?)(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?:[eE]([-+]?\d+))?(?:(\s*%|\s*per\s?cent\b)|(k|K|M|mn|bn|tn|B|T)(?!\w)|\s+(thousand|million|billion|trillion)\b)?)`;
const HEDGE = String.raw`(?:[\s*~≈]|(?:about|around|approximately|approx\.|roughly|nearly|circa)(?=\s))*`;
const MULTIPLIERS: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mn: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
  t: 1e12,
  tn: 1e12,
  trillion: 1e12,
};

function referenceToken(match: RegExpExecArray, text: string): NumberToken | null {
  const [, written = "", sign, , digitsWritten = "", exponent, percent, shortUnit, longUnit] =
    match;
  const end = match.index + match[0].length;
  const unit = shortUnit ?? longUnit;
  if (unit === undefined && percent === undefined && /[A-Za-z]/.test(text.charAt(end))) {
    return null;
  }
  const multiplier = unit === undefined ? 1 : (MULTIPLIERS[unit.toLowerCase()] ?? 1);
  const value =
    (sign === "" ? 1 : -1) *
    Number(digitsWritten.replace(/,/g, "")) *
    10 ** Number(exponent ?? 0) *
    multiplier;
  if (!Number.isFinite(value)) return null;
  return {
    value,
    percent: percent !== undefined,
    bareInteger: /^\d+$/.test(written),
    start: end - written.length,
    end,
  };
}

function referenceNumbers(text: string): NumberToken[] {
  return [...text.matchAll(new RegExp(NUMBER, "g"))].flatMap(
    (match) => referenceToken(match, text) ?? [],
  );
}

function referenceNumberAt(text: string, index: number): NumberToken | null {
  const pattern = new RegExp(HEDGE + NUMBER, "y");
  pattern.lastIndex = index;
  const match = pattern.exec(text);
  return match === null ? null : referenceToken(match, text);
}

// What numbers are written with, and what stands around them.
const PIECES = [
  "0",
  "5",
  "12",
  "999",
  "1234",
  "1234567890123456789",
  "0.000000000000001234",
  ",",
  ",000",
  ".",
  ".5",
  "-",
  "−",
  "$",
  "€",
  "£",
  "%",
  " ",
  "\n",
  "\u00a0",
  "e",
  "E",
  "e-3",
  "e999",
  "+",
  "k",
  "K",
  "M",
  "mn",
  "bn",
  "B",
  "T",
  "tn",
  "x",
  "th",
  "_",
  " per cent",
  "percent",
  "per  cent",
  " thousand",
  " million",
  " billions",
  "about ",
  "approx. ",
  "~",
  "≈",
  "*",
  "COVID-",
  "v",
  ":",
];

const texts = fc
  .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 14 })
  .map((pieces) => pieces.join(""));

describe("number tokens", () => {
  it("reads the same numbers as the reference pattern", async () => {
    await fc.assert(
      fc.property(texts, (text) => {
        expect(findNumbers(text)).toEqual(referenceNumbers(text));
      }),
      { numRuns: 3_000 },
    );
  });

  it("reads the same number at every place as the reference pattern with hedges", async () => {
    await fc.assert(
      fc.property(texts, (text) => {
        for (let index = 0; index <= text.length; index++) {
          expect(readNumberAt(text, index)).toEqual(referenceNumberAt(text, index));
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it("reads long decimals exactly as Number() does", async () => {
    await fc.assert(
      fc.property(fc.stringMatching(/^\d{1,18}(?:\.\d{1,18})?$/), (written) => {
        expect(findNumbers(written)[0]?.value).toBe(Number(written));
      }),
      { numRuns: 3_000 },
    );
  });
});
