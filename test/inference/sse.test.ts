import { describe, expect, it } from "vitest";
import { readSseMessages, type SseMessage, SseParser } from "../../src/inference/openai/sse.js";

function parseInPieces(pieces: string[]): SseMessage[] {
  const parser = new SseParser();
  return [...pieces.flatMap((piece) => parser.push(piece)), ...parser.end()];
}

const STREAM =
  'data: {"a":1}\n\n: comment\ndata: line one\ndata: line two\n\nevent: error\ndata: x\n\n';
const EXPECTED: SseMessage[] = [
  { event: "message", data: '{"a":1}' },
  { event: "message", data: "line one\nline two" },
  { event: "error", data: "x" },
];

describe("SseParser", () => {
  it("parses events, joins multi-line data and skips comments", () => {
    expect(parseInPieces([STREAM])).toEqual(EXPECTED);
  });

  it("gives the same events however the stream is split", () => {
    for (const lineBreak of ["\n", "\r\n", "\r"]) {
      const text = STREAM.replaceAll("\n", lineBreak);
      for (let cut = 0; cut <= text.length; cut += 1) {
        expect(parseInPieces([text.slice(0, cut), text.slice(cut)])).toEqual(EXPECTED);
      }
      expect(parseInPieces([...text])).toEqual(EXPECTED);
    }
  });

  it("treats CR then LF in separate chunks as one line break", () => {
    expect(parseInPieces(["data: a\r", "\n\r", "\ndata: b\r\n\r\n"])).toEqual([
      { event: "message", data: "a" },
      { event: "message", data: "b" },
    ]);
  });

  it("strips one space after the colon and accepts none", () => {
    expect(parseInPieces(["data:x\n\ndata:  y\n\n"])).toEqual([
      { event: "message", data: "x" },
      { event: "message", data: " y" },
    ]);
  });

  it("ignores blank lines without data and unknown fields", () => {
    expect(parseInPieces(["\n\nid: 7\nretry: 10\n\ndata: z\n\n"])).toEqual([
      { event: "message", data: "z" },
    ]);
  });

  it("delivers a last event that lacks its blank line", () => {
    expect(parseInPieces(["data: [DONE]"])).toEqual([{ event: "message", data: "[DONE]" }]);
  });
});

describe("readSseMessages", () => {
  it("decodes UTF-8 split inside a character", async () => {
    const bytes = new TextEncoder().encode("data: ü€\n\n");
    async function* body() {
      for (const byte of bytes) yield Uint8Array.of(byte);
    }
    const messages: SseMessage[] = [];
    for await (const message of readSseMessages(body())) messages.push(message);
    expect(messages).toEqual([{ event: "message", data: "ü€" }]);
  });
});
