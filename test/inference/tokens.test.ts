import { describe, expect, it } from "vitest";
import {
  countChatTokens,
  countPromptTokens,
  countTextTokens,
  truncateToTokens,
} from "../../src/inference/tokens.js";

describe("token counting", () => {
  it("counts text tokens with o200k_base", () => {
    expect(countTextTokens("")).toBe(0);
    expect(countTextTokens("hello world")).toBe(2);
  });

  it("counts special-token strings in user text as plain text", () => {
    expect(countTextTokens("<|endoftext|>")).toBeGreaterThan(1);
  });

  it("adds a per-message overhead to chats", () => {
    const content = "Will it rain tomorrow?";
    const one = countChatTokens([{ role: "user", content }]);
    expect(one).toBe(countTextTokens(content) + 4 + 3);
    const two = countChatTokens([
      { role: "system", content: "" },
      { role: "user", content },
    ]);
    expect(two).toBe(one + 4);
  });

  it("counts a prompt sent again as it counted it the first time", () => {
    const prompts = Array.from({ length: 200 }, (_, i) =>
      // Long enough to be remembered.
      `Question ${i}: will index ${i * 7} close above ${i * 13}? `.repeat(10 * ((i % 5) + 1)),
    );
    const first = prompts.map(countPromptTokens);
    expect(first).toEqual(prompts.map(countTextTokens));
    // Fresh string objects with the same text, as a parsed request body would carry.
    expect(prompts.map((prompt) => countPromptTokens(` ${prompt}`.slice(1)))).toEqual(first);
  });

  it("counts texts too long to remember all the same", () => {
    const long = "The committee voted to hold rates steady. ".repeat(60_000);
    expect(countPromptTokens(long)).toBe(countTextTokens(long));
    expect(countPromptTokens(long)).toBe(countTextTokens(long));
  });

  it("truncates to a token budget", () => {
    expect(truncateToTokens("hello world", 5)).toEqual({ text: "hello world", truncated: false });
    expect(truncateToTokens("hello world", 1)).toEqual({ text: "hello", truncated: true });
    expect(truncateToTokens("hello", 0)).toEqual({ text: "", truncated: true });
  });
});
