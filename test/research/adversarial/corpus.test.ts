import { describe, expect, it } from "vitest";
import { adversarialCorpus, CUTOFF } from "./corpus.js";
import { screen } from "./harness.js";

const corpus = adversarialCorpus();

describe("the adversarial corpus", () => {
  it("holds at least 300 documents, every class with leaks and controls", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(300);
    const leaks = corpus.filter((document) => document.expect === "drop").length;
    const controls = corpus.filter((document) => document.expect === "keep").length;
    expect(leaks).toBeGreaterThanOrEqual(150);
    expect(controls).toBeGreaterThanOrEqual(150);
    expect(new Set(corpus.map((document) => document.marker)).size).toBe(corpus.length);
  });

  it("reaches the model with no leak and every control", async () => {
    const wrong: string[] = [];
    for (const document of corpus) {
      const outcome = await screen([document.result], CUTOFF);
      const shown = outcome.message.includes(document.marker);
      if (shown !== (document.expect === "keep")) {
        wrong.push(`${document.expect === "drop" ? "leaked" : "dropped"}: ${document.id}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("keeps a leak out of the message when it comes beside controls", async () => {
    const documents = corpus.filter((_, index) => index % 13 === 0).slice(0, 50);
    const outcome = await screen(
      documents.map((document) => document.result),
      CUTOFF,
    );
    for (const document of documents) {
      expect(outcome.message.includes(document.marker), document.id).toBe(
        document.expect === "keep",
      );
    }
  });
});
