import { describe, expect, it } from "vitest";
import { freshTwoSided } from "./fresh/two-sided.js";
import { report, score, summary } from "./held-out/score.js";

/*
 * Fresh replies of the class "two options, one side stated", written after its reader and not
 * tuned on: all of them right, and none misread.
 */
describe("fresh two-option replies stating one side", () => {
  it("reads every one right, and misreads none", () => {
    const scored = score(freshTwoSided);
    console.log(`fresh two-sided: ${summary(scored)}`);
    expect(
      scored.filter((result) => result.verdict === "misread"),
      report(scored),
    ).toEqual([]);
    expect(
      scored.filter((result) => result.verdict === "miss"),
      report(scored),
    ).toEqual([]);
  });
});
