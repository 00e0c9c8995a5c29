import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sampleQuestions } from "../../src/evaluation/question-sets/sample.js";
import type { EvalItem, QuestionSet } from "../../src/evaluation/types.js";

function setOf(sizes: Record<string, number>, dates = 1): QuestionSet {
  const items: EvalItem[] = Object.entries(sizes).flatMap(([source, size]) =>
    Array.from({ length: size }, (_, q) =>
      Array.from({ length: dates }, (_, d) => ({
        key: `${source}/${q}@${d}`,
        questionId: String(q),
        source,
        answerType: "binary" as const,
        prompt: "Question: ?",
        predictionDate: "2026-07-05",
        dueDate: "2026-07-05",
        resolutionDate: `2026-08-0${d + 1}`,
        options: null,
        marketValue: null,
        forecastBench: null,
      })),
    ).flat(),
  );
  return {
    format: "forecastbench",
    name: "test",
    items,
    resolutions: items.map((item) => ({
      itemKey: item.key,
      resolutionDate: item.resolutionDate,
      outcome: { type: "binary", value: 1 },
      resolved: true,
    })),
    skipped: { combination: 0, combination_resolutions: 0, unsupported: 0, over_limit: 0 },
    notes: [],
  };
}

const questionsBySource = (set: QuestionSet) => {
  const counts: Record<string, Set<string>> = {};
  for (const item of set.items) {
    counts[item.source] ??= new Set();
    counts[item.source]?.add(item.questionId);
  }
  return Object.fromEntries(Object.entries(counts).map(([s, ids]) => [s, ids.size]));
};

describe("--limit N --seed S: a seeded sample stratified by source", () => {
  it("shares N by source size, covers every source, and keeps a question's dates together", () => {
    // 8 of 16: one each first, then 5 more in proportion (9 : 4 : 0), largest remainder.
    const sample = sampleQuestions(setOf({ acled: 10, fred: 5, infer: 1 }, 2), 8, 7);
    expect(questionsBySource(sample)).toEqual({ acled: 4, fred: 3, infer: 1 });
    expect(sample.items).toHaveLength(16);
    expect(sample.resolutions).toHaveLength(16);
    expect(sample.skipped.over_limit).toBe(8);
  });

  it("draws the same questions for the same seed, others for another", () => {
    const set = setOf({ acled: 40, fred: 40 });
    const keys = (seed: number) => sampleQuestions(set, 10, seed).items.map((i) => i.key);
    expect(keys(1)).toEqual(keys(1));
    expect(keys(1)).not.toEqual(keys(2));
    // Not the first questions of the file.
    expect(keys(1)).not.toEqual(
      set.items.filter((i) => Number(i.questionId) < 5).map((i) => i.key),
    );
  });

  it("always draws exactly N questions: one per source first, the rest within one of its share", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 100 }),
        fc.nat(),
        (sizes, limit, seed) => {
          const sources = Object.fromEntries(sizes.map((size, i) => [`s${i}`, size]));
          const total = sizes.reduce((a, b) => a + b, 0);
          const counts = questionsBySource(sampleQuestions(setOf(sources), limit, seed));
          const drawn = Object.values(counts).reduce((a, b) => a + b, 0);
          expect(drawn).toBe(Math.min(limit, total));
          if (limit >= sizes.length && limit < total) {
            // Every source's first question is taken before any share is worked out, so a share
            // is of the questions and draws left after those (sizes 9, 1, 1, 1 and N = 4 draw one
            // of each, not three of the first).
            const left = limit - sizes.length;
            for (const [i, size] of sizes.entries()) {
              const count = counts[`s${i}`] ?? 0;
              expect(count).toBeGreaterThanOrEqual(1);
              expect(count).toBeLessThanOrEqual(size);
              const share = 1 + ((size - 1) * left) / (total - sizes.length);
              expect(Math.abs(count - share)).toBeLessThan(1);
            }
          }
        },
      ),
    );
  });
});
