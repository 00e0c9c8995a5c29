import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { largestAffordableMaxTokens } from "../../src/completions/affordable.js";
import { type WorstCase, worstCaseNanos } from "../../src/completions/pricing/worst-case.js";
import { parseTokenPrice } from "../../src/util/money.js";

const price = fc
  .integer({ min: 0, max: 100_000 })
  .map((micros) => parseTokenPrice((micros / 1e9).toFixed(9)));

const worstCase: fc.Arbitrary<WorstCase> = fc.record({
  price: fc.record({ prompt: price, completion: price }),
  samples: fc.integer({ min: 1, max: 5 }),
  promptTokens: fc.integer({ min: 0, max: 200_000 }),
  choiceCount: fc.integer({ min: 1, max: 128 }),
  repairs: fc.boolean(),
  classificationNanos: fc.integer({ min: 0, max: 1_000_000 }),
  multiplier: fc.constantFrom(1, 0.5, 0.25),
  researchFeesNanos: fc.integer({ min: 0, max: 10_000_000 }),
});

describe("the largest affordable max_tokens", () => {
  it("fits in what is available, and one more token does not", () => {
    fc.assert(
      fc.property(
        worstCase,
        fc.integer({ min: 1, max: 200_000 }),
        fc.integer({ min: 0, max: 10_000_000_000 }),
        (worst, maxTokens, available) => {
          const largest = largestAffordableMaxTokens({ worst, maxTokens }, available);
          expect(largest).toBeGreaterThanOrEqual(0);
          expect(largest).toBeLessThanOrEqual(maxTokens);
          if (largest > 0) expect(worstCaseNanos(worst, largest)).toBeLessThanOrEqual(available);
          if (largest < maxTokens) {
            expect(worstCaseNanos(worst, largest + 1)).toBeGreaterThan(available);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
