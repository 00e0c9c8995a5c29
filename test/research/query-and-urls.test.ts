import { describe, expect, it } from "vitest";
import { urlKey } from "../../src/research/normalize-url.js";
import { MAX_QUERY_CHARS, researchQuery } from "../../src/research/query.js";

describe("the research query", () => {
  it.each([
    [
      "Will the Fed cut rates in June 2024? Answer with a probability between 0 and 1.",
      "Will the Fed cut rates in June 2024?",
    ],
    [
      "Question: Who will win the election?\nFormat: JSON object with option letters.\nRespond with <answer> tags.",
      "Who will win the election?",
    ],
    ["Will GDP grow?\n\nThink step by step. Your final answer must be a number.", "Will GDP grow?"],
  ])("keeps the question and drops the answer instructions: %s", (message, query) => {
    expect(researchQuery(message)).toBe(query);
  });

  it("falls back to the whole message when it is all instructions", () => {
    expect(researchQuery("Answer with yes or no.")).toBe("Answer with yes or no.");
  });

  it("is bounded, cut at a word", () => {
    const message = `Will ${"the very long question ".repeat(500)}end?`;
    const query = researchQuery(message);
    expect(query.length).toBeLessThanOrEqual(MAX_QUERY_CHARS);
    expect(query.length).toBeGreaterThan(MAX_QUERY_CHARS / 2);
    expect(message.startsWith(`${query} `)).toBe(true);
  });
});

describe("url keys", () => {
  it("treat the same page as one", () => {
    const key = urlKey("https://news.example/a");
    expect(urlKey("HTTPS://NEWS.EXAMPLE/a/")).toBe(key);
    expect(urlKey("http://news.example:80/a")).toBe(key);
    expect(urlKey("https://news.example/a?utm_source=x&utm_campaign=y#top")).toBe(key);
    expect(urlKey("https://news.example/a?fbclid=1")).toBe(key);
  });

  it("keep what tells pages apart", () => {
    expect(urlKey("https://news.example/a?id=1")).not.toBe(urlKey("https://news.example/a?id=2"));
    expect(urlKey("https://news.example/A")).not.toBe(urlKey("https://news.example/a"));
    expect(urlKey("https://news.example/a?b=2&a=1")).toBe(urlKey("https://news.example/a?a=1&b=2"));
  });
});
