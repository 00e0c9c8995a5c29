import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const REPOSITORY = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Run in a fresh process, where nothing else has loaded a vocabulary: the retained heap and
 * typed-array bytes, after full collections, before importing the encoder, after importing it,
 * and after its first use.
 */
const MEASURE = `
const retained = () => {
  for (let round = 0; round < 4; round++) globalThis.gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return { heapUsed, arrayBuffers };
};
const before = retained();
const encoder = await import("./src/inference/bpe/o200k-base.js");
const imported = retained();
const tokens = encoder.countTokens("Will it rain in 東京 tomorrow? 🌧️ <|endoftext|>");
const used = retained();
process.stdout.write(JSON.stringify({ before, imported, used, tokens }));
`;

const MB = 1024 * 1024;

interface Retained {
  heapUsed: number;
  arrayBuffers: number;
}

interface Measurement {
  before: Retained;
  imported: Retained;
  used: Retained;
  tokens: number;
}

describe("o200k_base encoder memory", () => {
  it("builds nothing at import, and keeps a few megabytes of typed arrays after first use", () => {
    const output = execFileSync(
      process.execPath,
      ["--expose-gc", "--import", "tsx", "--input-type=module", "--eval", MEASURE],
      { cwd: REPOSITORY, encoding: "utf8" },
    );
    const { before, imported, used, tokens }: Measurement = JSON.parse(output);
    expect(tokens).toBeGreaterThan(10);
    expect(imported.arrayBuffers - before.arrayBuffers).toBeLessThan(0.5 * MB);
    // gpt-tokenizer's own o200k_base keeps ~20 MB of heap: its strings, Maps and source.
    expect(used.heapUsed - before.heapUsed).toBeLessThan(2 * MB);
    expect(used.arrayBuffers - imported.arrayBuffers).toBeGreaterThan(3 * MB);
    expect(used.arrayBuffers - imported.arrayBuffers).toBeLessThan(6 * MB);
  });
});
