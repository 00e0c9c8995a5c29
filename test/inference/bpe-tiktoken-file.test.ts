import { describe, expect, it } from "vitest";
import { parseTiktokenFile } from "../../src/inference/bpe/tiktoken-file.js";

const utf8 = new TextEncoder();

function rankFile(lines: string[]): Uint8Array {
  return utf8.encode(lines.join("\n"));
}

function tokensOf(file: Uint8Array): number[][] {
  const { bytes, offsets } = parseTiktokenFile(file);
  return Array.from({ length: offsets.length - 1 }, (_, rank) => [
    ...bytes.subarray(offsets[rank], offsets[rank + 1]),
  ]);
}

describe("tiktoken rank files", () => {
  it("decodes each line's base64 into the bytes of the token of that rank", () => {
    const file = rankFile(["IQ== 0", "IHRo 1", "w6k= 2", "/w== 3", "AAEC 4", ""]);
    expect(tokensOf(file)).toEqual([[0x21], [0x20, 0x74, 0x68], [0xc3, 0xa9], [0xff], [0, 1, 2]]);
  });

  it("reads a last line with no newline", () => {
    expect(tokensOf(rankFile(["YQ== 0", "YmM= 1"]))).toEqual([[0x61], [0x62, 0x63]]);
  });

  it("refuses ranks out of order, which would shift every token after them", () => {
    expect(() => parseTiktokenFile(rankFile(["YQ== 0", "Yg== 2", ""]))).toThrow(
      /rank 1 has rank 2/,
    );
  });

  it("refuses lines that are not base64 and a rank", () => {
    expect(() => parseTiktokenFile(rankFile(["Y*== 0", ""]))).toThrow(/not base64/);
    expect(() => parseTiktokenFile(rankFile(["YQ==", ""]))).toThrow(/no rank/);
    expect(() => parseTiktokenFile(rankFile(["Y=Q= 0", ""]))).toThrow(/padding/);
  });
});
