import { describe, expect, it } from "vitest";
import { findNumbers, withoutDates } from "../../src/forecast/numbers.js";

const values = (text: string) => findNumbers(text).map((token) => token.value);

describe("findNumbers", () => {
  it.each<[string, number[]]>([
    ["1,250 units", [1250]],
    ["-3.5 and −2", [-3.5, -2]],
    ["$42.5k", [42500]],
    ["5 million viewers and 1.2bn views", [5e6, 1.2e9]],
    ["between 30-50", [30, 50]],
    ["COVID-19 cases: 12", [12]],
    ["the 10th percentile at 3am", []],
    [".62 and 1e3", [0.62, 1000]],
    ["v0.5 build", []],
  ])("%j → %j", (text, expected) => {
    expect(values(text)).toEqual(expected);
  });

  it("marks percentages", () => {
    expect(findNumbers("62% and 62 percent and 62").map((token) => token.percent)).toEqual([
      true,
      true,
      false,
    ]);
  });
});

describe("withoutDates", () => {
  it("blanks dates but keeps positions", () => {
    const text = "By 2025-06-30, or June 30, 2025, or 30/06/2025, expect 42.";
    const blanked = withoutDates(text);
    expect(blanked).toHaveLength(text.length);
    expect(values(blanked)).toEqual([42]);
  });

  it("takes no date across a line break: a month ending a sentence, an ordinal on the next line", () => {
    const text = "A price rise is due in March.\n\n10th percentile: 2.1M\n90th: 3.2M";
    expect(values(withoutDates(text))).toEqual(values(text));
    expect(values(withoutDates("Due on 10th\nMarch 2026 we expect 42."))).toEqual(
      values("Due on 10th\nMarch 2026 we expect 42."),
    );
  });
});
