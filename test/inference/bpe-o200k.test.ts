import { readFileSync } from "node:fs";
import referenceRanks from "gpt-tokenizer/bpeRanks/o200k_base";
import * as reference from "gpt-tokenizer/encoding/o200k_base";
import { beforeAll, describe, expect, it } from "vitest";
import { countTokens, decode, encode } from "../../src/inference/bpe/o200k-base.js";
import { o200kVocabulary } from "../../src/inference/bpe/o200k-vocabulary.js";
import { base64Blob, cjkText, prose, randomSource } from "../support/large-texts.js";

/** How the service called gpt-tokenizer: special-token text is plain text. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

function referenceEncode(text: string): number[] {
  return reference.encode(text, PLAIN_TEXT);
}

/** Checks encode, countTokens and decode against gpt-tokenizer's o200k_base for one text. */
function expectSameAsReference(text: string): void {
  const expected = referenceEncode(text);
  const tokens = encode(text);
  expect(tokens, JSON.stringify(text.slice(0, 80))).toEqual(expected);
  expect(countTokens(text)).toBe(reference.countTokens(text, PLAIN_TEXT));
  expect(decode(tokens)).toBe(reference.decode(expected));
}

const CORPUS: Record<string, string[]> = {
  "English prose": [
    "Will the Federal Reserve cut interest rates before the end of the third quarter?",
    "It's what they'd've said: we're sure you'll see THE END. Don't SHOUT'S.",
    prose(20_000),
  ],
  code: [
    readFileSync(new URL("../../src/inference/tokens.ts", import.meta.url), "utf8"),
    "def f(x):\n\tif x >= 0x7f:\n\t\treturn x ** 2  # square\n    return -x\n",
    '#include <stdio.h>\nint main(void){printf("%d\\n", argc);return 0;}\r\n',
    "const re = /^[a-z]+\\/(?:\\d{1,3})$/u; a?.b ?? c; x => x!==y && x===z;",
  ],
  JSON: [
    JSON.stringify({ id: "req_01", n: 3, p: [0.25, 1e-9, -42], ok: true, nested: { ключ: "值" } }),
    JSON.stringify({ messages: [{ role: "user", content: 'Hi\n"there"' }] }, null, 2),
  ],
  numbers: [
    "3.14159 2,718,281 1e10 -0.0001 0x1F 1_000_000 12/31/2025 23:59:59",
    "1234567890".repeat(50),
    "9".repeat(1001),
    "٠١٢٣٤٥٦٧٨٩ १२३४ 一二三 ½ ¾ Ⅻ ①②③",
  ],
  "whitespace and newlines": [
    "",
    " ",
    "   leading and trailing   ",
    "a\n\nb\r\n\r\nc\n \n\td",
    "\n\n\n\n",
    " \t \u00a0\u2003\u3000\u2028\u2029\u000b\u000c x",
    "end.\n\n  Next line\tand\r\nmore  ",
    " ".repeat(700),
  ],
  CJK: [
    "東京都は日本の首都であり、世界有数の大都市である。",
    "中国人民银行周三宣布维持贷款市场报价利率不变。",
    "서울은 대한민국의 수도이며 가장 큰 도시이다.",
    "カタカナとひらがなとＡＢＣ全角１２３",
    cjkText(2_000),
  ],
  "Arabic, Hebrew and Hindi": [
    "قال البنك المركزي إنه سيبقي أسعار الفائدة دون تغيير.",
    "הבנק המרכזי השאיר את הריבית ללא שינוי.",
    "भारतीय रिज़र्व बैंक ने रेपो दर को अपरिवर्तित रखा है।",
    "ภาษาไทยไม่มีการเว้นวรรคระหว่างคำ",
  ],
  emoji: [
    "👨‍👩‍👧‍👦 family, 👩🏽‍💻 coder, 👍🏻👍🏼👍🏽👍🏾👍🏿, 🏳️‍🌈, 🇯🇵🇺🇸, 1️⃣ #️⃣",
    "❤️‍🔥🧑‍🤝‍🧑🫶🏾 ☺︎ ☺️",
    "😀".repeat(300),
  ],
  "combining marks": [
    "e\u0301 a\u0300\u0316 n\u0303 Z\u0351\u0308\u0363a\u0364l\u036dg\u0310o",
    "\u0301\u0302\u0303 leading marks",
    "a\u20dd \u0915\u094d\u0937",
  ],
  "lone surrogates": [
    "\ud800",
    "a\udc00b",
    "ends in a high surrogate \ud83d",
    "\ude00\ud83d reversed pair",
    "\ud83d\ud83d\ude00",
  ],
  "special-token text": [
    "<|endoftext|>",
    "<|im_start|>user\nHello<|im_end|><|im_sep|>",
    "<|fim_prefix|>a<|fim_middle|>b<|fim_suffix|><|endofprompt|>",
  ],
  "long single-character runs": [
    "a".repeat(3_000),
    "!".repeat(3_000),
    "\n".repeat(2_000),
    "日".repeat(2_000),
    "é".repeat(2_500),
  ],
  "base64 blobs": [base64Blob(5_000), `data:image/png;base64,${base64Blob(1_000, 4)}==`],
  // gpt-tokenizer drops a byte-order mark that a merge puts in front of valid UTF-8 (see
  // merge-rank.ts): "\uFEFF名" is the one token for 名.
  "byte-order marks": [
    "\ufeff",
    "\ufeff\ufeff",
    "\ufeffhello",
    "\ufeff名",
    "\ufeffusing System;",
    "x\ufeff// y\ufeff\n",
  ],
  "control and Latin-1 characters": [
    "\u0000\u0001\u0007\u001b[31m\u007f",
    "\u0080\u0085\u0099\u00a0\u00ad\u00ff ÿþý",
  ],
};

