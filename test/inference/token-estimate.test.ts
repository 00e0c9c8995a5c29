import { readFileSync } from "node:fs";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { EXACT_CHARACTERS } from "../../src/inference/token-estimate.js";
import {
  countChatTokens,
  countPromptListTokens,
  countPromptTokens,
  countTextTokens,
  truncateToTokens,
} from "../../src/inference/tokens.js";
import { base64Blob, cjkText, prose } from "../support/large-texts.js";

/** The encoder's own count of the whole text at once: the reference, slow on long runs. */
function referenceCount(text: string): number {
  return countTokens(text, { disallowedSpecial: new Set<string>() });
}

/**
 * The reference for text with no spaces at all, whose one long piece the encoder takes
 * quadratic time over: the sum over short chunks, a token or so off per cut.
 */
function chunkedReferenceCount(text: string, chunk = 500): number {
  let sum = 0;
  for (let start = 0; start < text.length; start += chunk) {
    sum += referenceCount(text.slice(start, start + chunk));
  }
  return sum;
}

/** Milliseconds `work` takes. */
function timed<T>(work: () => T): { result: T; ms: number } {
  const started = performance.now();
  const result = work();
  return { result, ms: performance.now() - started };
}

// Liveness bounds, many times what the work takes, far below what it took before (seconds to
// minutes): they catch a return to quadratic or unbounded counting, not a slow machine.
const LIVENESS_MS = 5_000;

describe("counting any text is linear and bounded", () => {
  it("counts a megabyte of one letter at once (quadratic before: about 15 minutes)", () => {
    const { result, ms } = timed(() => countTextTokens("a".repeat(1_000_000)));
    expect(ms).toBeLessThan(LIVENESS_MS);
    // o200k spends a token on every eight repeated letters.
    expect(result).toBe(125_000);
  });

  it("counts a run with no space as the encoder does when the run is short enough to try", () => {
    const run = "a".repeat(12_000);
    expect(countTextTokens(run)).toBe(referenceCount(run));
  });

  it("counts 16 MB of random ideographs, base64 or prose within the bound", () => {
    for (const text of [cjkText(16_000_000), base64Blob(4_000_000), prose(16_000_000)]) {
      const { result, ms } = timed(() => countTextTokens(text));
      expect(ms).toBeLessThan(LIVENESS_MS);
      expect(result).toBeGreaterThan(text.length / 8);
    }
  });

  it("counts a chat of thousands of messages for no more than one long message", () => {
    const messages = Array.from({ length: 16_000 }, (_, index) => ({
      role: "user" as const,
      content: base64Blob(1_000, index),
    }));
    const { result, ms } = timed(() => countChatTokens(messages));
    expect(ms).toBeLessThan(LIVENESS_MS);
    // Random base64 takes about 0.68 tokens a character.
    expect(result).toBeGreaterThan(16_000_000 * 0.6);
    expect(result).toBeLessThan(16_000_000 * 0.75);
  });
});

describe("exact counts where they are cheap", () => {
  it("counts prose and source code exactly", () => {
    const source = readFileSync(new URL(import.meta.url), "utf8").slice(0, EXACT_CHARACTERS);
    for (const text of [prose(EXACT_CHARACTERS), source, "end.\n\n  Next line\tand\r\nmore  "]) {
      expect(countTextTokens(text)).toBe(referenceCount(text));
      expect(countPromptTokens(text)).toBe(referenceCount(text));
    }
  });

  it("counts several prompts as the sum of their counts", () => {
    const third = Math.floor(EXACT_CHARACTERS / 3);
    const prompts = [prose(third, 5), prose(third, 6), "Will it rain?"];
    const sum = prompts.reduce((total, prompt) => total + referenceCount(prompt), 0);
    expect(countPromptListTokens(prompts)).toBe(sum);
  });
});

describe("estimates beyond the exact budget", () => {
  it.each([
    ["prose", () => prose(1_000_000), referenceCount],
    ["base64", () => base64Blob(300_000), referenceCount],
    ["ideographs", () => cjkText(40_000), chunkedReferenceCount],
  ])("lands within a few percent of %s, leaning high", (_label, make, reference) => {
    const text = make();
    const ratio = countTextTokens(text) / reference(text);
    expect(ratio).toBeGreaterThanOrEqual(0.995);
    expect(ratio).toBeLessThan(1.05);
  });

  it("samples the whole text, so a dense blob after a prose question is not missed", () => {
    // Counting a prefix and scaling it would put this at a third of the truth.
    const text = `${prose(40_000)}\n\n${base64Blob(200_000)}`;
    const ratio = countTextTokens(text) / referenceCount(text);
    expect(ratio).toBeGreaterThan(0.97);
    expect(ratio).toBeLessThan(1.1);
  });

  it("gives the same estimate for the same text every time", () => {
    const text = base64Blob(500_000, 9);
    expect(countPromptTokens(text)).toBe(countTextTokens(text));
    expect(countPromptTokens(`${text} `.slice(0, -1))).toBe(countTextTokens(text));
  });
});

describe("truncation is bounded", () => {
  it("cuts a huge run with no space after a few tokens at once", () => {
    const { result, ms } = timed(() => truncateToTokens("a".repeat(2_000_000), 10));
    expect(ms).toBeLessThan(LIVENESS_MS);
    expect(result.truncated).toBe(true);
    expect(result.text).toMatch(/^a+$/);
    expect(countTextTokens(result.text)).toBe(10);
  });

  it("places a cut far into a huge text without counting all of it", () => {
    const text = cjkText(8_000_000);
    const { result, ms } = timed(() => truncateToTokens(text, 1_000_000));
    expect(ms).toBeLessThan(LIVENESS_MS);
    expect(result.truncated).toBe(true);
    expect(text.startsWith(result.text)).toBe(true);
    // About two tokens per ideograph: the cut lands near half a million characters.
    expect(result.text.length).toBeGreaterThan(400_000);
    expect(result.text.length).toBeLessThan(600_000);
  });

  it("cuts exactly within the exact budget, never inside a character", () => {
    const text = `${prose(2_000)} 🎲🎲🎲 ${prose(2_000, 7)}`;
    for (const maxTokens of [0, 1, 50, 400, 450, 10_000]) {
      const { text: kept, truncated } = truncateToTokens(text, maxTokens);
      expect(text.startsWith(kept)).toBe(true);
      expect(referenceCount(kept)).toBeLessThanOrEqual(maxTokens);
      expect(truncated).toBe(referenceCount(text) > maxTokens);
      expect(kept).not.toMatch(/[\uD800-\uDBFF]$/u);
    }
  });
});