describe("o200k_base encoding matches gpt-tokenizer", () => {
  beforeAll(() => {
    // gpt-tokenizer decodes through one streaming TextDecoder for the whole process, which
    // drops a byte-order mark only at the very start of its stream; start that stream here so
    // the comparisons below see what it does from then on.
    reference.decode(referenceEncode("\ufeff"));
  });

  it.each(Object.entries(CORPUS))("on %s", (_name, texts) => {
    for (const text of texts) expectSameAsReference(text);
  });

  it("on thousands of seeded random strings of mixed scripts and byte-ish characters", () => {
    const random = randomSource(20_240_601);
    for (let index = 0; index < 4_000; index++) {
      expectSameAsReference(randomText(random));
    }
  });
});

describe("o200k_base decoding", () => {
  it("gives back the text of its tokens", () => {
    for (const text of Object.values(CORPUS).flat()) {
      if (text.includes("\ufeff") || !isWellFormed(text)) continue;
      expect(decode(encode(text))).toBe(text);
    }
  });

  it("turns a cut inside a character into U+FFFD", () => {
    const tokens = encode("😀👍🏽");
    expect(tokens).toHaveLength(4);
    expect(decode(tokens.slice(0, 3))).toBe("😀👍\ufffd");
  });

  it("holds every token of gpt-tokenizer's data, byte for byte, under its rank", () => {
    const vocabulary = o200kVocabulary();
    const utf8 = new TextEncoder();
    const spelled = new Uint8Array(256);
    expect(vocabulary.size).toBe(referenceRanks.length);
    referenceRanks.forEach((entry, rank) => {
      const bytes = typeof entry === "string" ? utf8.encode(entry) : Uint8Array.from(entry);
      const length = vocabulary.copyToken(rank, spelled, 0);
      const same = length === bytes.length && bytes.every((byte, index) => spelled[index] === byte);
      if (!same || vocabulary.rankOf(bytes, 0, bytes.length) !== rank) {
        expect.fail(`token ${rank} is stored differently`);
      }
    });
  });

  it("refuses ids outside the vocabulary", () => {
    expect(() => decode([199_998])).toThrow(RangeError);
    expect(() => decode([-1])).toThrow(RangeError);
    expect(() => decode([1.5])).toThrow(RangeError);
  });
});

/** Code point ranges the random strings draw from: scripts, marks, spaces and odd units. */
const RANGES: readonly (readonly [number, number])[] = [
  [0x20, 0x7e], // ASCII printable
  [0x30, 0x39], // digits
  [0x00, 0x1f], // control characters, tab, newlines
  [0x80, 0xff], // Latin-1
  [0x100, 0x24f], // Latin extended
  [0x300, 0x36f], // combining marks
  [0x370, 0x3ff], // Greek
  [0x400, 0x4ff], // Cyrillic
  [0x590, 0x6ff], // Hebrew and Arabic
  [0x900, 0x97f], // Devanagari
  [0xe00, 0xe7f], // Thai
  [0x3040, 0x30ff], // kana
  [0x4e00, 0x9fff], // CJK ideographs
  [0xac00, 0xd7a3], // Hangul
  [0xd800, 0xdfff], // lone surrogates
  [0xfe00, 0xfe0f], // variation selectors
  [0xff00, 0xffef], // full-width forms
  [0x1f300, 0x1faff], // emoji
  [0x1f3fb, 0x1f3ff], // skin tones
  [0x10000, 0x10ffff], // anything astral
];

/** Spaces, joiners and marks that change how pieces split and merge. */
const ODD_CHARACTERS = [
  " ",
  "  ",
  "\n",
  "\r\n",
  "\t",
  "\u00a0",
  "\u3000",
  "\u200d",
  "\ufeff",
  "'s",
  "<|",
];

function randomText(random: () => number): string {
  // One to three ranges per string, so runs of one script form pieces as real text does.
  const ranges = Array.from(
    { length: 1 + Math.floor(random() * 3) },
    () => RANGES[Math.floor(random() * RANGES.length)] ?? [0x20, 0x7e],
  );
  const length = Math.floor(random() * 48);
  let text = "";
  for (let index = 0; index < length; index++) {
    if (random() < 0.15) {
      text += ODD_CHARACTERS[Math.floor(random() * ODD_CHARACTERS.length)];
      continue;
    }
    const [low, high] = ranges[Math.floor(random() * ranges.length)] ?? [0x20, 0x7e];
    text += String.fromCodePoint(low + Math.floor(random() * (high - low + 1)));
  }
  return text;
}

function isWellFormed(text: string): boolean {
  return !/\p{Surrogate}/u.test(text);
}
